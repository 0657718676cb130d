package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// bigKernel writes one extern source of about size bytes: helpers with
// loops, branches, GM copies, args reads and barriers, and an entry that
// calls them all, or (oneLine) the same statements on a single line.
func bigKernel(size int, oneLine bool) []byte {
	var b bytes.Buffer
	nl := "\n"
	if oneLine {
		nl = " "
	}
	b.WriteString("#include \"kernel_operator.h\"\n")
	var n int
	for n = 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "__aicore__ inline void phase%d(__gm__ int64_t *args, AscendC::GlobalTensor<float> g) {%s", n, nl)
		fmt.Fprintf(&b, "  int64_t len = args[%d];%s  for (int64_t i = 0; i < len; ++i) {%s", n%8+1, nl, nl)
		fmt.Fprintf(&b, "    if (i %% 4 == %d) { g.SetValue(i, 0.0f); }%s    AscendC::PipeBarrier<PIPE_V>();%s  }%s", n%4, nl, nl, nl)
		fmt.Fprintf(&b, "  AscendC::SyncAll<false>();%s}%s", nl, nl)
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void big_entry(__gm__ int64_t *args) {\n  AscendC::GlobalTensor<float> g;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  phase%d(args, g);%s", i, nl)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// BenchmarkSingleFileMemory runs `check` (every rule, one job) in a child
// process on one generated file and reports its peak RSS, raw (x-input:
// peak / size) and over the floor (x-over-floor: (peak - floor) / size),
// where the floor is the peak RSS of check on a tiny extern, measured in
// the same run (about 13 MB: the runtime, the rules and the parser, 13x
// of a 1 MB input); see analysistest.BenchCheckMemory. The adversarial shapes of the rules are
// measured the same way by BenchmarkShapeMemory in analysis/rules. A heap
// profile of a run's peak: EXTERN_LSP_MEMPROFILE=FILE extern-lsp check ...
//
//	go test ./cmd/extern-lsp -run '^$' -bench SingleFileMemory -benchtime 1x
func BenchmarkSingleFileMemory(b *testing.B) {
	floor := analysistest.CheckFloor(b, os.Args[0], "EXTERN_LSP_RUN_MAIN=1")
	for _, tc := range []struct {
		name    string
		size    int
		oneLine bool
	}{{"1MB", 1 << 20, false}, {"2MB", 2 << 20, false}, {"5MB", 5 << 20, false}, {"10MB", 10 << 20, false}, {"4MB-one-line", 4 << 20, true}} {
		b.Run(tc.name, func(b *testing.B) {
			analysistest.BenchCheckMemory(b, os.Args[0], floor, bigKernel(tc.size, tc.oneLine), "EXTERN_LSP_RUN_MAIN=1")
		})
	}
}

// BenchmarkParseHeap parses one generated file in process and reports the
// Go heap its parse keeps (nodes, masked text, line index) per input byte,
// and the nodes per KB of input: the share of a file's cost that lives as
// long as its parse does.
//
//	go test ./cmd/extern-lsp -run '^$' -bench ParseHeap -benchtime 1x
func BenchmarkParseHeap(b *testing.B) {
	for _, mb := range []int{1, 2, 5, 10} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			src := bigKernel(mb<<20, false)
			var kept, nodes float64
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				f, err := grammar.ParseFile(context.Background(), nil, "big.cpp", src, nil)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				kept = float64(after.HeapAlloc) - float64(before.HeapAlloc)
				nodes = float64(len(f.Tree.Nodes))
				runtime.KeepAlive(f)
			}
			b.ReportMetric(kept/float64(len(src)), "heap-B/input-B")
			b.ReportMetric(nodes/float64(len(src))*1024, "nodes/KB")
		})
	}
}
