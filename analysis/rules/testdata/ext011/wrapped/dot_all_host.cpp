// The host of dot_all_kernel.cpp: every core, whatever the work.
#include <cstdint>

struct DotTiling {
  int32_t n;
  uint32_t useCoreNum;
};

void dot_all_kernel_do(uint8_t *x, uint8_t *out, const DotTiling &t, uint32_t numBlocks, void *stream);

int DotAll(uint8_t *x, uint8_t *out, int32_t n, void *stream) {
  DotTiling tiling{};
  tiling.n = n;
  uint32_t cores = GetCoreNumAiv();
  tiling.useCoreNum = cores;
  dot_all_kernel_do(x, out, tiling, tiling.useCoreNum, stream);
  return 0;
}
