// Pure-vector RoPE phase: TPipe + InitBuffer + GetWithOffset views, kept
// vector-only as the guide asks.
#pragma once
#include "pa_args.h"

__aicore__ inline void rope_phase(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 192 * 1024);
  AscendC::LocalTensor<int32_t> seqLensUb = ub.GetWithOffset<int32_t>(kBatch, 0);
  AscendC::LocalTensor<half> cosUb = ub.GetWithOffset<half>(128, 64);
  AscendC::GlobalTensor<int32_t> seqLensGm;
  seqLensGm.SetGlobalBuffer(arg_data<int32_t>(args, kSeqLens), kBatch);
  AscendC::GlobalTensor<half> cosGm;
  cosGm.SetGlobalBuffer(arg_data<half>(args, kRopeCos));
  AscendC::DataCopy(seqLensUb, seqLensGm, kBatch);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);
  int64_t rowOffset = args[kCacheRowOffset];
  __gm__ int32_t *slots = arg_data<int32_t>(args, kSlotMapping);
  for (int32_t b = 0; b < kBatch; b++) {
    int32_t pos = seqLensUb.GetValue(b) - 1;
    int32_t slot = slots[b]; // want "EXT001 gm-scalar-read: scalar read .slots\\[b\\]. of .__gm__. pointer .slots."
    AscendC::DataCopy(cosUb, cosGm[pos * 128], 128);
    AscendC::PipeBarrier<PIPE_V>();
    (void)slot;
    (void)rowOffset;
  }
  AscendC::TPipe scratch; // want "EXT003 tpipe-double: second TPipe .scratch. created while .pipe. \\(line 8\\) is still live on the vector core"
#endif
}
