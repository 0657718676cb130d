package rules

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// The rules that ask Pass.Unlisted before building a finding predict its
// severity there: on every adversarial shape, a run capped at a few
// findings per rule counts, per rule and severity, what the uncapped run
// lists.
func TestCapCountsEveryFinding(t *testing.T) {
	const max = 3
	for _, name := range slices.Sorted(maps.Keys(shapeGens)) {
		t.Run(name, func(t *testing.T) {
			src := shapeGens[name](48 << 10)
			all := tally(runCapRules(t, src, 0))
			capped := runCapRules(t, src, max)
			listed := map[string]int{}
			for _, d := range capped {
				if d.Unlisted == nil && d.Code != analysis.InternalCode {
					listed[d.Code]++
				}
			}
			for code, n := range listed {
				if n > max {
					t.Errorf("%s: %d findings listed, cap %d", code, n, max)
				}
			}
			if got := tally(capped); !maps.Equal(got, all) {
				t.Errorf("capped run counts %v, uncapped run lists %v", got, all)
			}
		})
	}
}

func runCapRules(t *testing.T, src []byte, max int) []analysis.Diagnostic {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.cpp")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace.New(dir)
	ds, err := analysis.Run(ws, path, analysis.Options{Analyzers: All(), MaxFindingsPerRule: max})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// tally counts findings by rule and severity, the ones a cap note stands
// for included.
func tally(ds []analysis.Diagnostic) map[string]int {
	out := map[string]int{}
	for _, d := range ds {
		if u := d.Unlisted; u != nil {
			for sev, n := range u.BySeverity {
				if n > 0 {
					out[fmt.Sprintf("%s/%v", u.Code, analysis.Severity(sev))] += n
				}
			}
			continue
		}
		out[fmt.Sprintf("%s/%v", d.Code, d.Severity)]++
	}
	return out
}

// The same on every fixture of the rules that ask Pass.Unlisted (their
// fixtures reach every severity they report at): capped at one finding
// per rule and file, the counts are the uncapped run's.
func TestCapCountsFixtures(t *testing.T) {
	for _, a := range []*analysis.Analyzer{GMScalarRead, FFTSFlagReserved, FFTSBaseReset, TopologyGetter, GMScalarWrite, BarrierEarlyReturn, GMFalseSharing, EventUnpaired} {
		dir, err := filepath.Abs(filepath.Join("testdata", strings.ToLower(a.Code)))
		if err != nil {
			t.Fatal(err)
		}
		ws := workspace.New(dir)
		opts := analysis.Options{Analyzers: []*analysis.Analyzer{a}, Enabled: func(*analysis.Analyzer) bool { return true }}
		total := 0
		for _, path := range analysistest.Files(dir) {
			all, err := analysis.Run(ws, path, opts)
			if err != nil {
				t.Fatal(err)
			}
			capped := opts
			capped.MaxFindingsPerRule = 1
			some, err := analysis.Run(ws, path, capped)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := tally(some), tally(all); !maps.Equal(got, want) {
				t.Errorf("%s %s: capped run counts %v, uncapped run lists %v", a.Code, filepath.Base(path), got, want)
			}
			total += len(all)
		}
		if total < 2 {
			t.Errorf("%s: %d findings in its fixtures", a.Code, total)
		}
	}
}
