// A flag set under a condition that also requires the cube core runs on no
// vector lane: the cube sets it for its cluster.
#include "kernel_operator.h"

constexpr uint16_t kTileDone = 3;

extern "C" __global__ __aicore__ void cube_gate(__gm__ uint8_t *x, uint32_t tiles) {
  bool post = AscendC::GetSubBlockIdx() == 0 && tiles > 1;
  if (post && g_coreType == AscendC::AIC) {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kTileDone);
  }
  if (g_coreType == AscendC::AIV && AscendC::GetSubBlockIdx() == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kTileDone); // want "EXT010 crosscore-lane-imbalance"
  }
  (void)x;
}
