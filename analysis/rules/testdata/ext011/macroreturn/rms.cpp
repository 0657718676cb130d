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
  RETURN_IF_IDLE(t.usedCoreNum); // want "EXT011 barrier-early-return: `RETURN_IF_IDLE\\(t.usedCoreNum\\)` returns under `if \\(AscendC::GetBlockIdx\\(\\) >= \\(usedCores\\)\\)`, in the body of `RETURN_IF_IDLE` \\(kernel_macros.h:5\\), and can skip `op.Process\\(\\)`"
  KernelRms op;
  op.Process();
}

extern "C" __global__ __aicore__ void global_rms_all(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  RETURN_IF_NULL(x);
  RETURN_IF_IDLE(AscendC::GetBlockNum());
  KernelRms op;
  op.Process();
}

struct Range {
  uint32_t start;
  uint32_t count;
};

__aicore__ inline Range SplitRows(uint32_t total) {
  Range r;
  uint32_t per = (total + 47) / 48;
  r.start = AscendC::GetBlockIdx() * per;
  r.count = r.start >= total ? 0 : (total - r.start < per ? total - r.start : per);
  return r;
}

// The macro declares the block's share and returns when it is empty:
// the last blocks can get none.
extern "C" __global__ __aicore__ void global_rms_rows(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  uint32_t rows = *reinterpret_cast<__gm__ uint32_t *>(tiling);
  RANGE_OR_RETURN(share, rows); // want "EXT011 barrier-early-return: `RANGE_OR_RETURN\\(share, rows\\)` returns under `if \\(\\(rng\\).count == 0\\)`"
  KernelRms op;
  op.Process();
}

class KernelCenter {
public:
  __aicore__ inline bool Init(uint32_t rows) {
    uint32_t per = (rows + 47) / 48;
    start_ = AscendC::GetBlockIdx() * per;
    return start_ < rows;
  }
  __aicore__ inline void Process() {
    AscendC::SyncAll();
  }

private:
  uint32_t start_ = 0;
};

// The operator's Init is false on the blocks past the rows: they break
// out of the macro's body before the Process that holds the barrier. The
// same test written out breaks before it as well; a barrier after the
// loop is met by every core.
extern "C" __global__ __aicore__ void center_rows(GM_ADDR x, GM_ADDR tiling) {
  uint32_t rows = *reinterpret_cast<__gm__ uint32_t *>(tiling);
  RUN_IF_ROWS(KernelCenter, rows); // want "EXT011 barrier-early-return: `RUN_IF_ROWS\\(KernelCenter, rows\\)` breaks out of its `do { } while \\(0\\)` under `if \\(!op.Init\\(\\(rows\\)\\)\\)`"
  do {
    KernelCenter op;
    if (!op.Init(rows)) {
      break; // want "EXT011 barrier-early-return: `break` under"
    }
    op.Process();
  } while (0);
  do {
    KernelCenter op;
    if (!op.Init(rows)) {
      break;
    }
  } while (0);
  AscendC::SyncAll();
}
