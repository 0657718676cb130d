// Each core type syncs among its own kind: the cubes after their split-K
// partials, the vectors after their row sums. No phase of one reads what
// the other wrote, so the per-type barriers are what this kernel means.
// A vector class whose barrier the entry calls unguarded is not judged
// either: which core runs it is the launch's business, not a branch's.
#include "kernel_operator.h"

class RowSum {
 public:
  __aicore__ inline void Process() {
    pipe_.InitBuffer(inQ_, 2, 4096);
    AscendC::SyncAll();
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
};

extern "C" __global__ __aicore__ void mm_split(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, l0a, l0b, params);
    AscendC::Fixpipe(wsGm, c, fixParams);
    AscendC::SyncAll();
  }
  if ASCEND_IS_AIV {
    AscendC::SyncAll();
  }
  RowSum op;
  op.Process();
}
