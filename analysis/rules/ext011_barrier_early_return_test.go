package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestBarrierEarlyReturn(t *testing.T) {
	analysistest.Run(t, "testdata/ext011", BarrierEarlyReturn)
}

// A probe behind a switch: silent where nothing the tree holds defines
// it (a tree with no build file at all), judged where a header or a
// build script does, or where a build definition's name is unreadable.
func TestBarrierProbeSwitch(t *testing.T) {
	for _, dir := range []string{"testdata/ext011probe", "testdata/ext011probe_built", "testdata/ext011probe_unread"} {
		analysistest.Run(t, dir, BarrierEarlyReturn)
	}
}

// The configured chip reaches the guard model: an A5-only file's probe
// left under `#if __NPU_ARCH__ == 3510` is in no build of an A2/A3
// project (`arch = "a2a3"`), and judged when nothing says the chip.
func TestConfiguredChipDropsOtherChipsBranch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a5_only.cpp")
	src := "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) {\n#if __NPU_ARCH__ == 3510\n  return;\n#endif\n  AscendC::SyncAll();\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for arch, want := range map[grammar.Arch]int{grammar.ArchA2A3: 0, grammar.ArchNone: 1, grammar.ArchA5: 1} {
		diags, err := analysis.Run(workspace.New(dir), path, analysis.Options{
			Analyzers: []*analysis.Analyzer{BarrierEarlyReturn},
			Settings:  analysis.Settings{Arch: arch},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) != want {
			t.Errorf("arch %v: %d findings, want %d: %v", arch, len(diags), want, diags)
		}
	}
}
