// A mixed extern that sets up its RoPE buffers "symmetrically": the cube
// runs the vector-only UB setup too (guide §3), though no code of the
// kernel touches the M_MTE1 events.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void rope_gemm(__gm__ int64_t *args) {
  AscendC::TPipe pipe; // want "error: EXT002 .*`pipe` is created where the cube core"
  AscendC::TBuf<AscendC::TPosition::VECCALC> rotBuf;
  pipe.InitBuffer(rotBuf, 32 * 1024);
  if ASCEND_IS_AIV {
    AscendC::LocalTensor<half> rot = rotBuf.Get<half>();
    (void)rot;
  }
  AscendC::SyncAll<false>();
  (void)args;
}
