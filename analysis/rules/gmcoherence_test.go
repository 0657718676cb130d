package rules

import (
	"context"
	"reflect"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestReadPrecedenceOrder: readPrecedence gives each read the answer of
// its function's walk whatever the order the reads are asked in (in
// order, with reads skipped, backwards, twice), the answer PrecedingAt
// gives the read alone.
func TestReadPrecedenceOrder(t *testing.T) {
	src := `#include "kernel_operator.h"
__aicore__ inline void helper(__gm__ int32_t *p) {
  int32_t a = p[0];
  dcci(p, SINGLE_CACHE_LINE);
  int32_t b = p[1];
  if (a) { AscendC::SyncAll(); }
  int32_t c = p[2] + b;
  (void)c;
}
extern "C" __global__ __aicore__ void k(__gm__ int32_t *flags) {
  helper(flags);
  int32_t x = flags[3];
  dcci(flags, SINGLE_CACHE_LINE);
  int32_t y = flags[4] + x;
  while (flags[5] == 0) {}
  (void)y;
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	accs := cxx.NewGMWith(nil, f, cxx.NewGMEnv(nil, nil)).Accesses()
	sum := cxx.SummarizeWith(nil, cxx.FuncsOf(nil, f), f)
	var reads []*cxx.Access
	for i := range accs {
		if a := &accs[i]; a.Kind == cxx.Read && a.Func() != nil {
			reads = append(reads, a)
		}
	}
	if len(reads) < 6 {
		t.Fatalf("%d reads, want 6 at least", len(reads))
	}
	alone := func(a *cxx.Access) cxx.Preceding { return sum.PrecedingAt(a.Func(), []*grammar.Node{a.Node})[0] }
	orders := map[string][]int{"in order": {}, "skipping": {}, "backwards": {}, "twice": {}}
	for i := range reads {
		orders["in order"] = append(orders["in order"], i)
		if i%2 == 1 {
			orders["skipping"] = append(orders["skipping"], i)
		}
		orders["backwards"] = append(orders["backwards"], len(reads)-1-i)
		orders["twice"] = append(orders["twice"], i, i)
	}
	for name, order := range orders {
		p := newReadPrecedence(sum, accs)
		for _, i := range order {
			a := reads[i]
			if got, want := p.of(a.Func(), a), alone(a); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: read %d (%s): %+v, want %+v", name, i, a.Node.Text(), got, want)
			}
		}
	}
}
