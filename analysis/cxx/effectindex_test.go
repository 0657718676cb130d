package cxx

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// An index's position lists are 16 bits wide up to 1<<16 effects and 32
// bits past that; both read back what was set.
func TestPositionsWidths(t *testing.T) {
	for _, max := range []int{10, 1 << 16, 1<<16 + 1} {
		v := makePositions(4, max)
		if wide := v.p32 != nil; wide != (max > 1<<16-1) {
			t.Errorf("max %d: 32 bits %v", max, wide)
		}
		for k, i := range []int32{0, 3, 3, int32(max) - 1} {
			v.set(k, i)
		}
		if v.len() != 4 || v.at(3) != int32(max)-1 || v.search(3) != 1 || v.search(4) != 3 || v.search(int32(max)) != 4 {
			t.Errorf("max %d: %v", max, v)
		}
		if s := v.slice(1, 3); s.len() != 2 || s.at(0) != 3 || s.at(1) != 3 {
			t.Errorf("max %d: slice %v", max, s)
		}
	}
	if (positions{}).len() != 0 {
		t.Error("an empty list is empty")
	}
}

// A list's fact ids are 16 bits wide while they fit, 32 bits past that.
func TestEffectListIDWidths(t *testing.T) {
	var n1, n2 grammar.Node
	for _, top := range []uint32{7, 1 << 20} {
		var b effectBuilder
		b.add(&n1, 3)
		b.add(&n1, top)
		b.add(&n2, 5)
		l := b.list(&factTable{})
		if wide := l.ids.p32 != nil; wide != (top > 1<<16) {
			t.Errorf("top %d: 32 bits %v", top, wide)
		}
		if l.Len() != 3 || l.id(0) != 3 || l.id(1) != top || l.id(2) != 5 || l.at(1) != &n1 || l.at(2) != &n2 || len(l.runs) != 2 {
			t.Errorf("top %d: %+v", top, l)
		}
	}
}

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

// The summaries keep each function's index: asked again, after many
// others, it is the same index.
func TestIndexKept(t *testing.T) {
	s, fns := indexUnit(t)
	first := make([]*EffectIndex, len(fns))
	for i, fn := range fns {
		first[i] = s.Index(fn)
	}
	if a := indexAnswers(first[0], fns[0]); !strings.Contains(a, "signal") {
		t.Fatalf("f0: %s", a)
	}
	if a := indexAnswers(first[1], fns[1]); !strings.Contains(a, "dsb true") {
		t.Fatalf("f1: %s", a)
	}
	for i, fn := range fns {
		if s.Index(fn) != first[i] {
			t.Errorf("f%d: asked again, built again", i)
		}
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
