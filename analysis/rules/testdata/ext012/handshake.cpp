// Mixed externs whose cube hands each tile to the vector cores with a flag
// set on the store's own pipe. The flag leaves behind the store; when the
// cube then waits for the vectors' reply, every store it made is complete.
#include "kernel_operator.h"

constexpr uint16_t kTileReady = 3;
constexpr uint16_t kTileFree = 4;
constexpr uint32_t kSlots = 2;

extern "C" __global__ __aicore__ void ring_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
  uint32_t tiles = static_cast<uint32_t>(args[2]);
#ifdef __DAV_C220_CUBE__
  uint32_t n = 0;
  for (; n < tiles; ++n) {
    if (n >= kSlots) {
      AscendC::CrossCoreWaitFlag(kTileFree);
    }
    AscendC::Fixpipe(ring[(n % kSlots) * 1024], l0c, fixParams);
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(kTileReady);
  }
  for (uint32_t i = 0; i < (n < kSlots ? n : kSlots); ++i) {
    AscendC::CrossCoreWaitFlag(kTileFree);
  }
#endif
#ifdef __DAV_C220_VEC__
  for (uint32_t n = 0; n < tiles; ++n) {
    AscendC::CrossCoreWaitFlag(kTileReady);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kTileFree);
  }
#endif
}

// The flag leaves on the store's pipe and the vector cores of the task
// wait for it: the task ends after their wait returns, so after the store.
extern "C" __global__ __aicore__ void ring_awaited(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
#ifdef __DAV_C220_CUBE__
  AscendC::Fixpipe(ring, l0c, fixParams);
  AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(kTileReady);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::CrossCoreWaitFlag(kTileReady);
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
}

// The flag leaves on another pipe than the store's: it does not wait for
// the store, so the reply says nothing of it.
extern "C" __global__ __aicore__ void ring_other_pipe(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
#ifdef __DAV_C220_CUBE__
  AscendC::Fixpipe(ring, l0c, fixParams); // want "leaves its store in flight when the extern returns on the cube core"
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kTileReady);
  AscendC::CrossCoreWaitFlag(kTileFree);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::CrossCoreWaitFlag(kTileReady);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kTileFree);
#endif
}

// Lane 0 hands its store to the cube; lane 1 signals nothing: its store
// is still queued as it returns.
extern "C" __global__ __aicore__ void ring_one_lane(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> out;
  AscendC::LocalTensor<float> ub;
#ifdef __DAV_C220_VEC__
  int64_t lane = get_sub_block_id(args);
  if (lane == 0) {
    AscendC::DataCopy(out, ub, 64);
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kTileReady);
  } else {
    AscendC::DataCopy(out[64], ub, 64); // want "leaves its store in flight when the extern returns on the vector core"
  }
#endif
#ifdef __DAV_C220_CUBE__
  AscendC::CrossCoreWaitFlag(kTileReady);
#endif
}

constexpr uint16_t kDone = 6;

// The flag leaves on the store's pipe, but no core of the unit waits for
// it: the cube returns with the store queued.
extern "C" __global__ __aicore__ void ring_unawaited(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
#ifdef __DAV_C220_CUBE__
  AscendC::Fixpipe(ring, l0c, fixParams); // want "leaves its store in flight when the extern returns on the cube core"
  AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(kDone);
#endif
}

// The ring picks its flag ids per slot: from a constant array, from a
// helper returning one of two constants, and a class member `= 0`. The
// vector cores wait for the ids the cube sets, so each store is complete
// before the task ends.
struct SlotFlags {
  static constexpr uint16_t kReady[kSlots] = {0, 1};
  static constexpr uint16_t kLast = 0;
};

__aicore__ inline uint16_t FreeOf(uint32_t slot) { return slot == 0 ? kTileFree : kDone; }

extern "C" __global__ __aicore__ void ring_slot_ids(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
  uint32_t tiles = static_cast<uint32_t>(args[2]);
#ifdef __DAV_C220_CUBE__
  for (uint32_t n = 0; n < tiles; ++n) {
    const uint32_t slot = n % kSlots;
    if (n >= kSlots) {
      AscendC::CrossCoreWaitFlag(FreeOf(slot));
    }
    AscendC::Fixpipe(ring[slot * 1024], l0c, fixParams);
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SlotFlags::kReady[slot]);
  }
#endif
#ifdef __DAV_C220_VEC__
  for (uint32_t n = 0; n < tiles; ++n) {
    const uint32_t slot = n % kSlots;
    AscendC::CrossCoreWaitFlag(SlotFlags::kReady[slot]);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE2>(FreeOf(slot));
  }
#endif
}

extern "C" __global__ __aicore__ void ring_last_tile(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> ring;
  AscendC::LocalTensor<float> l0c;
#ifdef __DAV_C220_CUBE__
  AscendC::Fixpipe(ring[4096], l0c, fixParams);
  AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SlotFlags::kLast);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::CrossCoreWaitFlag(SlotFlags::kLast);
#endif
}
