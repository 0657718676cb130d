package rules

import (
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestTopologyGetter(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext008", TopologyGetter)
	// The fix uses the args parameter's own name, and helpers without one
	// get no fix.
	fixes := map[string]int{}
	for _, r := range results {
		for _, d := range r.Diags {
			if strings.HasSuffix(d.File, "vec_add.cpp") && len(d.Fixes) > 0 {
				t.Errorf("vec_add.cpp: fix %q passes a data pointer as args", d.Fixes[0].Title)
			}
			for _, f := range d.Fixes {
				for _, e := range f.Edits {
					fixes[e.NewText]++
				}
			}
		}
	}
	for _, want := range []string{"get_block_idx(task_args)", "get_sub_block_id(task_args)", "get_sub_block_id(a)"} {
		if fixes[want] == 0 {
			t.Errorf("no fix rewrites to %q (got %v)", want, fixes)
		}
	}
	if n := fixes["get_sub_block_id(args)"] + fixes["get_block_num(args)"]; n != 1 {
		t.Errorf("fixes naming `args`: %d, want 1 (only the bridge entry's get_block_num): %v", n, fixes)
	}
}
