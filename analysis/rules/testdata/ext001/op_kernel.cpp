// An AscendC class-style AIV extern: GlobalTensor::GetValue is a scalar GM
// read, LocalTensor::GetValue (after DataCopy + MTE2_S) is the safe pattern.
#include "kernel_operator.h"

using IdxGm = AscendC::GlobalTensor<int32_t>;

class GatherOp {
public:
  __aicore__ inline void Init(GM_ADDR idx, GM_ADDR out) {
    idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
    outGm.SetGlobalBuffer((__gm__ half *)out);
    pipe.InitBuffer(idxBuf, 256);
  }
  __aicore__ inline void Process(int32_t n) {
    int32_t first = idxGm.GetValue(0); // want `3 scalar reads of GlobalTensor .idxGm. in .Process. \(first .idxGm.GetValue\(0\).\)`
    int32_t third = idxGm(2);
    int32_t fourth = idxGm[4].GetValue(0);
    auto tail = idxGm[8];
    int32_t fifth = tail.GetValue(1); // want `scalar read .tail.GetValue\(1\). of GlobalTensor .tail.`
    int32_t sixth = aliasGm.GetValue(2); // want `of GlobalTensor .aliasGm.`
    AscendC::LocalTensor<int32_t> idxUb = idxBuf.Get<int32_t>();
    AscendC::DataCopy(idxUb, idxGm, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);
    int32_t pos = idxUb.GetValue(1) - 1;
    AscendC::DataCopy(outGm[pos * 16], idxUb.ReinterpretCast<half>(), 16);
    outGm.SetValue(0, (half)0);
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE>(idxGm);
    int32_t last = idxGm.GetValue(n - 1) + tail.GetValue(2);
  }

private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> idxBuf;
  AscendC::GlobalTensor<int32_t> idxGm;
  IdxGm aliasGm;
  AscendC::GlobalTensor<half> outGm;
};

extern "C" __global__ __aicore__ void gather_entry(__gm__ int64_t *args) {
  GatherOp op;
  op.Init((GM_ADDR)args[0], (GM_ADDR)args[1]);
  op.Process(static_cast<int32_t>(args[2]));
}
