// Per-core ready words carved at a stride given in bytes: 32 bytes (the
// DataCopy granule) puts two cores in one cache line; 64 bytes does not.
// The stores go through a volatile view of the slot.
#include "kernel_operator.h"

constexpr uint32_t kGranuleBytes = 32;
constexpr uint32_t kLineBytes = 64;
constexpr uint32_t kGranuleInts = kGranuleBytes / sizeof(int32_t);
constexpr uint32_t kLineInts = kLineBytes / sizeof(int32_t);

extern "C" __global__ __aicore__ void ready_words(GM_ADDR status, int32_t epoch) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *slot = (__gm__ int32_t *)status + idx * kGranuleInts;
  *reinterpret_cast<volatile __gm__ int32_t *>(slot) = epoch; // want "EXT013 gm-false-sharing: .* stores to a GM slot 32 bytes from the next core's \\(`AscendC::GetBlockIdx\\(\\)` steps 8 × 4-byte `int32_t`"
  dcci(slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

extern "C" __global__ __aicore__ void ready_words_padded(GM_ADDR status, int32_t epoch) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *slot = (__gm__ int32_t *)status + idx * kLineInts;
  *reinterpret_cast<volatile __gm__ int32_t *>(slot) = epoch;
  dcci(slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
