package cxx

import "testing"

// One reading of "this call drains the store pipes" for every rule: each
// call below is classified by what it waits for and how that is known.
func TestStoreDrain(t *testing.T) {
	src := parse(t, "/w/k.cpp", `template <AscendC::HardEvent E> __aicore__ inline void SyncFunc() {}
__aicore__ inline void WaitHelper(int e) {}
__aicore__ inline void Produce(int e) {}
__aicore__ inline void k() {
  AscendC::PipeBarrier<PIPE_ALL>();
  pipe_barrier(PIPE_MTE3);
  AscendC::PipeBarrier<PIPE_FIX>();
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(ev);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(ev);
  wait_flag(PIPE_FIX, PIPE_S, EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev);
  SyncFunc<AscendC::HardEvent::MTE3_V>();
  SetWaitFlag<AscendC::HardEvent::MTE3_S>(ev);
  SetEvent<AscendC::HardEvent::MTE3_S>(ev);
  WaitHelper(AscendC::HardEvent::MTE3_S);
  Produce(AscendC::HardEvent::MTE3_S);
  Report(AscendC::HardEvent::MTE3_S);
  AscendC::SyncAll<false>();
  AscendC::SyncAll(gm, ub);
  pipe.Destroy();
  runtime_pipe_sync();
  AscendC::DataCopy(dst, src, n);
}
`)
	fs := IndexFunctions(src)
	for text, want := range map[string]struct {
		pipes uint8
		kind  WaitKind
	}{
		"AscendC::PipeBarrier<PIPE_ALL>()":                  {StorePipes, Waits},
		"pipe_barrier(PIPE_MTE3)":                           {PipeMTE3, Waits},
		"AscendC::PipeBarrier<PIPE_FIX>()":                  {PipeFIX, Waits},
		"AscendC::PipeBarrier<PIPE_V>()":                    {0, Waits},
		"AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(ev)": {PipeMTE3, Waits},
		"AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(ev)":  {0, Waits},
		"wait_flag(PIPE_FIX, PIPE_S, EVENT_ID1)":            {PipeFIX, Waits},
		"AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev)": {0, Waits},
		"SyncFunc<AscendC::HardEvent::MTE3_V>()":            {PipeMTE3, Waits},
		"SetWaitFlag<AscendC::HardEvent::MTE3_S>(ev)":       {PipeMTE3, Waits},
		"SetEvent<AscendC::HardEvent::MTE3_S>(ev)":          {0, NotAWait},
		"WaitHelper(AscendC::HardEvent::MTE3_S)":            {PipeMTE3, Waits},
		"Produce(AscendC::HardEvent::MTE3_S)":               {PipeMTE3, Waits},
		"Report(AscendC::HardEvent::MTE3_S)":                {0, NotAWait},
		"AscendC::SyncAll<false>()":                         {StorePipes, Waits},
		"AscendC::SyncAll(gm, ub)":                          {StorePipes, Waits},
		"pipe.Destroy()":                                    {StorePipes, Waits},
		"runtime_pipe_sync()":                               {StorePipes, NamedWait},
		"AscendC::DataCopy(dst, src, n)":                    {0, NotAWait},
	} {
		c, ok := AsCall(findNode(t, src, "call_expression", text))
		if !ok {
			t.Fatalf("%s: not a call", text)
		}
		if pipes, kind := StoreDrain(c, fs); pipes != want.pipes || kind != want.kind {
			t.Errorf("StoreDrain(%s) = %b, %d; want %b, %d", text, pipes, kind, want.pipes, want.kind)
		}
	}
}
