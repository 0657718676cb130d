// A runtime-ABI kernel that declares its own copy of the tensor
// descriptor's layout: its fields are written by the runtime before the
// task, so reading them after a barrier reads nothing stale. A header
// struct of another shape, written by the cores before the barrier, is.
#include "kernel_operator.h"

struct Desc {
  uint64_t addr, size, start_offset, more[13];
};

struct Partial {
  uint64_t sum, count;
};

template <typename T>
__aicore__ inline __gm__ T *DescArg(__gm__ int64_t *args, int i) {
  auto *d = reinterpret_cast<__gm__ Desc *>(args[i]);
  return reinterpret_cast<__gm__ T *>(d->addr) + d->start_offset;
}

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ Partial *parts = DescArg<Partial>(args, 0);
  AscendC::SyncAll();
  __gm__ float *out = DescArg<float>(args, 1);
  uint64_t total = parts[1].sum; // want "EXT001 gm-scalar-read"
  out[0] = static_cast<float>(total);
  dcci(out, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
