package cxx

import "testing"

// A member bound once is the memory it was bound to; one bound to two
// memories, or handed to a helper by a reference it may rebind, is only
// its own name.
func TestBoundOrigin(t *testing.T) {
	src := `class Ring {
public:
  __aicore__ inline void Init(GM_ADDR win, uint32_t data) {
    win_ = win;
    base_ = AcquireWindow();
    base_ = base_ + half_;
    status_ = base_ + data_;
    statusGm_.SetGlobalBuffer((__gm__ int32_t *)status_);
    twice_.SetGlobalBuffer((__gm__ int32_t *)status_);
    Rebind(lent_, status_);
    lent_.SetGlobalBuffer((__gm__ int32_t *)status_);
  }
  __aicore__ inline void Swap() { twice_.SetGlobalBuffer((__gm__ int32_t *)other_); }
  __aicore__ inline void Rebind(GlobalTensor<int32_t> &t, GM_ADDR p) { t.SetGlobalBuffer((__gm__ int32_t *)(p + 64)); }
  __aicore__ inline int32_t Read() {
    return statusGm_.GetValue(0) + twice_.GetValue(0) + lent_.GetValue(0) + *(__gm__ int32_t *)win_;
  }
  GlobalTensor<int32_t> statusGm_, twice_, lent_;
  GM_ADDR win_, base_, status_, other_;
  uint32_t data_, half_;
};
`
	f := parseCPP(t, "k.h", src)
	s := Summarize(nil, f)
	for _, c := range []struct{ recv, name, region string }{
		{"statusGm_", "AcquireWindow()", "data_"}, // status_ = base_ + data_, base_ a window moved by itself
		{"twice_", "twice_", ""},                  // bound to status_ and to other_
		{"lent_", "lent_", ""},                    // handed to Rebind by reference
	} {
		var o Origin
		for _, n := range f.Tree.OfKind("call_expression") {
			if call, ok := AsCall(n); ok && call.Name == "GetValue" && call.Receiver != nil && call.Receiver.Text() == c.recv {
				o = s.BoundOrigin(s.OriginOf(call.Receiver))
			}
		}
		if o.Kind != NamedOrigin || o.Name != c.name || o.Region != c.region {
			t.Errorf("%s: %+v, want %s region %q", c.recv, o, c.name, c.region)
		}
	}
	// win_ is bound to a parameter: its function's to name.
	if o := s.BoundOrigin(Origin{Kind: NamedOrigin, Name: "win_"}); o.Name != "win_" {
		t.Errorf("win_: %+v, want its own name", o)
	}
}
