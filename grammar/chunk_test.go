package grammar

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A source parsed in pieces has the nodes of the whole parse: the same
// kinds, fields, flags, spans and shape. The pieces here are a few KB of
// every C++ fixture the repo ships (namespaces, templates, macros, #if).
func TestChunkedParseMatchesWhole(t *testing.T) {
	var b strings.Builder
	for _, root := range []string{"../testdata", "../analysis/rules/testdata", "../examples"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if l, ok := LangOf(p); err == nil && !d.IsDir() && ok && l == CPP {
				src, _ := os.ReadFile(p)
				b.Write(src)
				b.WriteString("\n")
			}
			return nil
		})
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "template <typename T>\nstruct S%d {\n  T v[%d];\n};\nextern \"C\" __global__ __aicore__ void k%d(__gm__ int64_t *args) {\n  if (args[0]) { S%d<float> s; }\n}\n", i, i+1, i, i)
	}
	src := []byte(b.String())
	whole, err := ParseFile(context.Background(), nil, "all.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	chunkBytes, chunkAfter = 4<<10, 8<<10
	parsed, _ := Mask(src)
	if cuts := topLevelSplits(parsed, chunkBytes); len(cuts) < 10 {
		t.Fatalf("only %d cuts in %d bytes", len(cuts), len(src))
	}
	pieces, err := ParseFile(context.Background(), nil, "all.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pieces.Tree.ts != nil {
		t.Fatal("a source parsed in pieces keeps a C tree")
	}
	w, c := whole.Tree.Nodes, pieces.Tree.Nodes
	t.Logf("%d bytes, %d nodes, %d cuts", len(src), len(w), len(topLevelSplits(parsed, chunkBytes)))
	if len(w) != len(c) {
		t.Fatalf("%d nodes in pieces, %d whole", len(c), len(w))
	}
	for i := range w {
		a, b := &w[i], &c[i]
		if a.Kind() != b.Kind() || a.Field() != b.Field() || a.Start != b.Start || a.End != b.End || a.flags != b.flags ||
			a.parent != b.parent || a.last != b.last || a.index != b.index {
			t.Fatalf("node %d: pieces %s %q [%d,%d) parent %d last %d, whole %s %q [%d,%d) parent %d last %d", i,
				b.Kind(), b.Field(), b.Start, b.End, b.parent, b.last, a.Kind(), a.Field(), a.Start, a.End, a.parent, a.last)
		}
	}
}
