// A reduction whose host (dot_host.cpp, no op_host folder) launches
// through a wrapper's <<<>>>: its count is the tiling field useCoreNum,
// sized to the work (`std::min(cores, n)`). Whether a launched block gets
// an empty share is then the host's arithmetic, which the analysis does
// not follow: it says less.
#include "kernel_operator.h"

struct DotTiling {
  int32_t n;
  uint32_t useCoreNum;
};

extern "C" __global__ __aicore__ void dot_kernel(GM_ADDR x, GM_ADDR out, DotTiling t) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  int32_t useCore = static_cast<int32_t>(t.useCoreNum);
  int32_t base = t.n / useCore;
  int32_t calCount = base;
  if (static_cast<int32_t>(AscendC::GetBlockIdx()) < t.n % useCore) {
    calCount = base + 1;
  }
  if (calCount == 0) {
    return; // want "info: EXT011 .*unless every block the host launches gets a share: it sizes the launch to the work \\(dot_host.cpp:19\\)"
  }
  AscendC::SyncAll();
}

void dot_kernel_do(uint8_t *x, uint8_t *out, const DotTiling &t, uint32_t numBlocks, void *stream) {
  dot_kernel<<<numBlocks, nullptr, stream>>>(x, out, t);
}
