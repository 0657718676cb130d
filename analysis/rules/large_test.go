package rules

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Large generated inputs: a rule must stay linear in the size of a function
// (issue 13). The tests are hang guards with a generous timeout; the
// benchmarks measure the growth (go test -bench Large -run ^$ ./analysis/rules).

// largeShapes generate an extern whose single function is about size bytes.
var largeShapes = map[string]struct {
	rule *analysis.Analyzer
	gen  func(size int) []byte
}{
	// EXT011: stores, barriers and early returns, repeated.
	"ext011-returns": {BarrierEarlyReturn, func(size int) []byte {
		var b bytes.Buffer
		b.WriteString("#include \"kernel_operator.h\"\n__aicore__ inline void phase(__gm__ float *p, int i) { p[i] = 0; }\n")
		b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n")
		b.WriteString("  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);\n  int64_t idx = get_block_idx();\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "  out[%d] = %d;\n  phase(out, %d);\n", i, i, i)
			if i%16 == 0 {
				fmt.Fprintf(&b, "  if (idx == %d) return;\n", i)
			}
			if i%64 == 0 {
				b.WriteString("  AscendC::SyncAll();\n")
			}
		}
		b.WriteString("  AscendC::SyncAll();\n}\n")
		return b.Bytes()
	}},
	// EXT007: many findings on one long line.
	"ext007-one-line": {FFTSBaseReset, func(size int) []byte {
		var b bytes.Buffer
		b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {")
		for b.Len() < size {
			b.WriteString(" set_ffts_base_addr(0);")
		}
		b.WriteString("\n}\n")
		return b.Bytes()
	}},
	// EXT007: a helper whose else-if chain tests a parameter every call
	// passes a constant for; each reset is judged against the same call.
	"ext007-param-chain": {FFTSBaseReset, func(size int) []byte {
		var b bytes.Buffer
		b.WriteString("__aicore__ inline void pick(__gm__ uint8_t *sync, int mode) {\n  if (sync != nullptr) {\n  }")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, " else if (mode == %d) {\n    set_ffts_base_addr((uint64_t)sync + %d);\n  }", i, i)
		}
		b.WriteString("\n}\nextern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) { pick(nullptr, 1); }\n")
		return b.Bytes()
	}},
}

func runLarge(t testing.TB, rule *analysis.Analyzer, src []byte) []analysis.Diagnostic {
	return runLargeRules(t, []*analysis.Analyzer{rule}, src)
}

func runLargeRules(t testing.TB, rules []*analysis.Analyzer, src []byte) []analysis.Diagnostic {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.cpp")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace.New(dir)
	ws.SetLimits(func(string) int64 { return 64 << 20 }, 0)
	ds, err := analysis.Run(ws, path, analysis.Options{Analyzers: rules, Enabled: func(*analysis.Analyzer) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestLargeFunctionsFinish analyses a 2 MB function of each shape; a rule
// that is superlinear in function size does not finish within the guard.
func TestLargeFunctionsFinish(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for name, shape := range largeShapes {
		t.Run(name, func(t *testing.T) {
			src := shape.gen(2 << 20)
			done := make(chan int, 1)
			go func() { done <- len(runLarge(t, shape.rule, src)) }()
			select {
			case n := <-done:
				if n == 0 {
					t.Errorf("no findings on %d bytes: the generator no longer exercises %s", len(src), shape.rule.Code)
				}
			case <-time.After(3 * time.Minute):
				buf := make([]byte, 1<<20)
				t.Fatalf("%s on a 2 MB function did not finish:\n%s", shape.rule.Code, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

func BenchmarkLarge(b *testing.B) {
	for _, name := range []string{"ext011-returns", "ext007-one-line", "ext007-param-chain"} {
		shape := largeShapes[name]
		for _, kb := range []int{200, 400, 800, 1600} {
			src := shape.gen(kb << 10)
			b.Run(fmt.Sprintf("%s/%dKB", name, kb), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for i := 0; i < b.N; i++ {
					runLarge(b, shape.rule, src)
				}
			})
		}
	}
}

// BenchmarkShapes runs every rule, and each rule alone, on each adversarial
// shape (shapes_test.go) at 256 KB to 2 MB; a rule linear in the size of a
// function and of a file takes twice the time and allocations for twice
// the bytes. Select with the names, e.g.
//
//	go test ./analysis/rules -run '^$' -bench 'Shapes/else-if/.*/all' -benchtime 1x
func BenchmarkShapes(b *testing.B) {
	names := make([]string, 0, len(shapeGens))
	for n := range shapeGens {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, kb := range []int{256, 512, 1024, 2048} {
			b.Run(fmt.Sprintf("%s/%dKB", name, kb), func(b *testing.B) {
				src := shapeGens[name](kb << 10)
				sets := map[string][]*analysis.Analyzer{"all": All()}
				for _, r := range All() {
					sets[r.Code] = []*analysis.Analyzer{r}
				}
				codes := []string{"all"}
				for _, r := range All() {
					codes = append(codes, r.Code)
				}
				for _, code := range codes {
					b.Run(code, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(src)))
						cpu0 := processCPU()
						for i := 0; i < b.N; i++ {
							runLargeRules(b, sets[code], src)
						}
						b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
					})
				}
			})
		}
	}
}

// processCPU is the user and system CPU time of the process so far: less
// noisy than wall time on a loaded machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestShapesWorkLinear guards linearity by counting work instead of
// timing it: growing each adversarial shape (and one file of many
// kernels) four times may grow the work of all the rules on it (parse
// included) about four times, counted as the nodes the analyses look at
// (grammar.CountVisits: walks that allocate nothing count too), as
// objects allocated and as bytes allocated. A rule that scans a function
// per statement, or re-walks a loop per nesting level, grows them by 8
// to 16 times on these shapes; the dense ones (helpers, else-if-returns)
// show at 32 KB what the others show only at megabytes (a lookup scanning
// every helper's parameters; the tests before each return of an else-if
// chain listed per return; a walk up an else-if chain per store: EXT009
// visits x12 from 128 to 512 KB).
func TestShapesWorkLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	work := func(src []byte) (visits int64, objects, bytes uint64) {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		stop := grammar.CountVisits()
		runLargeRules(t, All(), src)
		visits = stop()
		runtime.ReadMemStats(&m1)
		return visits, m1.Mallocs - m0.Mallocs, m1.TotalAlloc - m0.TotalAlloc
	}
	gens := maps.Clone(shapeGens)
	gens["many-kernels"] = benchgen.ManyKernels
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			small, large := 32, 128
			if name == "nest-depth" {
				// Its nest deepens with the size up to 256 levels (about
				// 170 KB), and a statement's work may grow with its depth
				// (deep-loops bounds how): past that, it is linear.
				small, large = 192, 384
			}
			grow := float64(large) / float64(small)
			sv, so, sb := work(gen(small << 10))
			lv, lo, lb := work(gen(large << 10))
			rv, ro, rb := float64(lv)/float64(sv), float64(lo)/float64(so), float64(lb)/float64(sb)
			if rv > grow*1.15 || ro > grow*1.25 || rb > grow*1.25 {
				t.Errorf("%s: %d nodes visited, %d objects (%d bytes) allocated on %d KB, %d, %d (%d) on %d KB (x%.2f, x%.2f, x%.2f for x%.0f): superlinear", name, sv, so, sb, small, lv, lo, lb, large, rv, ro, rb, grow)
			} else {
				t.Logf("%s: visits x%.2f, objects x%.2f, bytes x%.2f from %d to %d KB", name, rv, ro, rb, small, large)
			}
		})
	}
}
