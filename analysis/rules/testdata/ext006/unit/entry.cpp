// The entry keys on C220; the header it includes does not.
#include "kernel_operator.h"
#include "pto_barrier.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  AscendC::Mmad(c, a, b, params);
#endif
  ported_barrier();
}
