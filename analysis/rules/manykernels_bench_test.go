package rules

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
)

// BenchmarkManyKernels runs `extern-lsp check` (every rule, one job) in a
// child process on one file of many distinct kernels
// (benchgen.ManyKernels) from 1 to 8 MB, and reports its CPU time
// (cpu-ms) and peak RSS (peak-MB): both must grow linearly with the size
// (issue 30; the constant-value sets of such a file made it cubic: 120 s
// at 256 KB). cpu-ms-per-MB and peak-MB-over-floor-per-MB stay flat when
// it is.
//
//	go test ./analysis/rules -run '^$' -bench ManyKernels -benchtime 1x
func BenchmarkManyKernels(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "extern-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/extern-lsp/extern-lsp/cmd/extern-lsp").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	floor := analysistest.CheckFloor(b, bin)
	for _, mb := range []int{1, 2, 4, 8} {
		src := benchgen.ManyKernels(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			var u analysistest.CheckUsage
			for i := 0; i < b.N; i++ {
				var err error
				if u, err = analysistest.CheckRun(bin, b.TempDir(), src); err != nil {
					b.Fatal(err)
				}
			}
			size := float64(len(src)) / (1 << 20)
			b.ReportMetric(float64(u.CPU.Milliseconds()), "cpu-ms")
			b.ReportMetric(float64(u.CPU.Milliseconds())/size, "cpu-ms-per-MB")
			b.ReportMetric(float64(u.PeakRSS)/(1<<20), "peak-MB")
			b.ReportMetric(float64(u.PeakRSS-floor)/(1<<20)/size, "peak-MB-over-floor-per-MB")
			if u.Stopped {
				b.Errorf("%d MB: stopped at its analysis steps", mb)
			}
		})
	}
}

// TestManyKernelsStayWithinSteps: one file of 256 KB of distinct kernels
// is analysed fully, every rule within its steps, the same run after run
// (a value set or dedupe that grows with the number of kernels shows as
// a rule cut at its steps or a fact that never ends, not as a slow test).
func TestManyKernelsStayWithinSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("a 256 KB input")
	}
	src := benchgen.ManyKernels(256 << 10)
	var first []analysis.Diagnostic
	for run := 0; run < 2; run++ {
		ds := runLargeRules(t, All(), src)
		for _, d := range ds {
			if analysis.Incomplete(&d) {
				t.Fatalf("not fully analysed: %s", d.Message)
			}
		}
		if len(ds) == 0 {
			t.Fatal("no findings: the generator no longer exercises the rules")
		}
		if run == 1 && len(ds) != len(first) {
			t.Errorf("second run: %d findings, first %d", len(ds), len(first))
		}
		first = ds
	}
}
