package rules

import (
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// BenchmarkShapeMemory runs `extern-lsp check` (every rule, one job) in a
// child process on each adversarial shape at 1, 2, 5 and 10 MB and reports
// its peak RSS and the ratio to the input's size (issue 13: memory at most
// 20x the input on any single file).
//
//	go test ./analysis/rules -run '^$' -bench ShapeMemory -benchtime 1x
func BenchmarkShapeMemory(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "extern-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/extern-lsp/extern-lsp/cmd/extern-lsp").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range slices.Sorted(maps.Keys(shapeGens)) {
		for _, mb := range []int{1, 2, 5, 10} {
			b.Run(fmt.Sprintf("%s/%dMB", name, mb), func(b *testing.B) {
				src := shapeGens[name](mb << 20)
				dir := b.TempDir()
				var peak int64
				for i := 0; i < b.N; i++ {
					rss, err := analysistest.CheckPeakRSS(bin, dir, src)
					if err != nil {
						b.Fatal(err)
					}
					peak = max(peak, rss)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
				b.ReportMetric(float64(peak)/float64(len(src)), "x-input")
			})
		}
	}
}
