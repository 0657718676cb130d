// A status word each core stores through a local tensor bound into its
// window slot, writes out without a dsb, then a barrier. Whether the
// missing dsb matters depends on how the word's readers, which reach it
// through a member tensor bound once into the same window, read it.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kSlotBytes = 32;

// The readers poll the word by DMA until it holds what they wait for: a
// write-back landing late only delays them.
class PolledStatus {
public:
  __aicore__ inline void Init(GM_ADDR win, uint32_t dataSize) {
    pollWin_ = win;
    pollData_ = dataSize;
    pollStatusGm_ = pollWin_ + pollData_;
    pollStatus_.SetGlobalBuffer((__gm__ int32_t *)pollStatusGm_);
    pipe_.InitBuffer(buf_, 256);
  }
  __aicore__ inline void Process() {
    Post(1);
    Wait(1);
  }

private:
  __aicore__ inline void Post(int32_t value) {
    GlobalTensor<int32_t> mine;
    mine.SetGlobalBuffer((__gm__ int32_t *)(pollWin_ + pollData_ + GetBlockIdx() * kSlotBytes));
    mine.SetValue(0, value);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(mine);
    SyncAll();
  }
  __aicore__ inline void Wait(int32_t want) {
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    uint32_t peer = (GetBlockIdx() + 1) % GetBlockNum();
    while (true) {
      DataCopy(ub, pollStatus_[peer * kSlotBytes / sizeof(int32_t)], 8);
      PipeBarrier<PIPE_ALL>();
      int32_t seen = ub.GetValue(0);
      if (seen == want) {
        break;
      }
    }
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int32_t> pollStatus_;
  GM_ADDR pollWin_;
  GM_ADDR pollStatusGm_;
  uint32_t pollData_;
};

// The reader copies the word in once after the barrier: it can read the
// old bytes.
class ReadOnceStatus {
public:
  __aicore__ inline void Init(GM_ADDR win, uint32_t dataSize) {
    onceWin_ = win;
    onceData_ = dataSize;
    onceStatusGm_ = onceWin_ + onceData_;
    onceStatus_.SetGlobalBuffer((__gm__ int32_t *)onceStatusGm_);
    pipe_.InitBuffer(buf_, 256);
  }
  __aicore__ inline void Process() {
    Post(1);
    seen_ = Read();
  }

private:
  __aicore__ inline void Post(int32_t value) {
    GlobalTensor<int32_t> mine;
    mine.SetGlobalBuffer((__gm__ int32_t *)(onceWin_ + onceData_ + GetBlockIdx() * kSlotBytes));
    mine.SetValue(0, value);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(mine); // want "warning: EXT009 .*`mine.SetValue\\(0, value\\)`.*`SyncAll\\(\\)` \\(line 77\\) tells another core to read before any `dsb`"
    SyncAll();
  }
  __aicore__ inline int32_t Read() {
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    uint32_t peer = (GetBlockIdx() + 1) % GetBlockNum();
    DataCopy(ub, onceStatus_[peer * kSlotBytes / sizeof(int32_t)], 8);
    PipeBarrier<PIPE_ALL>();
    return ub.GetValue(0);
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int32_t> onceStatus_;
  GM_ADDR onceWin_;
  GM_ADDR onceStatusGm_;
  uint32_t onceData_;
  int32_t seen_;
};

// The reader retries a fixed number of times: it can give up before the
// write-back lands.
class RetryStatus {
public:
  __aicore__ inline void Init(GM_ADDR win, uint32_t dataSize) {
    retryWin_ = win;
    retryData_ = dataSize;
    retryStatus_.SetGlobalBuffer((__gm__ int32_t *)(retryWin_ + retryData_));
    pipe_.InitBuffer(buf_, 256);
  }
  __aicore__ inline void Process() {
    Post(1);
    Wait(1);
  }

private:
  __aicore__ inline void Post(int32_t value) {
    GlobalTensor<int32_t> mine;
    mine.SetGlobalBuffer((__gm__ int32_t *)(retryWin_ + retryData_ + GetBlockIdx() * kSlotBytes));
    mine.SetValue(0, value);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(mine); // want "warning: EXT009 .*`mine.SetValue\\(0, value\\)`.*`SyncAll\\(\\)` \\(line 116\\) tells another core to read before any `dsb`"
    SyncAll();
  }
  __aicore__ inline void Wait(int32_t want) {
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    uint32_t peer = (GetBlockIdx() + 1) % GetBlockNum();
    for (int tries = 0; tries < 8; ++tries) {
      DataCopy(ub, retryStatus_[peer * kSlotBytes / sizeof(int32_t)], 8);
      PipeBarrier<PIPE_ALL>();
      if (ub.GetValue(0) == want) {
        break;
      }
    }
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int32_t> retryStatus_;
  GM_ADDR retryWin_;
  uint32_t retryData_;
};

// The reader hands the member tensor to a helper that copies the word in
// once: the helper's read is through its parameter, of the same word.
__aicore__ inline int32_t ReadWord(GlobalTensor<int32_t> &word, LocalTensor<int32_t> &ub) {
  DataCopy(ub, word, 8);
  PipeBarrier<PIPE_ALL>();
  return ub.GetValue(0);
}

class HelperReadStatus {
public:
  __aicore__ inline void Init(GM_ADDR win, uint32_t dataSize) {
    helpWin_ = win;
    helpData_ = dataSize;
    helpStatus_.SetGlobalBuffer((__gm__ int32_t *)(helpWin_ + helpData_));
    pipe_.InitBuffer(buf_, 256);
  }
  __aicore__ inline void Process() {
    Post(1);
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    seen_ = ReadWord(helpStatus_, ub);
  }

private:
  __aicore__ inline void Post(int32_t value) {
    GlobalTensor<int32_t> mine;
    mine.SetGlobalBuffer((__gm__ int32_t *)(helpWin_ + helpData_ + GetBlockIdx() * kSlotBytes));
    mine.SetValue(0, value);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(mine); // want "warning: EXT009 .*`mine.SetValue\\(0, value\\)`.*`SyncAll\\(\\)` \\(line 164\\) tells another core to read before any `dsb`"
    SyncAll();
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int32_t> helpStatus_;
  GM_ADDR helpWin_;
  uint32_t helpData_;
  int32_t seen_;
};

extern "C" __global__ __aicore__ void polled_status(GM_ADDR win) {
  PolledStatus op;
  op.Init(win, 4096);
  op.Process();
}

extern "C" __global__ __aicore__ void read_once_status(GM_ADDR win) {
  ReadOnceStatus op;
  op.Init(win, 4096);
  op.Process();
}

extern "C" __global__ __aicore__ void retry_status(GM_ADDR win) {
  RetryStatus op;
  op.Init(win, 4096);
  op.Process();
}

extern "C" __global__ __aicore__ void helper_read_status(GM_ADDR win) {
  HelperReadStatus op;
  op.Init(win, 4096);
  op.Process();
}
