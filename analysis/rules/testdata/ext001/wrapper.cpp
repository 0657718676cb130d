// A project's own flush helper: it aligns the address down to its cache
// line (`addr / kLine * kLine`) and writes back each line of the range.
#include "kernel_operator.h"

constexpr uint64_t kLine = 64;

__aicore__ inline void flush_lines(__gm__ uint8_t *addr, uint64_t length) {
  __gm__ uint8_t *first = (__gm__ uint8_t *)((uint64_t)addr / kLine * kLine);
  __gm__ uint8_t *last = (__gm__ uint8_t *)(((uint64_t)addr + length) / kLine * kLine);
  AscendC::GlobalTensor<uint8_t> lines;
  lines.SetGlobalBuffer(first);
  for (uint64_t i = 0; i <= last - first; i += kLine) {
    AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                      AscendC::DcciDst::CACHELINE_OUT>(lines[i]);
  }
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ volatile uint32_t *ready = (__gm__ volatile uint32_t *)args[0];
  __gm__ volatile uint32_t *done = (__gm__ volatile uint32_t *)args[1];
  // Each poll reads the line afresh: the helper invalidates it.
  while (*ready != 1) { // want "info: EXT001 .*`\\*ready`.* reads memory nothing in this task writes before it"
    flush_lines((__gm__ uint8_t *)ready, sizeof(uint32_t));
  }
  // Nothing invalidates this one.
  while (*done != 1) { // want "EXT001 gm-scalar-read: scalar read `\\*done` of `__gm__` pointer `done`, read in a polling loop"
    AscendC::GetSystemCycle();
  }
}
