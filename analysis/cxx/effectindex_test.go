package cxx

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// indexUnit is a unit of many functions, each writing back a store, then signalling or publishing with a dsb.
func indexUnit(t *testing.T) (*Summaries, []*grammar.Node) {
	t.Helper()
	var b strings.Builder
	for i := range manyFns + 8 {
		fmt.Fprintf(&b, "__aicore__ inline void f%d(__gm__ int32_t *p, __gm__ int32_t *q) {\n", i)
		fmt.Fprintf(&b, "  p[%d] = 1;\n  dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT);\n", i)
		if i%2 == 0 {
			b.WriteString("  q[0] = 1;\n  dcci(q, SINGLE_CACHE_LINE, CACHELINE_OUT);\n  AscendC::SyncAll();\n}\n")
		} else {
			b.WriteString("  dsb(DSB_DDR);\n}\n")
		}
	}
	f := parseCPP(t, "k.cpp", b.String())
	fns := Functions(f)
	if len(fns) != manyFns+8 {
		t.Fatalf("%d functions", len(fns))
	}
	return Summarize(nil, f), fns
}

// indexAnswers is what the rules ask an index about fn: its effects, the
// first write-back covering the first store, what follows it.
func indexAnswers(x *EffectIndex, fn *grammar.Node) string {
	p := Origin{Kind: ParamOrigin, Param: 0}
	var b strings.Builder
	for i := range x.Len() {
		e := x.Effect(i)
		fmt.Fprintf(&b, "%s@%d:%v ", e.Kind, e.At.Start, e.Origin())
	}
	wb := x.NextCovering(WriteBack, p, grammar.Both, fn.Start, fn.End, nil)
	next, dsb := x.AfterWriteBack(wb, p, grammar.AIV)
	fmt.Fprintf(&b, "| wb %d next %d dsb %v stop %d in %v", wb, next, dsb, x.NextStop(wb, grammar.AIC),
		x.In(Signal, Origin{}, grammar.Both, fn.Start, fn.End))
	return b.String()
}

// The summaries keep the indexes of the last functions asked about: a
// function asked again soon gets the same index, one asked after many
// others an index built again that answers the same.
func TestIndexKept(t *testing.T) {
	s, fns := indexUnit(t)
	first := make([]*EffectIndex, len(fns))
	want := make([]string, len(fns))
	for i, fn := range fns {
		first[i] = s.Index(fn)
		want[i] = indexAnswers(first[i], fn)
		if s.Index(fn) != first[i] {
			t.Fatalf("f%d: asked twice in a row, built twice", i)
		}
	}
	if !strings.Contains(want[0], "signal") || !strings.Contains(want[1], "dsb true") {
		t.Fatalf("f0: %s\nf1: %s", want[0], want[1])
	}
	for i, fn := range fns {
		if got := indexAnswers(s.Index(fn), fn); got != want[i] {
			t.Errorf("f%d: asked again, answers\n%s\nwant\n%s", i, got, want[i])
		}
	}
	if len(s.indexes) > indexesKept {
		t.Errorf("%d indexes kept, at most %d", len(s.indexes), indexesKept)
	}
}

// Passes of a unit's files ask its indexes at once (check -j, the
// server): the cache is under the summaries' lock (go test -race).
func TestIndexCacheConcurrent(t *testing.T) {
	s, fns := indexUnit(t)
	// The answers of a second copy of the unit, asked alone.
	ref, rfns := indexUnit(t)
	want := make([]string, len(fns))
	for i, fn := range rfns {
		want[i] = indexAnswers(ref.Index(fn), fn)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(fns))
	for g := range 4 {
		wg.Go(func() {
			for k := range 3 * len(fns) {
				i := (k*(g+1) + g) % len(fns)
				if got := indexAnswers(s.Index(fns[i]), fns[i]); got != want[i] {
					errs <- fmt.Sprintf("f%d: %s, want %s", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
