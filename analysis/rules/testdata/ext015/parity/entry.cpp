// Ping-pong on two events picked by the tile's parity: the wait and the
// set of one iteration test the same parity, so they take the same branch.

// Leaks: event 1 is set before the loop and again on odd tiles, and only
// event 0 is waited after it.
extern "C" __global__ __aicore__ void parity_leak(__gm__ int64_t *args) {
  int64_t tiles = args[0];
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
  set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
  for (int64_t t = 0; t < tiles; ++t) {
    if ((t & 1) == 0) {
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    } else {
      wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID1);
    }
    pipe_barrier(PIPE_V);
    if ((t & 1) == 0) {
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    } else {
      set_flag(PIPE_MTE3, PIPE_V, EVENT_ID1); // want "EXT015 event-unpaired: `set_flag\\(PIPE_MTE3, PIPE_V, EVENT_ID1\\)` sets event MTE3_V id 1, and no wait of it follows on any path"
    }
  }
  wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
}

// Balanced: both events are waited after the loop.
extern "C" __global__ __aicore__ void parity_balanced(__gm__ int64_t *args) {
  int64_t tiles = args[0];
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
  for (int64_t t = 0; t < tiles; ++t) {
    bool even = (t % 2) == 0;
    if (even) {
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    } else {
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    }
    pipe_barrier(PIPE_V);
    if (even) {
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    } else {
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    }
  }
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
}

// The test's name changes between the two ifs: they need not agree, and
// the wait after the loop covers what may be left.
extern "C" __global__ __aicore__ void parity_changed(__gm__ int64_t *args) {
  int64_t tiles = args[0];
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID4);
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t phase = t & 1;
    if (phase == 0) {
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID4);
    }
    phase = args[1];
    if (phase == 0) {
      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID4);
    }
  }
}

// The test reads a member a call between the two ifs changes: they need
// not agree, and nothing is pending on every path.
struct Pinger {
  int64_t phase_ = 0;
  __aicore__ inline void Advance() { phase_ = 1 - phase_; }
  __aicore__ inline void Run(int64_t tiles) {
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID5);
    for (int64_t t = 0; t < tiles; ++t) {
      if (phase_ == 0) {
        wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID5);
      }
      Advance();
      if (phase_ == 0) {
        set_flag(PIPE_V, PIPE_MTE2, EVENT_ID5);
      }
    }
  }
};

extern "C" __global__ __aicore__ void parity_member(__gm__ int64_t *args) {
  Pinger p;
  p.Run(args[0]);
}
