// Launches every vector core, whatever the work: the blocks past the
// split's count get no share.
#include "split_work.h"

uint32_t IdleSumTiling(SplitTiling *tiling, uint32_t total, KernelInfo &info) {
  uint32_t cores = VectorCoreCount();
  FillSplit(tiling, total, cores);
  info.SetBlockDim(cores);
  return 0;
}
