// One `stage` object per core type, declared under the core guards: the
// vector stage publishes each round's count by DMA, the cube stage reads
// it with a scalar load after the barrier. From the second round on the
// cube's line holds the previous round's count: the vector's DMA is
// another core's write, not the cube's own.
#include "kernel_operator.h"

struct Tensor {
  struct {
    uint64_t addr;
  } buffer;
  uint64_t start_offset;
};

template <typename T>
__aicore__ inline __gm__ T *SlotData(__gm__ int64_t *args, int32_t slot) {
  __gm__ Tensor *d = reinterpret_cast<__gm__ Tensor *>(args[slot]);
  return reinterpret_cast<__gm__ T *>(d->buffer.addr) + d->start_offset;
}

enum Slot : int32_t { kCounts = 0, kRounds = 1 };

template <typename T>
class Publisher {
public:
  __aicore__ inline void Init(__gm__ int64_t *args, AscendC::TPipe *pipe) {
    countGm_.SetGlobalBuffer(SlotData<int32_t>(args, kCounts) + get_block_idx(args) * 16);
    pipe->InitBuffer(buf_, 64);
  }
  __aicore__ inline void Round() {
    AscendC::LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    AscendC::DataCopy(countGm_, ub, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
  AscendC::GlobalTensor<int32_t> countGm_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
};

__aicore__ inline int32_t CountAt(const AscendC::GlobalTensor<int32_t> &counts, int64_t c) {
  return counts.GetValue(c * 16); // want "EXT001 gm-scalar-read: scalar read `counts.GetValue\\(c \\* 16\\)` of GlobalTensor `counts`, read after a caller of `CountAt` waits for another core"
}

template <typename T>
class Consumer {
public:
  __aicore__ inline void Init(__gm__ int64_t *args) {
    countGm_.SetGlobalBuffer(SlotData<int32_t>(args, kCounts));
    c_ = get_block_idx(args);
  }
  __aicore__ inline void Round() { rows_ = CountAt(countGm_, c_); }
  AscendC::GlobalTensor<int32_t> countGm_;
  int64_t c_;
  int32_t rows_;
};

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  int64_t rounds = args[kRounds];
#if defined(__DAV_C220_CUBE__)
  Consumer<int> stage;
  stage.Init(args);
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  Publisher<int> stage;
  stage.Init(args, &pipe);
#endif
  for (int64_t r = 0; r < rounds; ++r) {
#if defined(__DAV_C220_VEC__)
    stage.Round();
#endif
    AscendC::SyncAll<false>();
#if defined(__DAV_C220_CUBE__)
    stage.Round();
#endif
    AscendC::SyncAll<false>();
  }
}
