// A runtime-ABI kernel: the runtime's build has no automatic
// synchronisation, so the handoff is the author's.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ int32_t *status = reinterpret_cast<__gm__ int32_t *>(args[0]);
  GlobalTensor<int32_t> statusGm;
  statusGm.SetGlobalBuffer(status);
  TPipe pipe;
  TBuf<TPosition::VECCALC> word;
  pipe.InitBuffer(word, 64);
  LocalTensor<int32_t> w = word.Get<int32_t>();
  w.SetValue(0, 1);
  DataCopy(statusGm, w, 8); // want "warning: EXT017 .*copies `w` out of UB after the scalar write"
  w.SetValue(0, 2);
  SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
  DataCopy(statusGm, w, 8);
}
