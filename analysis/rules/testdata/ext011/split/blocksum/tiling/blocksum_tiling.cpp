// Launches the blocks the split counts (at least one).
#include "split_work.h"

uint32_t BlockSumTiling(SplitTiling *tiling, uint32_t total, KernelInfo &info) {
  uint32_t cores = VectorCoreCount();
  uint32_t used = FillSplit(tiling, total, cores);
  if (used == 0) {
    used = 1;
  }
  info.SetBlockDim(used);
  return 0;
}
