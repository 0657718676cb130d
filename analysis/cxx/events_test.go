package cxx

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestAsEventOp(t *testing.T) {
	f := parse(t, "k.cpp", `constexpr int kPing = 3;
#define EV EVENT_ID5
void f(int i) {
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(kPing);
  set_flag(PIPE_MTE3, PIPE_MTE2, EV);
  wait_flag(pipe_t::PIPE_M, PIPE_MTE1, event_t::EVENT_ID2);
  AscendC::SetFlag<EVT>(1);
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(i % 2 ? EVENT_ID0 : EVENT_ID1);
  set_flag(src, PIPE_V, i);
  que.SetFlag(0);
  Other::SetFlag<AscendC::HardEvent::S_V>(0);
}
`)
	r := NewResolver(f)
	var got []string
	for _, n := range callNodes(f) {
		if op, ok := AsEventOp(n, r); ok {
			got = append(got, fmt.Sprintf("set=%v pair=%q ids=%v", op.Set, op.Pair, op.IDs))
		}
	}
	want := []string{
		`set=true pair="MTE2_V" ids=[0]`,
		`set=false pair="V_MTE3" ids=[3]`,
		`set=true pair="MTE3_MTE2" ids=[5]`,
		`set=false pair="M_MTE1" ids=[2]`,
		`set=true pair="" ids=[1]`,
		`set=false pair="S_V" ids=[0 1]`,
		`set=true pair="" ids=[]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Loops nested deep still cost one walk per statement: the leak at the
// bottom is found within the analysis budget.
func TestUnpairedEventsNestedLoops(t *testing.T) {
	var b strings.Builder
	b.WriteString("extern \"C\" void k(__gm__ int64_t *args) {\n")
	const depth = 40
	for i := 0; i < depth; i++ {
		fmt.Fprintf(&b, "for (int i%d = 0; i%d < n; ++i%d) {\n", i, i, i)
		b.WriteString("  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n")
	}
	for i := 0; i < depth; i++ {
		b.WriteString("}\n")
	}
	b.WriteString("set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);\n}\n")
	f := parse(t, "k.cpp", b.String())
	got := UnpairedEvents(context.Background(), nil, []*grammar.File{f}, nil, NewResolver(f), Functions(f), grammar.AIV)
	if len(got) != 1 || got[0].Problem != EventLeaked || got[0].Key != (EventKey{"MTE2_V", 1}) {
		t.Fatalf("got %+v, want one leak of MTE2_V id 1", got)
	}
}
