// Ordinary standalone kernels (launched with <<<>>>) that copy tiles in a
// loop whose trip count is a task input. Each iteration sets MTE3_MTE2 for
// the next one's copy-in, which waits for it under `if (i > 0)`: the last
// iteration's set is still raised when the kernel returns.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kTile = 256;

extern "C" __global__ __aicore__ void copy_tiles(GM_ADDR src, GM_ADDR dst, uint32_t tiles) {
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
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0); // want "EXT015 event-unpaired: `SetFlag<HardEvent::MTE3_MTE2>\\(EVENT_ID0\\)` sets event MTE3_MTE2 id 0, and no wait of it follows on any path to the end of the entry: the flag stays raised into the next kernel on this core"
  }
}

struct CopyTiling {
  uint32_t tiles;
  uint32_t tail;
};

// The trip count read from the tiling block in GM.
extern "C" __global__ __aicore__ void copy_tiles_tiling(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling) {
  __gm__ CopyTiling *t = (__gm__ CopyTiling *)tiling;
  uint32_t tiles = t->tiles;
  GlobalTensor<float> srcGm, dstGm;
  srcGm.SetGlobalBuffer((__gm__ float *)src);
  dstGm.SetGlobalBuffer((__gm__ float *)dst);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> ub = buf.Get<float>();
  for (uint32_t i = 0; i < tiles; ++i) {
    if (i > 0) {
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
    }
    DataCopy(ub, srcGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    DataCopy(dstGm[i * kTile], ub, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1); // want "EXT015 event-unpaired: .*MTE3_MTE2 id 1, and no wait of it follows"
  }
}

// The same copy counted by a while loop over a local set before it.
extern "C" __global__ __aicore__ void copy_tiles_while(GM_ADDR src, GM_ADDR dst, uint32_t tiles) {
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
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
    }
    DataCopy(ub, srcGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID2);
    DataCopy(dstGm[i * kTile], ub, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2); // want "EXT015 event-unpaired: .*MTE3_MTE2 id 2, and no wait of it follows"
    ++i;
  }
}
