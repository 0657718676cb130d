package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestEventUnpaired(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext015", EventUnpaired)
	root, _ := filepath.Abs("testdata/ext015")
	// What the fix writes: the wait spelled like the set, before each exit
	// (a braceless `if (...) return;` gets braces).
	want := map[string][]string{
		"flag/entry.cpp:kPong":     {"    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);", "  }\n  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);\n  AscendC::PipeBarrier<PIPE_ALL>();\n  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);\n}\n"},
		"flag/entry.cpp:EVENT_ID0": {"  if (n == 0)\n    { AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0); return; }\n"},
		"raw/entry.cpp:EVENT_ID0":  {"  if (n < 0) {\n    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);\n    return;\n  }\n", "  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID3);\n  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);\n}\n"},
	}
	seen := map[string]bool{}
	for _, r := range results {
		rel, _ := filepath.Rel(root, r.File)
		for _, d := range r.Diags {
			for _, fix := range d.Fixes {
				if fix.Applicability != analysis.Unsafe {
					t.Errorf("%s: fix is %v, want unsafe", fix.Title, fix.Applicability)
				}
				for key, frags := range want {
					file, id, _ := strings.Cut(key, ":")
					if file != filepath.ToSlash(rel) || !strings.Contains(fix.Title, id+");") {
						continue
					}
					seen[key] = true
					got := fixedText(t, root, fix, r.File)
					for _, frag := range frags {
						if !strings.Contains(got, frag) {
							t.Errorf("%s: fix %q: the result lacks\n%s\n---\n%s", rel, fix.Title, frag, got)
						}
					}
				}
			}
		}
	}
	for key := range want {
		if !seen[key] {
			t.Errorf("no fix checked for %s", key)
		}
	}
}
