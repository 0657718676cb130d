// Scalar GM helpers of the kind real kernels carry.
#pragma once
#include "kernel_operator.h"

// Writes back every cache line of a buffer, then waits for GM.
__aicore__ inline void flush_lines(__gm__ uint8_t *p, uint32_t bytes) {
  for (uint32_t off = 0; off < bytes; off += 64) {
    dcci((__gm__ void *)(p + off), SINGLE_CACHE_LINE, CACHELINE_OUT);
  }
  dsb(DSB_DDR);
}

__aicore__ inline void gm_dcci(__gm__ uint8_t *addr) {
  AscendC::GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(addr);
  AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g);
  dsb(DSB_DDR);
}

// A store building block: its callers write the line out.
__aicore__ inline void gm_store(__gm__ int32_t *addr, int32_t v) {
  *addr = v;
}

struct Header {
  int32_t len;
  int32_t ready;
};
