// Entries that drain, each in another way: all silent.
#include "store_helpers.h"

extern "C" __global__ __aicore__ void barrier_at_end(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
  AscendC::PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void drains_through_helper(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  store_tile(outGm, outUb, 64);
  epilogue();
}

extern "C" __global__ __aicore__ void waits_on_mte3(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  for (int i = 0; i < 8; ++i) {
    store_and_wait(outGm, outUb, 64);
  }
  AscendC::DataCopy(outGm, outUb, 64);
  wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID1);
}

extern "C" __global__ __aicore__ void loop_then_barrier(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  for (int i = 0; i < 8; ++i) {
    AscendC::DataCopy(outGm[i * 64], outUb, 64);
  }
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void live_pipe(__gm__ int64_t *args) {
  // The TPipe destructor runs at the return and ends with a PIPE_ALL barrier.
  AscendC::TPipe pipe;
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
}

extern "C" __global__ __aicore__ void loads_only(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> inGm;
  AscendC::LocalTensor<float> inUb;
  AscendC::DataCopy(inUb, inGm, 64);
}

// A helper's own TPipe is destroyed as the helper returns: its PIPE_ALL
// barrier completes the helper's store before the entry returns.
__aicore__ inline void copy_with_own_pipe(AscendC::GlobalTensor<float> &outGm) {
  AscendC::TPipe pipe;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
}

extern "C" __global__ __aicore__ void pipe_in_helper(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  copy_with_own_pipe(outGm);
}

// The vector branch of an #if/#elif owns a TPipe that lives to the return.
extern "C" __global__ __aicore__ void pipe_in_elif(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  AscendC::PipeBarrier<PIPE_ALL>();
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
#endif
}


// A barrier on the store pipe alone: documented as ordering that pipe, so
// whether the scalar unit waits at it is not known; taken as a drain.
extern "C" __global__ __aicore__ void store_pipe_barrier(__gm__ int64_t *args) {
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
  copy_ubuf_to_gm(out, ub, 0, 1, 8, 0, 0);
  pipe_barrier(PIPE_MTE3);
}
