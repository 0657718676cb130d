// An operator whose op_host build turns automatic synchronisation off.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void argmax_idx(GM_ADDR counts, GM_ADDR idx) {
  GlobalTensor<int32_t> cntGm, idxGm;
  cntGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
  TPipe pipe;
  TBuf<TPosition::VECCALC> staged;
  pipe.InitBuffer(staged, 64);
  LocalTensor<int32_t> s = staged.Get<int32_t>();
  DataCopy(s, cntGm, 8);
  if (s.GetValue(0) > 0) { // want "warning: EXT017 .*scalar read of `s` follows the DMA into it"
    DataCopy(idxGm, s, 8);
  }
}
