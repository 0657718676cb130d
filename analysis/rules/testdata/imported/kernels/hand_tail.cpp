// A hand-written twin: same trap, reported at the rule's severity.
#include <cstdint>

extern "C" __global__ __aicore__ void hand_tail(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight when the extern returns: .*before returning$"
}
