// Scalar loads of GlobalTensor elements: the invalidation runs only when
// the caller asks for it through the template parameter.
#pragma once
#include "kernel_operator.h"

template <typename T, bool kInvalidate = false>
__aicore__ inline T LoadWord(const AscendC::GlobalTensor<T> &g, uint32_t idx) {
  if constexpr (kInvalidate) {
    AscendC::DataCacheCleanAndInvalid<T, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g[idx]);
  }
  return g.GetValue(idx); // want "EXT001 gm-scalar-read: scalar read `g.GetValue\\(idx\\)` of GlobalTensor `g`, read after a caller of `LoadWord` waits for another core \\(`AscendC::SyncAll\\(\\)`\\)"
}

template <typename T, bool kInvalidate = true>
__aicore__ inline T FreshWord(const AscendC::GlobalTensor<T> &g, uint32_t idx) {
  if constexpr (kInvalidate) {
    AscendC::DataCacheCleanAndInvalid<T, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g[idx]);
  }
  return g.GetValue(idx);
}
