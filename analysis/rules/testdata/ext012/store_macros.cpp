// Stores and drains the project hides in macros, object-like and
// function-like: the store is judged where the macro is used.
#include "kernel_operator.h"
using namespace AscendC;

#define STORE_OUT(t) DataCopy(outGm, t, n)
#define FLUSH_ROWS DataCopy(outGm, rowsUb, n)
#define DRAIN_STORES PipeBarrier<PIPE_MTE3>()

extern "C" __global__ __aicore__ void store_macro_tail(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> yUb;
  int n = 64;
  STORE_OUT(yUb); // want "warning: EXT012 .*`STORE_OUT\\(yUb\\)` leaves `DataCopy\\(outGm, t, n\\)` \\(store_macros.cpp:6\\) in flight"
}

extern "C" __global__ __aicore__ void store_macro_drained(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> yUb;
  int n = 64;
  STORE_OUT(yUb);
  DRAIN_STORES;
}

extern "C" __global__ __aicore__ void object_macro_tail(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> rowsUb;
  int n = 64;
  FLUSH_ROWS; // want "warning: EXT012 .*`FLUSH_ROWS` leaves `DataCopy\\(outGm, rowsUb, n\\)` \\(store_macros.cpp:7\\) in flight"
}

extern "C" __global__ __aicore__ void object_macro_drained(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> rowsUb;
  int n = 64;
  FLUSH_ROWS;
  DRAIN_STORES;
}

// A barrier macro pasting its pipe: each use is the barrier it expands to.
#define PIPE_BARRIER(pipe) AscendC::PipeBarrier<PIPE_##pipe>()

extern "C" __global__ __aicore__ void pasted_barrier_drained(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> yUb;
  int n = 64;
  STORE_OUT(yUb);
  PIPE_BARRIER(V);
  PIPE_BARRIER(ALL);
}

extern "C" __global__ __aicore__ void pasted_barrier_vector_only(__gm__ int64_t *args) {
  GlobalTensor<float> outGm;
  LocalTensor<float> yUb;
  int n = 64;
  STORE_OUT(yUb); // want "warning: EXT012 .*`STORE_OUT\\(yUb\\)` leaves `DataCopy\\(outGm, t, n\\)` \\(store_macros.cpp:6\\) in flight"
  PIPE_BARRIER(V);
}
