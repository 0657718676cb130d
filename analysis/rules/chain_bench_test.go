package rules

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// BenchmarkHeaderChain runs `extern-lsp check` (every rule, one job) in a
// child process on an entry and a chain of n one-line headers, each
// including the next (issue 31: 1,500 took 84 s and 1.1 GB at e46a6f4,
// 3.9 s at 43440dc), and reports its CPU time (cpu-ms, cpu-us-per-header)
// and peak RSS. The work is linear in n (TestCheckOfAChainIsLinear): a
// header of #includes alone builds no facts of its closure.
//
//	go test ./analysis/rules -run '^$' -bench HeaderChain -benchtime 1x
func BenchmarkHeaderChain(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "extern-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/extern-lsp/extern-lsp/cmd/extern-lsp").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, n := range []int{250, 500, 1000, 2000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			var u analysistest.CheckUsage
			for i := 0; i < b.N; i++ {
				dir := b.TempDir()
				analysistest.HeaderChain(b, dir, n)
				var err error
				if u, err = analysistest.CheckRun(bin, dir, []byte(analysistest.ChainEntry)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(u.CPU.Milliseconds()), "cpu-ms")
			b.ReportMetric(float64(u.CPU.Microseconds())/float64(n), "cpu-us-per-header")
			b.ReportMetric(float64(u.PeakRSS)/(1<<20), "peak-MB")
		})
	}
}
