// Routing counts built by one block: every other block leaves first, so no
// core of the launch can poll the error word it stores; the next kernel
// reads it after this one has ended and its end has written the lines
// back. The twin below lets every block run the same failure path.
#include "kernel_operator.h"

struct RouteStatus {
  uint32_t error;
  uint32_t token;
  uint32_t pad[14];
};

__aicore__ inline void WriteOut(__gm__ void *p, uint64_t bytes) {
  for (uint64_t off = 0; off < bytes; off += 64) {
    dcci(reinterpret_cast<__gm__ uint8_t *>(p) + off, SINGLE_CACHE_LINE, CACHELINE_OUT);
  }
}

__aicore__ inline void Fail(__gm__ RouteStatus *status, uint32_t code, uint32_t token) {
  status->error = code;
  status->token = token;
  pipe_barrier(PIPE_ALL);
  dcci(status, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "info: EXT009 .*`status->error = code`.*robustness note"
}

extern "C" __global__ __aicore__ void count_routes(__gm__ uint32_t *ids, __gm__ uint32_t *counts,
                                                  __gm__ RouteStatus *status, uint32_t tokens, uint32_t experts) {
  if (AscendC::GetBlockIdx() != 0u || status == nullptr) return;
  for (uint32_t e = 0; e < experts; ++e) {
    counts[e] = 0u;
  }
  for (uint32_t t = 0; t < tokens; ++t) {
    dcci(ids + t, SINGLE_CACHE_LINE);
    uint32_t e = ids[t];
    if (e >= experts) {
      pipe_barrier(PIPE_ALL);
      WriteOut(counts, experts * sizeof(uint32_t)); // want "info: EXT009 .*`counts\\[e\\] = 0u`.*robustness note"
      Fail(status, 1u, t);
      return;
    }
    counts[e] += 1u;
  }
  WriteOut(counts, experts * sizeof(uint32_t));
  dsb(DSB_DDR);
}

// Every block runs the scan: another block may read the error word while
// this one's counts are still on their way to GM.
extern "C" __global__ __aicore__ void count_routes_all(__gm__ uint32_t *ids, __gm__ uint32_t *counts,
                                                      __gm__ RouteStatus *status, uint32_t tokens, uint32_t experts) {
  uint32_t base = AscendC::GetBlockIdx() * experts;
  for (uint32_t e = 0; e < experts; ++e) {
    counts[base + e] = 0u;
  }
  for (uint32_t t = 0; t < tokens; ++t) {
    dcci(ids + t, SINGLE_CACHE_LINE);
    uint32_t e = ids[t];
    if (e >= experts) {
      pipe_barrier(PIPE_ALL);
      WriteOut(counts + base, experts * sizeof(uint32_t)); // want "warning: EXT009 .*`counts\\[base \\+ e\\] = 0u`.*stores a flag another core may poll"
      Fail(status, 1u, t);
      return;
    }
    counts[base + e] += 1u;
  }
  WriteOut(counts + base, experts * sizeof(uint32_t));
  dsb(DSB_DDR);
}

// Launched after the count: it stops at the error the count left.
extern "C" __global__ __aicore__ void pack_routes(__gm__ uint32_t *counts, __gm__ RouteStatus *status,
                                                 __gm__ uint32_t *out, uint32_t experts) {
  dcci(status, SINGLE_CACHE_LINE);
  if (status->error != 0u) return;
  uint32_t me = AscendC::GetBlockIdx();
  dcci(counts + me, SINGLE_CACHE_LINE);
  out[me * 16] = counts[me];
  dcci(out + me * 16, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
