package rules

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
)

// naiveJoin is insertJoin's meaning, the way it was first written: each
// insertion at a place already edited is appended to the text there
// unless that text already holds it.
func naiveJoin(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	at := map[editPlace]int{}
	for _, e := range edits {
		k := editPlace{e.File, e.Start, e.End}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, e)
		} else if e.Start == e.End && !strings.Contains(out[i].NewText, e.NewText) {
			out[i].NewText += e.NewText
		}
	}
	return out
}

// TestInsertJoinAsNaive: the joined edits are the naive join's, for texts
// that share lines, repeat, overlap across lines, end a line or not.
func TestInsertJoinAsNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"  dcci(a, SINGLE_CACHE_LINE);\n", "  dcci(b, SINGLE_CACHE_LINE);\n", "a, SINGLE_CACHE_LINE);\n",
		"  dcci(a, SINGLE_CACHE_LINE);\n  dcci(b, SINGLE_CACHE_LINE);\n", "  dcci(b, SINGLE_CACHE_LINE);\n  dcci(c, SINGLE_CACHE_LINE);\n",
		"dcci(c, SINGLE_CACHE_LINE); ", "\n", "", "  x;\n"}
	for run := 0; run < 100; run++ {
		var edits []analysis.TextEdit
		kinds := len(pieces)
		if run%2 == 0 {
			kinds = 5 // every text ends a line: the joins are looked up by line
		}
		for i := rng.Intn(3000); i >= 0; i-- {
			text := pieces[rng.Intn(kinds)]
			switch rng.Intn(8) { // long joins pass the index's threshold
			case 0, 1:
				text = fmt.Sprintf("  dcci(p%d, SINGLE_CACHE_LINE);\n", rng.Intn(1000))
			case 2:
				text = fmt.Sprintf("  dcci(p%d, SINGLE_CACHE_LINE);\n  dcci(p%d, SINGLE_CACHE_LINE);\n", rng.Intn(1000), rng.Intn(1000))
			}
			start := uint32(rng.Intn(3))
			edits = append(edits, analysis.TextEdit{File: "k.cpp", Start: start, End: start + uint32(rng.Intn(2)), NewText: text})
		}
		want := naiveJoin(edits)
		j := newInsertJoin(edits[:1])
		for _, e := range edits[1:] {
			j.add(e)
		}
		got := j.edits()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run %d: joined\n%v\nwant\n%v", run, got, want)
		}
	}
}

// TestInsertJoinLinear: joining n distinct dcci lines at one place (the
// reads one loop's dcci covers) allocates linearly in n. Appending each
// to a string allocated the square of n (an 8 MB nest of loops: 50 s).
func TestInsertJoinLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		edits := make([]analysis.TextEdit, n)
		for i := range edits {
			edits[i] = analysis.TextEdit{File: "k.cpp", Start: 7, End: 7, NewText: fmt.Sprintf("  dcci(&in[%d], SINGLE_CACHE_LINE);\n", i)}
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		j := newInsertJoin(edits[:1])
		for _, e := range edits[1:] {
			j.add(e)
		}
		if got := j.edits(); len(got) != 1 || strings.Count(got[0].NewText, "\n") != n {
			t.Fatalf("%d lines joined into %d edits", n, len(got))
		}
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	small, large := alloc(4000), alloc(16000)
	if r := float64(large) / float64(small); r > 4*1.5 {
		t.Errorf("joining 4,000 lines allocated %d bytes, 16,000: %d (x%.1f for x4): superlinear", small, large, r)
	}
}
