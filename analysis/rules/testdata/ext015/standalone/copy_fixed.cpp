// The fixed twins: the last set is consumed after the loop (only when the
// loop ran), or each iteration pairs its own set.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kTile = 256;

extern "C" __global__ __aicore__ void copy_tiles_fixed(GM_ADDR src, GM_ADDR dst, uint32_t tiles) {
  GlobalTensor<float> srcGm, dstGm;
  srcGm.SetGlobalBuffer((__gm__ float *)src);
  dstGm.SetGlobalBuffer((__gm__ float *)dst);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> ub = buf.Get<float>();
  for (uint32_t i = 0; i < tiles; ++i) {
    if (i > 0) {
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    DataCopy(ub, srcGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(dstGm[i * kTile], ub, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  if (tiles > 0) {
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
}

extern "C" __global__ __aicore__ void copy_tiles_paired(GM_ADDR src, GM_ADDR dst, uint32_t tiles) {
  GlobalTensor<float> srcGm, dstGm;
  srcGm.SetGlobalBuffer((__gm__ float *)src);
  dstGm.SetGlobalBuffer((__gm__ float *)dst);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> ub = buf.Get<float>();
  for (uint32_t i = 0; i < tiles; ++i) {
    DataCopy(ub, srcGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    DataCopy(dstGm[i * kTile], ub, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
  }
  // A loop that never runs leaves nothing pending.
  for (uint32_t i = 0; i < 0; ++i) {
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
  }
}

// The while loop's last set consumed after it, when it ran.
extern "C" __global__ __aicore__ void copy_tiles_while_fixed(GM_ADDR src, GM_ADDR dst, uint32_t tiles) {
  GlobalTensor<float> srcGm, dstGm;
  srcGm.SetGlobalBuffer((__gm__ float *)src);
  dstGm.SetGlobalBuffer((__gm__ float *)dst);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> ub = buf.Get<float>();
  uint32_t i = 0;
  while (i < tiles) {
    if (i > 0) {
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID3);
    }
    DataCopy(ub, srcGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID3);
    DataCopy(dstGm[i * kTile], ub, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID3);
    ++i;
  }
  if (tiles > 0) {
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID3);
  }
}
