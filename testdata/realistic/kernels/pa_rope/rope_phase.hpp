// Vector phase: RMS-normalise and rotate Q/K, write K/V into the paged cache.
#pragma once
#include "kernel_operator.h"
#include "pa_args.hpp"

namespace pa {

struct RopeParams {
  int64_t cacheRowOffset;
  int64_t batchOffset;
  int32_t blockIdx;
  int32_t blockNum;
};

__aicore__ inline void rope_rows(AscendC::LocalTensor<float> &x, AscendC::LocalTensor<float> &cosT,
                                 AscendC::LocalTensor<float> &sinT, AscendC::LocalTensor<float> &tmp) {
  constexpr int32_t half = kHeadDim / 2;
  AscendC::Mul(tmp, x, cosT, kHeadDim);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::Muls(x[half], x[half], -1.0f, half);
  AscendC::Mul(x, x, sinT, kHeadDim);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::Add(x, x, tmp, kHeadDim);
}

__aicore__ inline void rope_phase(__gm__ int64_t *args, const RopeParams &p) {
#ifdef __DAV_C220_VEC__
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 160 * 1024);
  AscendC::LocalTensor<float> xUb = ub.GetWithOffset<float>(kHeadDim, 0);
  AscendC::LocalTensor<float> cosUb = ub.GetWithOffset<float>(kHeadDim, 512);
  AscendC::LocalTensor<float> sinUb = ub.GetWithOffset<float>(kHeadDim, 1024);
  AscendC::LocalTensor<float> tmpUb = ub.GetWithOffset<float>(kHeadDim, 1536);
  AscendC::LocalTensor<int32_t> slotUb = ub.GetWithOffset<int32_t>(kBatch, 2048);

  AscendC::GlobalTensor<float> gQ;
  AscendC::GlobalTensor<float> gCos;
  AscendC::GlobalTensor<float> gSin;
  AscendC::GlobalTensor<int32_t> gSlots;
  gQ.SetGlobalBuffer(tensor_data<float>(args, kQProj));
  gCos.SetGlobalBuffer(tensor_data<float>(args, kRopeCos));
  gSin.SetGlobalBuffer(tensor_data<float>(args, kRopeSin));
  gSlots.SetGlobalBuffer(tensor_data<int32_t>(args, kSlotMapping));

  // Stage the slot table through UB: MTE2 is coherent, scalar GM loads are not.
  AscendC::DataCopy(slotUb, gSlots, kBatch);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);

  __gm__ int32_t *seqLens = tensor_data<int32_t>(args, kSeqLens);
  for (int32_t b = p.blockIdx; b < kBatch; b += p.blockNum) {
    int32_t slot = slotUb.GetValue(b);
    int32_t pos = seqLens[b] - 1; // want "EXT001"
    int64_t row = p.cacheRowOffset + pos;
    for (int32_t h = 0; h < kHeads; ++h) {
      AscendC::DataCopy(xUb, gQ[(b * kHeads + h) * kHeadDim], kHeadDim);
      AscendC::DataCopy(cosUb, gCos[row * kHeadDim], kHeadDim);
      AscendC::DataCopy(sinUb, gSin[row * kHeadDim], kHeadDim);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      rope_rows(xUb, cosUb, sinUb, tmpUb);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
      AscendC::DataCopy(gQ[(b * kHeads + h) * kHeadDim], xUb, kHeadDim);
      AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID2);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID2);
    }
    (void)slot;
  }
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
}

} // namespace pa
