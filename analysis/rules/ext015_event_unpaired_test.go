package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
)

func TestEventUnpaired(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext015", EventUnpaired)
	root, _ := filepath.Abs("testdata/ext015")
	// What the fix writes: the wait spelled like the set, before each exit
	// (a braceless `if (...) return;` gets braces).
	want := map[string][]string{
		"flag/entry.cpp:kPong":     {"    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);", "  }\n  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);\n  AscendC::PipeBarrier<PIPE_ALL>();\n  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);\n}\n"},
		"flag/entry.cpp:EVENT_ID0": {"  if (n == 0)\n    { AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0); return; }\n"},
		// The wait goes between the set and the copy it orders, inside
		// the set's #ifdef (after the #endif the cube would compile a
		// wait no set precedes, and hang).
		"order/entry.cpp:EVENT_ID2": {"  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2); // want \"sets event V_MTE3 id 2 on the vector core, and no wait of it follows\"\n  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2);\n  AscendC::DataCopy(outGm, res, 64);\n#endif\n}"},
		"order/vec.cpp:EVENT_ID5":   {"(EVENT_ID5); // want \"sets event V_MTE3 id 5, and no wait of it follows\"\n  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID5);\n  AscendC::DataCopy(outGm, ub, 64);\n  AscendC::PipeBarrier<PIPE_ALL>();\n}"},
		"raw/entry.cpp:EVENT_ID0":   {"  if (n < 0) {\n    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);\n    return;\n  }\n", "  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID3);\n  wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);\n}\n"},
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

// TestEventUnpairedSettled runs the fixtures and a chain of helpers with
// callees walked at most a few deep: the attempts settleWalk makes, each
// body unwound replayed up to the call it was in, find what one recursive
// walk finds, in the same order.
func TestEventUnpairedSettled(t *testing.T) {
	defer func(depth int) { cxx.SetMaxWalkDepth(depth) }(cxx.SetMaxWalkDepth(0))
	analysistest.RunWithFixes(t, "testdata/ext015", EventUnpaired)

	src := eventChain(300)
	cxx.SetMaxWalkDepth(1 << 30)
	want := eventFindings(t, src)
	if strings.Count(want, "EXT015") < 3 {
		t.Fatalf("the chain no longer exercises the walk: %s", want)
	}
	for _, depth := range []int{0, 1, 3} {
		cxx.SetMaxWalkDepth(depth)
		if got := eventFindings(t, src); got != want {
			t.Errorf("depth %d: findings differ from the recursive walk's\ngot  %s\nwant %s", depth, got, want)
		}
	}
}

// eventFindings are EXT015's findings on src, the temporary directory
// left out.
func eventFindings(t *testing.T, src []byte) string {
	ds := runLargeRules(t, []*analysis.Analyzer{EventUnpaired}, src)
	return regexp.MustCompile(`/\S*/big\.cpp`).ReplaceAllString(fmt.Sprint(ds), "big.cpp")
}

// eventChain is n helpers, each calling the one before (and one half-way
// down) and returning early between; some wait for an event, some set
// another or wait for it, the first sets the first event.
func eventChain(n int) []byte {
	const ev = "  AscendC::%sFlag<AscendC::HardEvent::%s>(EVENT_ID%d);\n"
	var b bytes.Buffer
	b.WriteString(shapePrelude)
	b.WriteString("__aicore__ inline void h0(int64_t i) {\n")
	fmt.Fprintf(&b, ev, "Set", "MTE3_MTE2", 0)
	b.WriteString("}\n")
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, "__aicore__ inline void h%d(int64_t i) {\n", k)
		if k%3 == 0 {
			fmt.Fprintf(&b, ev, "Wait", "MTE3_MTE2", 0)
		}
		fmt.Fprintf(&b, "  h%d(i);\n  if (i == %d) return;\n  h%d(i);\n", k-1, k, k/2)
		if k%4 == 1 {
			fmt.Fprintf(&b, ev, "Set", "MTE2_V", 1)
		}
		if k%5 == 2 {
			fmt.Fprintf(&b, ev, "Wait", "MTE2_V", 1)
		}
		b.WriteString("}\n")
	}
	shapeEntryHead(&b, "big")
	fmt.Fprintf(&b, "  h%d(idx);\n  if (idx == 1) return;\n  h%d(idx);\n}\n", n-1, n/3)
	return b.Bytes()
}
