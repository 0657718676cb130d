package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestFFTSFlagReserved(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext005", FFTSFlagReserved)
	titles := map[string]bool{}
	editFiles := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diags {
			if filepath.Base(d.File) == "phase.h" {
				if len(d.Related) != 1 || filepath.Base(d.Related[0].File) != "entry.cpp" {
					t.Errorf("phase.h: related %+v, want the SyncAll in entry.cpp", d.Related)
				}
				// The wait in the header is renumbered like the sets in
				// the entry, so the pair still matches.
				if len(d.Fixes) != 1 || d.Fixes[0].Title != "Use flag id 1 instead of 12" {
					t.Errorf("phase.h: fixes %+v, want the entry's replacement for 12 (1)", d.Fixes)
				}
			}
			for _, f := range d.Fixes {
				titles[f.Title] = true
				for _, e := range f.Edits {
					editFiles[filepath.Base(e.File)] = true
				}
			}
		}
	}
	// Distinct reserved ids get distinct free ids, lowest first (0, 1, 5,
	// 7 are free in syncall/entry.cpp); named constants are edited where
	// they are defined, the header's in the header.
	for _, want := range []string{
		"Use flag id 1 instead of 12",
		"Change `kQkReady` to flag id 1 (was 12)",
		"Change `HDR_FLAG` to flag id 1 (was 12)",
		"Change `FLAG_DONE` to flag id 0 (was 11)",
		"Change `kRawCfg` to flag id 0 (was 11)",
		"Change `IMP_2` to flag id 0 (was 11)",
		"Use flag id 5 instead of 13",
		"Use flag id 7 instead of 14",
		"Use flag id 0 instead of 16",
	} {
		if !titles[want] {
			t.Errorf("no fix titled %q; have %v", want, titles)
		}
	}
	// A helper's caller is fixed at its argument, the `x << 8` term of a
	// raw config included.
	if !titles["Use flag id 7 instead of 14"] {
		t.Errorf("no fix for raw_sync's config")
	}
	if !editFiles["flags.h"] {
		t.Errorf("no fix edits flags.h (HDR_FLAG's definition): %v", editFiles)
	}
}

// Ids in the project's reserved-flags are flagged with or without a
// SyncAll, and never chosen as replacements (offending ids are renumbered
// in ascending order: 8, 11, 12 -> 1, 2, 3). The mode-1 set of 11 counts
// on a vector core, where the vector-only SyncAll waits on 14 alone: no
// finding.
func TestFFTSFlagReservedSettings(t *testing.T) {
	path, _ := filepath.Abs("testdata/ext005/inc_syncall/entry.cpp")
	diags, err := analysis.Run(workspace.New(filepath.Dir(path)), path, analysis.Options{
		Analyzers: []*analysis.Analyzer{FFTSFlagReserved},
		Settings:  analysis.Settings{ReservedFlags: []int{0, 8}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		s := d.Message[:strings.Index(d.Message, ",")]
		for _, f := range d.Fixes {
			s += " | " + f.Title
		}
		got = append(got, s)
	}
	want := []string{
		"`CrossCoreSetFlag` uses FFTS flag 11 (`EV_PING`) | Change `EV_PING` to flag id 2 (was 11)",
		"`CrossCoreWaitFlag` uses FFTS flag 12 (`EV_PONG`) | Change `EV_PONG` to flag id 3 (was 12)",
		"`CrossCoreSetFlag` uses FFTS flag 8 | Use flag id 1 instead of 8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("with reserved-flags [0, 8]:\n got %q\nwant %q", got, want)
	}
	if len(diags) == 3 && !strings.Contains(diags[2].Message, "which the project reserves (reserved-flags)") {
		t.Errorf("reserved-flags message: %s", diags[2].Message)
	}
}

// The configured chip decides what the code cannot: with `arch = "a2a3"`
// the mode-4 sets of unknownarch/ are wrong (and id 18 does not fit),
// with `arch = "a5"` only what is wrong on both chips is left.
func TestFFTSFlagReservedTarget(t *testing.T) {
	path, _ := filepath.Abs("testdata/ext005/unknownarch/entry.cpp")
	run := func(arch grammar.Arch) []string {
		diags, err := analysis.Run(workspace.New(filepath.Dir(path)), path, analysis.Options{
			Analyzers: []*analysis.Analyzer{FFTSFlagReserved},
			Settings:  analysis.Settings{Arch: arch},
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range diags {
			f, _ := os.ReadFile(path)
			line := strings.Count(string(f[:d.Start]), "\n") + 1
			got = append(got, fmt.Sprintf("%d: %s", line, d.Message[:strings.Index(d.Message, ",")]))
		}
		return got
	}
	for _, tc := range []struct {
		arch grammar.Arch
		want []string
	}{
		{grammar.ArchA2A3, []string{
			"12: `CrossCoreSetFlag` uses FFTS flag 18",
			"18: `CrossCoreSetFlag` uses cross-core mode 4",
			"19: `CrossCoreSetFlag` uses cross-core mode 4",
			"24: `CrossCoreSetFlag` uses FFTS flag 21",
		}},
		{grammar.ArchA5, []string{"24: `CrossCoreSetFlag` uses FFTS flag 21"}},
		{grammar.ArchNone, []string{"24: `CrossCoreSetFlag` uses FFTS flag 21"}},
	} {
		if got := run(tc.arch); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("arch %v:\n got %q\nwant %q", tc.arch, got, tc.want)
		}
	}
}
