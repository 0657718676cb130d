// Launches the blocks the even split counts: every core, shares of 0
// included.
#include "split_work.h"

uint32_t ThinTiling(SplitTiling *tiling, uint32_t total, KernelInfo &info) {
  uint32_t cores = VectorCoreCount();
  uint32_t used = FillThin(tiling, total, cores);
  info.SetBlockDim(used);
  return 0;
}
