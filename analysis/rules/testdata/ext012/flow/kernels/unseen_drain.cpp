// The drain helper lives in a header this tree does not have (the build
// passes its folder with -I): the analysis cannot see whether it drains, so
// it says so at info instead of warning.
#include "kernel_operator.h"
#include "runtime_sync.h"

extern "C" __global__ __aicore__ void unseen_drain(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight.*; unless `runtime_pipe_sync\\(\\)` drains it: its definition is not in the files the analysis found"
  runtime_pipe_sync();
}

// The twin: nothing at all after the store, whatever the header holds.
extern "C" __global__ __aicore__ void no_drain_at_all(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  runtime_pipe_sync();
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight when the extern returns: .*before returning$"
}
