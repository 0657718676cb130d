// One of two copies: an include of "dup/flush.h" from outside a/ and b/
// could mean either.
#pragma once

__aicore__ inline void flush_dup(__gm__ int32_t *p) {
  dcci(p, SINGLE_CACHE_LINE);
}
