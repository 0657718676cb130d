// Mixed extern: the vector core computes, then copies out; the set that
// orders MTE3 after V is never waited. The fix must put the wait between
// the set and the copy it orders, in the set's own #ifdef branch.
#include "kernel_operator.h"

__aicore__ inline void cube_part() {
  AscendC::Mmad(c, a, b, params);
}

extern "C" __global__ __aicore__ void copy_out(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  cube_part();
#endif
#ifdef __DAV_C220_VEC__
  AscendC::LocalTensor<float> res;
  AscendC::GlobalTensor<float> outGm;
  AscendC::Muls(res, res, 2.0f, 64);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2); // want "sets event V_MTE3 id 2 on the vector core, and no wait of it follows"
  AscendC::DataCopy(outGm, res, 64);
#endif
}
