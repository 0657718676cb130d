// The host of dot_kernel.cpp: it returns before launching when there is
// no work, and otherwise launches min(cores, n) blocks through the
// kernel file's wrapper.
#include <algorithm>
#include <cstdint>

struct DotTiling {
  int32_t n;
  uint32_t useCoreNum;
};

void dot_kernel_do(uint8_t *x, uint8_t *out, const DotTiling &t, uint32_t numBlocks, void *stream);

int Dot(uint8_t *x, uint8_t *out, int32_t n, uint32_t cores, void *stream) {
  DotTiling tiling{};
  tiling.n = n;
  uint32_t useCoreNum = std::min(cores, static_cast<uint32_t>(n));
  tiling.useCoreNum = useCoreNum;
  dot_kernel_do(x, out, tiling, tiling.useCoreNum, stream);
  return 0;
}
