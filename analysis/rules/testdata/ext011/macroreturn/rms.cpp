// An ordinary kernel whose idle cores leave through a macro before the
// barrier the others wait in; the same macro given the launch's block
// count, and a null-pointer guard that holds alike on every core, leave
// no core behind.
#include "kernel_operator.h"
#include "kernel_macros.h"

struct RmsTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
};

class KernelRms {
public:
  __aicore__ inline void Process() {
    Reduce();
    AscendC::SyncAll();
    Scale();
  }
  __aicore__ inline void Reduce() {}
  __aicore__ inline void Scale() {}
};

extern "C" __global__ __aicore__ void global_rms(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  RmsTiling t = *reinterpret_cast<__gm__ RmsTiling *>(tiling);
  RETURN_IF_IDLE(t.usedCoreNum); // want "EXT011 barrier-early-return: `RETURN_IF_IDLE\\(t.usedCoreNum\\)` returns under `if \\(AscendC::GetBlockIdx\\(\\) >= \\(usedCores\\)\\)`, in the body of `RETURN_IF_IDLE` \\(kernel_macros.h:5\\), and can leave before `op.Process\\(\\)`"
  KernelRms op;
  op.Process();
}

extern "C" __global__ __aicore__ void global_rms_all(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  RETURN_IF_NULL(x);
  RETURN_IF_IDLE(AscendC::GetBlockNum());
  KernelRms op;
  op.Process();
}
