// The guide's shape: manual UB management (the TPipe is created and
// destroyed up front), a vector phase ending in a store to GM.
#include "store_helpers.h"

extern "C" __global__ __aicore__ void tail_store(__gm__ int64_t *args) {
  AscendC::TPipe pipe;
  pipe.Destroy();
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(args[0]));
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::DataCopy(outGm[64], outUb, 64); // want "EXT012 missing-pipe-drain: `AscendC::DataCopy\\(outGm\\[64\\], outUb, 64\\)` leaves its store in flight when the extern returns"
}

extern "C" __global__ __aicore__ void early_exit(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> yGm;
  AscendC::LocalTensor<float> yUb;
  int64_t n = static_cast<int64_t>(args[3]);
  AscendC::DataCopy(yGm, yUb, 64); // want "leaves its store in flight"
  if (n == 0)
    return;
  AscendC::DataCopy(yUb, yGm, 64); // a load: MTE2, nothing to drain for the consumer
  AscendC::PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void through_helper(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> zGm;
  AscendC::LocalTensor<float> zUb;
  for (int i = 0; i < 4; ++i) {
    store_tile(zGm, zUb, 64); // want "`store_tile\\(zGm, zUb, 64\\)` leaves `AscendC::DataCopy\\(dst, src, n\\)` \\(store_helpers.h:7\\) in flight"
  }
}

extern "C" __global__ __aicore__ void raw_store(__gm__ int64_t *args) {
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
  copy_ubuf_to_gm(out, ub, 0, 1, 8, 0, 0); // want "leaves its store in flight"
  if (args[1] != 0) {
    return;
  }
}

extern "C" __global__ __aicore__ void suppressed(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> wGm;
  AscendC::LocalTensor<float> wUb;
  AscendC::DataCopy(wGm, wUb, 64); // NOLINT(missing-pipe-drain)
}

extern "C" __global__ __aicore__ void functor_store(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> oGm;
  AscendC::LocalTensor<float> oUb;
  Epilogue epi;
  epi(oGm, oUb); // want "`epi\\(oGm, oUb\\)` leaves `AscendC::DataCopy\\(dst, src, 64\\)` \\(store_helpers.h:[0-9]+\\) in flight"
}

// A ping-pong loop whose last wait is the vector pipe's: WaitFlag<MTE3_V>
// holds the vector pipe until the store is done, but the scalar unit runs
// on to the return with the store still queued on MTE3.
extern "C" __global__ __aicore__ void vector_side_wait(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> rGm;
  AscendC::LocalTensor<float> rUb;
  int64_t steps = static_cast<int64_t>(args[2]);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
  for (int64_t s = 0; s < steps; ++s) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::Adds(rUb, rUb, 1.0f, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(rGm[s * 64], rUb, 64); // want "leaves its store in flight when the extern returns: .*; `AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>\\(EVENT_ID0\\)` \\(line 71\\) stalls only the pipe it names second, not the scalar unit that returns"
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
  }
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
}
