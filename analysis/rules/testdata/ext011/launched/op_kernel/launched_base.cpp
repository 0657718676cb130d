// The kernel class derives from a base whose header does not resolve
// here: the block id and the ready switch it tests are base members no
// code of the unit sets. The host (op_host/launched_tiling.cpp) launches
// usedCoreNum blocks.
#include "kernel_operator.h"
#include "../../base_common/op_kernel/launched_base.h"

struct LaunchedTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
};

class KernelDerived : public LaunchedBase {
public:
  // A block id named so, set by no code seen, is read as the block id:
  // below the launched count.
  __aicore__ inline void Process() {
    if (blockIdx_ > tiling_->usedCoreNum) {
      return;
    }
    AscendC::SyncAll();
    if (blockIdx_ >= tiling_->rows) {
      return; // want "error: EXT011 .*under `if \\(blockIdx_ >= tiling_->rows\\)`"
    }
    AscendC::SyncAll();
  }

  __aicore__ inline void Setup(GM_ADDR ws) {
    ready_ = PrepareQueue(ws);
  }

  // A term no launched block takes leaves the rest to decide: here a
  // switch a helper whose header did not resolve sets.
  __aicore__ inline void Ready() {
    if (!ready_ || AscendC::GetBlockIdx() >= tiling_->usedCoreNum) {
      return; // want "info: EXT011 .*unless `!ready_` is the same on every core"
    }
    AscendC::SyncAll();
    if (!ready_ || AscendC::GetBlockIdx() >= tiling_->rows) {
      return; // want "error: EXT011 .*under `if \\(!ready_ \\|\\| AscendC::GetBlockIdx\\(\\) >= tiling_->rows\\)`"
    }
    AscendC::SyncAll();
  }
};

extern "C" __global__ __aicore__ void launched_base(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelDerived op;
  op.Init(tiling);
  op.Setup(x);
  op.Process();
  op.Ready();
}
