// Host programs launching the counters of ../kernels.
#include <cstdint>

void BumpOne(uint32_t blockDim, void *stream, uint32_t *x);
void BumpSome(uint32_t blockDim, void *stream, uint32_t *x);

constexpr uint32_t kBlockDim = 1;

int RunOnce(void *stream, uint32_t *x) {
  uint32_t blockDim = 1;
  BumpOne(blockDim, stream, x);
  BumpOne(kBlockDim, stream, x);
  BumpSome(kBlockDim, stream, x);
  return 0;
}

int RunWide(void *stream, uint32_t *x) {
  BumpSome(8, stream, x);
  for (uint32_t n = 1; n <= 4; n++) {
    BumpLoopKernel<<<n, nullptr, stream>>>(x);
  }
  return 0;
}
