// Per-core status records of a decoupled look-back scan: one 64-byte line
// each, published with a write-back and read through small helpers.
#pragma once
#include "kernel_operator.h"

struct CoreStatus {
  float aggregate;
  int32_t epoch;
  int32_t pad[14];
};

__aicore__ inline int32_t PeekEpoch(__gm__ CoreStatus *st) {
  return *reinterpret_cast<volatile __gm__ int32_t *>(&st->epoch); // want "EXT001 gm-scalar-read: scalar read .* of `__gm__` pointer `st`, read for a polling loop of `look_back` \\(look_back.cpp:12\\) that calls `PeekEpoch` until the value changes"
}

__aicore__ inline int32_t FreshEpoch(__gm__ CoreStatus *st) {
  dcci(reinterpret_cast<__gm__ void *>(st), SINGLE_CACHE_LINE);
  return st->epoch;
}
