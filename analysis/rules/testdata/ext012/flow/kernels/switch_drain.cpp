// A switch whose every case (default included) drains before leaving.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void switch_drains(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
  switch (static_cast<int>(args[2])) {
  case 0:
    AscendC::PipeBarrier<PIPE_MTE3>();
    break;
  case 1:
  case 2:
    pipe_barrier(PIPE_ALL);
    break;
  default:
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

// The twin: case 1 breaks out with the store still queued.
extern "C" __global__ __aicore__ void switch_misses_one(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight"
  switch (static_cast<int>(args[2])) {
  case 0:
    AscendC::PipeBarrier<PIPE_MTE3>();
    break;
  case 1:
    break;
  default:
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

// A switch with no default can skip every case.
extern "C" __global__ __aicore__ void switch_no_default(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight"
  switch (static_cast<int>(args[2])) {
  case 0:
    AscendC::PipeBarrier<PIPE_ALL>();
    break;
  }
}
