// A mixed kernel: on the cube each TPipe constructor presets the events a
// Destroy() waits on, so two pipes constructed there clash even when they
// are used one after another.
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void cube_phase(GM_ADDR x) {
  if ASCEND_IS_AIC {
    Mmad(c, a, b, params);
  }
  if ASCEND_IS_AIV {
    PipeBarrier<PIPE_V>();
  }
}

extern "C" __global__ __aicore__ void mixed_phases(GM_ADDR x, GM_ADDR y) {
  TPipe first;
  TPipe second; // want "EXT003 .*second TPipe `second` created while `first`.*cube and vector cores"
  first.InitBuffer(buf1, 4096);
  first.Destroy();
  second.InitBuffer(buf2, 4096);
  cube_phase(x);
}
