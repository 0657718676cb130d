// A producer copies its slice into the peer-visible buffer and then tells
// the peer it is there.
#include "signal.h"

class Ring {
 public:
  __aicore__ inline void Init(GM_ADDR data, GM_ADDR flags) {
    dataGm_.SetGlobalBuffer((__gm__ float *)data);
    flags_ = (__gm__ int32_t *)flags;
    pipe_.InitBuffer(buf_, 1024);
    pipe_.InitBuffer(flagBuf_, 64);
    ub_ = buf_.Get<float>();
    flagUb_ = flagBuf_.Get<int32_t>();
  }

  __aicore__ inline void Record(int32_t tag) { PublishWord(flags_ + GetBlockIdx() * 16, flagUb_, tag); }

  __aicore__ inline void Wait(int32_t peer, int32_t tag) { AwaitWord(flags_ + peer * 16, flagUb_, tag); }

  // The flag's copy is queued behind the data's on MTE3 and can land first.
  __aicore__ inline void SendEarly(int32_t tag, uint32_t n) {
    CopyOut(dataGm_, ub_, n);
    Record(tag); // want "publishes a flag while the DMA write `CopyOut\\(dataGm_, ub_, n\\)` \\(line 22\\) may still be in flight"
  }

  // The same with the copy written inline and the flag written directly.
  __aicore__ inline void SendInline(int32_t tag, uint32_t n) {
    DataCopy(dataGm_[n], ub_, n);
    flagUb_.SetValue(0, tag);
    PipeSync<HardEvent::S_MTE3>();
    GlobalTensor<int32_t> f;
    f.SetGlobalBuffer(flags_, 8);
    DataCopy(f, flagUb_, 8); // want "this DMA of a flag word set by scalar publishes a flag"
  }

  // Fixed: the data has landed before the flag is written.
  __aicore__ inline void SendBarrier(int32_t tag, uint32_t n) {
    CopyOut(dataGm_, ub_, n);
    PipeBarrier<PIPE_ALL>();
    Record(tag);
  }

  __aicore__ inline void SendWaited(int32_t tag, uint32_t n) {
    CopyOut(dataGm_, ub_, n);
    PipeSync<HardEvent::MTE3_S>();
    Record(tag);
  }

  __aicore__ inline void SendMte3Barrier(int32_t tag, uint32_t n) {
    CopyOut(dataGm_, ub_, n);
    pipe_barrier(PIPE_MTE3);
    Record(tag);
  }

  // A wait on the peer between: what the flag after it announces is the
  // wait's outcome, not the copy before it.
  __aicore__ inline void SendAfterWait(int32_t peer, int32_t tag, uint32_t n) {
    CopyOut(dataGm_, ub_, n);
    Wait(peer, tag);
    Record(tag + 1);
  }

  // The copy and the publish on different branches never meet.
  __aicore__ inline void SendOrSignal(bool root, int32_t tag, uint32_t n) {
    if (root) {
      CopyOut(dataGm_, ub_, n);
    } else {
      Record(tag);
    }
  }

  // Batches: the last round always waits for MTE3 before its record
  // (`done`), which round is last is the run's to know.
  __aicore__ inline void SendBatches(int32_t tag, uint32_t rounds, uint32_t n) {
    for (uint32_t r = 0; r < rounds; ++r) {
      CopyOut(dataGm_[r * n], ub_, n);
      bool done = (r + 1 == rounds) || (r % 8 == 7);
      if (done) {
        PipeSync<HardEvent::MTE3_S>();
        Record(tag + r);
      }
    }
  }

  // A record at the top of each round announces that round's slot, not
  // the copy the round before left: not followed across iterations.
  __aicore__ inline void SendRounds(int32_t tag, uint32_t rounds, uint32_t n) {
    for (uint32_t r = 0; r < rounds; ++r) {
      Record(tag + r);
      CopyOut(dataGm_[r * n], ub_, n);
    }
    PipeBarrier<PIPE_ALL>();
  }

 private:
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_, flagBuf_;
  LocalTensor<float> ub_;
  LocalTensor<int32_t> flagUb_;
  GlobalTensor<float> dataGm_;
  __gm__ int32_t *flags_;
};

extern "C" __global__ __aicore__ void ring_send(GM_ADDR data, GM_ADDR flags, int32_t tag, uint32_t n) {
  Ring r;
  r.Init(data, flags);
  // A step before the exchange (a counter, a setup copy) is not what a
  // later step's flag announces: the exchange is no flag helper.
  r.SendBarrier(tag, n);
  r.SendEarly(tag, n);
  r.SendInline(tag, n);
  r.SendWaited(tag, n);
  r.SendMte3Barrier(tag, n);
  r.SendAfterWait(1, tag, n);
  r.SendOrSignal(GetBlockIdx() == 0, tag, n);
  r.SendBatches(tag, 4, n);
  r.SendRounds(tag, 4, n);
}

// A poll through `ub(0)` whose timeout path writes a report: the wait ends
// what the record after it is about.
class Tokens {
 public:
  __aicore__ inline void Await(__gm__ float *state, __gm__ float *report, float target) {
    GlobalTensor<float> s, r;
    s.SetGlobalBuffer(state);
    r.SetGlobalBuffer(report);
    float v = 0;
    uint32_t spins = 0;
    while (v < target) {
      DataCopy(ub_, s, 8);
      PipeSync<HardEvent::MTE2_S>();
      v = ub_(0);
      if (++spins > 100000) {
        DataCopy(r, ub_, 8);
      }
    }
  }

  __aicore__ inline void Next(__gm__ float *state, __gm__ float *report, __gm__ int32_t *status, int32_t pos) {
    Await(state, report, 1.0f);
    PublishWord(status, word_, pos);
  }

 private:
  LocalTensor<float> ub_;
  LocalTensor<int32_t> word_;
};

extern "C" __global__ __aicore__ void token_loop(GM_ADDR state, GM_ADDR report, GM_ADDR status) {
  Tokens t;
  t.Next((__gm__ float *)state, (__gm__ float *)report, (__gm__ int32_t *)status, 1);
}
