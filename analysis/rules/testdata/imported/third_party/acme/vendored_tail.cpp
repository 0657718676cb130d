// A kernel taken from another project.
#include <cstdint>

extern "C" __global__ __aicore__ void vendored_tail(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*\\(vendored file: reported at info, the fix belongs upstream\\)"
}
