// A two-slot ring between the vector lanes and their cube: the lanes
// store a tile into the ring and tell the cube, which pulls it into L1
// and tells them the slot is free. A set issued on the scalar pipe leaves
// at once, ahead of the store still on MTE3.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint16_t kTileReady = 3;
constexpr uint16_t kSlotFree = 4;
constexpr uint16_t kStatsReady = 5;
constexpr uint16_t kStatsFree = 6;

// The pipe is the caller's to choose; left out, the set is the scalar
// unit's.
template <pipe_t kPipe = PIPE_S>
__aicore__ inline void Post(uint16_t id) {
  CrossCoreSetFlag<2, kPipe>(id);
}

__aicore__ inline void Take(uint16_t id) { CrossCoreWaitFlag(id); }

extern "C" __global__ __aicore__ void ring_tiles(GM_ADDR x, GM_ADDR ring, GM_ADDR stats, GM_ADDR y, int32_t tiles) {
  GlobalTensor<half> xGm, ringGm, yGm;
  GlobalTensor<float> statsGm;
  xGm.SetGlobalBuffer((__gm__ half *)x);
  ringGm.SetGlobalBuffer((__gm__ half *)ring);
  statsGm.SetGlobalBuffer((__gm__ float *)stats);
  yGm.SetGlobalBuffer((__gm__ half *)y);
  if ASCEND_IS_AIV {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<half> t = buf.Get<half>();
    LocalTensor<float> s = buf.Get<float>();
    for (int32_t i = 0; i < tiles; ++i) {
      if (i >= 2) {
        Take(kSlotFree);
      }
      DataCopy(t, xGm[i * 256], 256);
      SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      DataCopy(ringGm[(i % 2) * 256], t, 256);
      Post(kTileReady); // want "`Post\\(kTileReady\\)` \\(a cross-core set on the scalar pipe, .*DMA write `DataCopy\\(ringGm"
    }
    // The statistics go out on MTE3 and the set rides the same pipe.
    DataCopy(statsGm, s, 64);
    Post<PIPE_MTE3>(kStatsReady);
    // Drained first: the scalar set comes after the store landed.
    DataCopy(statsGm[64], s, 64);
    PipeBarrier<PIPE_MTE3>();
    Post(kStatsReady);
    // The statistics were read back before this store of the output: the
    // set frees their buffer, which the cube writes next.
    DataCopy(s, statsGm, 64);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, 256);
    Post(kStatsFree);
  }
  if ASCEND_IS_AIC {
    LocalTensor<half> l1;
    LocalTensor<float> l1s;
    for (int32_t i = 0; i < tiles; ++i) {
      Take(kTileReady);
      DataCopy(l1, ringGm[(i % 2) * 256], 256);
      Post<PIPE_MTE2>(kSlotFree);
    }
    Take(kStatsReady);
    DataCopy(l1s, statsGm, 64);
    Take(kStatsReady);
    DataCopy(l1s, statsGm[64], 64);
    Post<PIPE_MTE2>(kStatsFree);
    Take(kStatsFree);
    DataCopy(statsGm, l1s, 64);
  }
}
