package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestGMFalseSharing(t *testing.T) {
	results := analysistest.Run(t, "testdata/ext013", GMFalseSharing)
	root, _ := filepath.Abs("testdata/ext013")
	// The display-only sketches: what each would write.
	want := map[string][2]string{
		"`partial[get_block_idx(args)]`":  {"entry.cpp", "  partial[(get_block_idx(args) * 16)] = sum;"},
		"`flags[blockIdx * kFlagStride]`": {"slots.h", "constexpr uint32_t kFlagStride = 16;"},
		"`slots[blockIdx].sum`":           {"slots.h", "struct alignas(64) Slot {"},
	}
	seen := 0
	for _, r := range results {
		for _, d := range r.Diags {
			for _, fix := range d.Fixes {
				if fix.Applicability != analysis.DisplayOnly {
					t.Errorf("%s: fix is %v, want display-only", fix.Title, fix.Applicability)
				}
				for prefix, w := range want {
					if !strings.HasPrefix(d.Message, prefix) {
						continue
					}
					seen++
					got := fixedText(t, root, fix, filepath.Join(root, w[0]))
					if !strings.Contains(got, w[1]) {
						t.Errorf("fix %q: %s lacks %q:\n%s", fix.Title, w[0], w[1], got)
					}
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d sketches, want %d", seen, len(want))
	}
}
