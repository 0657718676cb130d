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
// child process on each adversarial shape from 128 KB to 10 MB and reports
// its peak RSS, raw (x-input: peak / size) and over the floor
// (x-over-floor: (peak - floor) / size), where the floor is the peak RSS
// of check on a tiny extern, measured in the same run; see
// analysistest.BenchCheckMemory. Under 1 MB, x-over-floor also counts what
// parsing any real file costs once (about 5 MB: the grammar's tables paged
// in, a piece's C heap, the collector's minimum).
//
//	go test ./analysis/rules -run '^$' -bench ShapeMemory -benchtime 1x
func BenchmarkShapeMemory(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "extern-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/extern-lsp/extern-lsp/cmd/extern-lsp").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	floor := analysistest.CheckFloor(b, bin)
	for _, name := range slices.Sorted(maps.Keys(shapeGens)) {
		for _, kb := range []int{128, 512, 1 << 10, 2 << 10, 5 << 10, 10 << 10} {
			size := fmt.Sprintf("%dKB", kb)
			if kb >= 1<<10 {
				size = fmt.Sprintf("%dMB", kb>>10)
			}
			b.Run(name+"/"+size, func(b *testing.B) {
				analysistest.BenchCheckMemory(b, bin, floor, shapeGens[name](kb<<10))
			})
		}
	}
}
