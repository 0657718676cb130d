package grammar

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestFlattenOneWalk: the one-walk flatten (into a buffer sized by the
// node count) writes the same nodes as counting the kept nodes first, on
// every C++ and Python fixture of the repository.
func TestFlattenOneWalk(t *testing.T) {
	n := 0
	for _, root := range []string{"../testdata", "../examples", "../analysis/rules/testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if _, ok := LangOf(p); !ok {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) > 64<<10 {
				return nil
			}
			f, err := ParseFile(context.Background(), nil, p, src, nil)
			if err != nil || f.Tree.ts == nil {
				return nil
			}
			defer f.Close()
			counted, err := flattenCounted(f.Tree.ts, f.Tree)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if len(counted) != len(f.Tree.Nodes) {
				t.Fatalf("%s: %d nodes in one walk, %d counted", p, len(f.Tree.Nodes), len(counted))
			}
			for i := range counted {
				if counted[i] != f.Tree.Nodes[i] {
					t.Fatalf("%s: node %d (%s) differs from the counted walk's", p, i, f.Tree.Nodes[i].Kind())
				}
			}
			n++
			return nil
		})
	}
	if n < 50 {
		t.Fatalf("only %d fixtures compared", n)
	}
}
