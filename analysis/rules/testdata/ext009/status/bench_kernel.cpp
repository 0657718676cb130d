// A timing benchmark: one kernel per element type, each defined by a
// macro that pastes the type's name into the kernel's. Each core records
// its elapsed time in its own 64-byte slot for the host, which reads the
// slots after the kernel, when the kernel-end write-back has run.
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void TimeCopies(GM_ADDR src, GM_ADDR times, int32_t rounds) {
  AscendC::GlobalTensor<T> srcGm;
  srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(src));
  int64_t start = AscendC::GetSystemCycle();
  for (int32_t r = 0; r < rounds; ++r) {
    pipe_barrier(PIPE_ALL);
  }
  float elapsed = static_cast<float>(AscendC::GetSystemCycle() - start);
  *(reinterpret_cast<__gm__ float *>(times) + AscendC::GetBlockIdx() * 16) = elapsed;
}

// The same record, but the kernel meets the other cores after it: core 0
// sums the slots.
template <typename T>
__aicore__ inline void TimeThenSum(GM_ADDR times) {
  float elapsed = static_cast<float>(AscendC::GetSystemCycle());
  *(reinterpret_cast<__gm__ float *>(times) + AscendC::GetBlockIdx() * 16) = elapsed; // want "warning: EXT009 .*stays in this core's data cache"
}

#define TIMED_KERNELS(name, type)                                                                    \
  extern "C" __global__ __aicore__ void time_##name(GM_ADDR src, GM_ADDR times, int32_t rounds) {   \
    TimeCopies<type>(src, times, rounds);                                                            \
  }                                                                                                  \
  extern "C" __global__ __aicore__ void sum_##name(GM_ADDR times) {                                 \
    TimeThenSum<type>(times);                                                                        \
    AscendC::SyncAll();                                                                              \
  }

TIMED_KERNELS(f32, float)
TIMED_KERNELS(i16, int16_t)
