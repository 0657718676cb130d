package cxx

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// lattice is levels of width helpers without a GM effect, each calling
// every helper of the next level, under one entry: the shape of an SDK's
// layered helpers or an operator's index-add kernel, where the paths down
// (width^levels) far outnumber the calls (width^2 a level).
func lattice(width, levels int) string {
	var b strings.Builder
	for l := levels; l >= 0; l-- {
		n := width
		if l == 0 {
			n = 1
		}
		for i := range n {
			fmt.Fprintf(&b, "__aicore__ inline void h%d_%d(__gm__ int32_t *p, int32_t n) {\n  int32_t x = n + %d;\n", l, i, i)
			if l < levels {
				for j := range width {
					fmt.Fprintf(&b, "  h%d_%d(p, x);\n", l+1, j)
				}
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// A helper's empty effects that no depth limit or recursion cut short are
// kept: asked from each of its callers along every path, they were
// computed once per path (14 s on such a header), now once.
func TestEmptyEffectsKept(t *testing.T) {
	work := func(width int) float64 {
		f := parseCPP(t, "k.cpp", lattice(width, 6))
		var top *grammar.Node
		for _, fn := range Functions(f) {
			if FunctionName(fn) == "h0_0" {
				top = fn
			}
		}
		var s *Summaries
		allocs := testing.AllocsPerRun(2, func() {
			s = Summarize(nil, f)
			if s.effectsOf(top).Len() != 0 {
				t.Fatal("the lattice has effects")
			}
		})
		for _, fn := range Functions(f) {
			if !s.effectsKept(fn) {
				t.Errorf("width %d: the empty effects of %s are not kept", width, FunctionName(fn))
			}
		}
		return allocs
	}
	// Width 2 to 4: the calls grow 4 times, the paths 64 times.
	if small, large := work(2), work(4); large > 6*small {
		t.Errorf("allocations grow %.0f to %.0f from width 2 to 4: the paths are walked, not the calls", small, large)
	}
}

// The same lattice deeper than the expansion limit: the helpers' empty
// answers are cut short there and not kept, but one asked again at the
// depth it was computed at, nothing kept since, is the same (an operator's
// index-add kernel: 114,000 computations of 33 helpers, 1.6 s).
func TestDeepEmptyEffectsOncePerDepth(t *testing.T) {
	work := func(width int) float64 {
		f := parseCPP(t, "k.cpp", lattice(width, maxExpand+3))
		top := Functions(f)[len(Functions(f))-1]
		return testing.AllocsPerRun(2, func() {
			if Summarize(nil, f).effectsOf(top).Len() != 0 {
				t.Fatal("the lattice has effects")
			}
		})
	}
	if small, large := work(2), work(4); large > 6*small {
		t.Errorf("allocations grow %.0f to %.0f from width 2 to 4: the paths are walked, not the calls", small, large)
	}
}

// An empty answer a depth limit cut short is not kept (a shallower start
// may find more), nor one a recursion answered empty for.
func TestEmptyEffectsCutNotKept(t *testing.T) {
	f := parseCPP(t, "k.cpp", lattice(1, maxExpand+2)+`
__aicore__ inline void r1(__gm__ int32_t *p);
__aicore__ inline void r0(__gm__ int32_t *p) { r1(p); }
__aicore__ inline void r1(__gm__ int32_t *p) { r0(p); }
__aicore__ inline void rtop(__gm__ int32_t *p) { r0(p); }
`)
	fns := map[string]*grammar.Node{}
	for _, fn := range Functions(f) {
		fns[FunctionName(fn)] = fn
	}
	s := Summarize(nil, f)
	s.effectsOf(fns["h0_0"])
	s.effectsOf(fns["rtop"])
	for _, name := range []string{"h1_0", "h5_0", "r0", "r1"} {
		if s.effectsKept(fns[name]) {
			t.Errorf("%s: an empty answer cut short is kept", name)
		}
	}
	for _, name := range []string{"h0_0", "rtop"} {
		if !s.effectsKept(fns[name]) {
			t.Errorf("%s: the answer asked first is not kept", name)
		}
	}
}

// The unit's callers of a name are its files' (callSites), by file: one
// lookup in the unit's list, not one per file (a closure of 9,000 helpers in
// 600 files, each asked about: 5 s).
func TestCallersNamedByFile(t *testing.T) {
	var files []*grammar.File
	for i := range 3 {
		files = append(files, parseCPP(t, fmt.Sprintf("f%d.h", i), fmt.Sprintf(`
__aicore__ inline void g(int n) {}
__aicore__ inline void a%d() { g(1); b(); g(2); }
__aicore__ inline void b%d() { b(); g(3); }
`, i, i)))
	}
	// Joined by the unit, or with the calls of a run of its files joined
	// apart (a front end's fact of the files an edit left alone): the same
	// answers in the same order.
	ff := &funcsMemo{m: map[*grammar.File]*FileFuncs{}}
	joins := []struct {
		what string
		s    *Summaries
	}{
		{"unit", Summarize(nil, files...)},
		{"files 1-2 apart", Summarize(ff, files...).JoinCallers(func() *Calls { return JoinCalls(ff, files[1:]...) })},
		{"files 0-1 apart", Summarize(ff, files...).JoinCallers(func() *Calls { return JoinCalls(ff, files[:2]...) })},
		{"file 1 apart", Summarize(ff, files...).JoinCallers(func() *Calls { return JoinCalls(ff, files[1]) })},
	}
	for _, j := range joins[1:] {
		if j.s.callersNamed("g"); j.s.joined == nil {
			t.Fatalf("%s: the joined calls are not used", j.what)
		}
	}
	if s := Summarize(ff, files...).JoinCallers(func() *Calls { return JoinCalls(ff, files[2], files[0]) }); s.callersNamed("g") != nil && s.joined != nil {
		t.Fatal("calls of files out of the unit's order are used")
	}
	for _, j := range joins {
		s := j.s
		for _, name := range []string{"g", "b", "a0", "b2", ""} {
			var want []callerRef
			for i, p := range s.funcFiles {
				for _, ref := range p.callSites(name) {
					want = append(want, callerRef{ref, int32(i)})
				}
			}
			if got := s.callersNamed(name); !slices.Equal(got, want) || name == "g" && len(got) != 9 {
				t.Errorf("%s: callersNamed(%q) = %v, want %v", j.what, name, got, want)
			}
		}
	}
}

// funcsMemo is Direct with each file's function index made once, as a
// front end's store keeps it per parse.
type funcsMemo struct {
	direct
	m map[*grammar.File]*FileFuncs
}

func (f *funcsMemo) Funcs(file *grammar.File) *FileFuncs {
	if f.m[file] == nil {
		f.m[file] = IndexFileFuncs(file)
	}
	return f.m[file]
}

// argListEnd stops at the parenthesis closing the list, past strings,
// character literals and comments holding parentheses.
func TestArgListEnd(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"(a, b); next(c);", "(a, b)"},
		{"  \n (f(x), \")\", ')') tail", "  \n (f(x), \")\", ')')"},
		{"(a /* ) */, b // )\n) tail", "(a /* ) */, b // )\n)"},
		{"; no list", ""},
		{"(never closed", "(never closed"},
	} {
		if got := c.src[:argListEnd([]byte(c.src), 0, 1<<16)]; got != c.want {
			t.Errorf("argListEnd(%q) = %q, want %q", c.src, got, c.want)
		}
	}
	if got := argListEnd([]byte("(aaaaaaaa)"), 0, 4); got != 4 {
		t.Errorf("argListEnd past the limit = %d, want 4", got)
	}
}
