package unit

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// callNamed returns the call of name in f (the first).
func callNamed(t *testing.T, f *grammar.File, name string) *grammar.Node {
	t.Helper()
	for _, n := range f.Tree.OfKind("call_expression") {
		if c, ok := cxx.AsCall(n); ok && c.Name == name {
			return n
		}
	}
	t.Fatalf("no call of %s", name)
	return nil
}

// Each reason two statements of one function never run in one core's
// run, and statements that can.
func TestApartInRun(t *testing.T) {
	src := `__aicore__ void k(int incy, int n, bool det) {
  if (incy == 1) { A(); } else { B(); }
  if (incy != 1) { C(); }
  if (!det) { D(); }
  if (det) { E(); }
#if defined(WIDE)
  F();
#else
  G();
#endif
  n++;
  if (n > 2) { H(); }
  if (n <= 2) { I(); }
  if (incy == 1 && det) { J(); }
  switch (incy) {
    case 1: K(); break;
    case 2: L();
    case 3: { M(); break; }
    default: N();
  }
  switch (incy) { case 4: O(); break; }
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	fn := cxx.EnclosingFunction(callNamed(t, f, "A"))
	for _, c := range []struct {
		a, b string
		want Apart
	}{
		{"A", "B", OneIf},
		{"A", "C", SameTest}, // incy == 1, then incy != 1: incy never assigned
		{"D", "E", SameTest}, // !det read as det not holding
		{"F", "G", PPBranch}, // the two branches of one #if
		{"H", "I", Together}, // n is stepped: the two tests may see two values
		{"J", "C", SameTest}, // a taken && holds each conjunct
		{"A", "D", Together}, // unrelated tests
		{"J", "B", SameTest}, // J holds incy == 1, B its negation
		{"K", "L", OneIf},    // two cases of one switch
		{"K", "N", OneIf},    // a case and the default
		{"L", "M", Together}, // case 2 runs on into case 3
		{"K", "O", SameTest}, // two switches on incy, never assigned
		{"A", "K", Together}, // an if and a case are not compared
	} {
		if got := ApartInRun(callNamed(t, f, c.a), callNamed(t, f, c.b), fn); got != c.want {
			t.Errorf("%s, %s: %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Two returns are complementary when their tests differ in one taken
// each way; a third test, or two differences, are not.
func TestComplements(t *testing.T) {
	src := `__aicore__ void k(int idx, int n, bool det) {
  if (idx >= n && !det) { A(); }
  if (idx < n) { if (!det) { B(); } }
  if (idx < n) { if (det) { C(); } }
  if (idx < n) { if (!det) { if (n > 3) { D(); } } }
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	lits := func(name string) Literals {
		n := callNamed(t, f, name)
		return LiteralsOf(n, cxx.EnclosingFunction(n))
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{"A", "B", true}, {"A", "C", false}, {"B", "C", true}, {"A", "D", false}} {
		if got := lits(c.a).Complements(lits(c.b)); got != c.want {
			t.Errorf("%s, %s: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// Compile-time choices along the callers: a helper called only under
// `if constexpr (det)` never runs with one called only under its else,
// whichever way a runtime test goes; one kernel of a file does not run
// another's code.
func TestExecApart(t *testing.T) {
	root := writeTree(t, map[string]string{"k.cpp": `template <bool det>
__aicore__ void Sync() { SyncAll(); }
template <bool det>
__aicore__ void Hand() { CrossCoreSetFlag(14); }
template <bool det>
__aicore__ void Both() { Mixed(); }
template <bool det>
__aicore__ void Run(int x) {
  if constexpr (det) { Sync<det>(); } else { Hand<det>(); }
  if (x > 0) { Both<det>(); } else { Other(); }
}
extern "C" __global__ __aicore__ void k1(__gm__ uint8_t *x) { Run<true>(1); Left(); }
extern "C" __global__ __aicore__ void k2(__gm__ uint8_t *x) { Right(); }
`})
	u := (*Store)(nil).ForEntry(context.Background(), workspace.New(root), filepath.Join(root, "k.cpp"))
	if u == nil {
		t.Fatal("no unit")
	}
	x := u.Exec()
	f := u.Files[0]
	for _, c := range []struct {
		a, b string
		want Apart
	}{
		{"SyncAll", "CrossCoreSetFlag", CompileChoice},
		{"Left", "Right", CompileChoice},
		{"SyncAll", "Mixed", Together},
		{"Mixed", "Other", Together}, // a runtime test: other cores may take the other side
	} {
		if got := x.Apart(callNamed(t, f, c.a), callNamed(t, f, c.b)); got != c.want {
			t.Errorf("%s, %s: %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// A kernel entry's switch or if on a value every core reads alike (a
// tiling field) goes one way per launch; one on the core's block id, in a
// loop, or out of the entry does not.
func TestExecLaunchChoice(t *testing.T) {
	root := writeTree(t, map[string]string{"k.cpp": `struct Tiling { uint32_t key; };
__aicore__ void Helper(uint32_t k) { if (k == 1) { H1(); } else { H2(); } }
extern "C" __global__ __aicore__ void k(__gm__ uint8_t *x, __gm__ uint8_t *tiling) {
  uint32_t key = ((__gm__ Tiling *)tiling)->key;
  switch (key) {
    case 1: A(); break;
    case 2: B(); break;
  }
  if (key > 3) { C(); } else if (key > 1) { D(); }
  switch (AscendC::GetBlockIdx()) {
    case 0: E(); break;
    case 1: F(); break;
  }
  for (uint32_t i = 0; i < 2; i++) {
    if (key == i) { G(); } else { I(); }
  }
  Helper(key);
}
`})
	u := (*Store)(nil).ForEntry(context.Background(), workspace.New(root), filepath.Join(root, "k.cpp"))
	if u == nil {
		t.Fatal("no unit")
	}
	f := u.Files[0]
	for _, c := range []struct {
		a, b       string
		plain, run Apart
	}{
		{"A", "B", Together, CompileChoice},
		{"C", "D", Together, CompileChoice},
		{"A", "C", Together, Together},
		{"E", "F", Together, Together},   // the block id differs between cores
		{"G", "I", Together, Together},   // a loop decides it again
		{"H1", "H2", Together, Together}, // a helper may be called twice
	} {
		a, b := callNamed(t, f, c.a), callNamed(t, f, c.b)
		if got := u.Exec().Apart(a, b); got != c.plain {
			t.Errorf("%s, %s without launch choices: %d, want %d", c.a, c.b, got, c.plain)
		}
		if got := u.Exec().Launched(u.Variance(nil)).Apart(a, b); got != c.run {
			t.Errorf("%s, %s: %d, want %d", c.a, c.b, got, c.run)
		}
	}
}
