// Paged flash attention: cube QK^T / PV with a vector online softmax.
#pragma once
#include "kernel_operator.h"
#include "pa_args.hpp"

namespace pa {

struct Resource {
  AscendC::TPipe pipe;
  __aicore__ inline Resource() {
    // TPipe's constructor inserts sync setup; release it at once and manage
    // buffers by hand, as the vendored attention does.
    pipe.Destroy();
  }
};

struct AttnTiles {
  AscendC::LocalTensor<half> l1Q;
  AscendC::LocalTensor<half> l1K;
  AscendC::LocalTensor<half> l0a;
  AscendC::LocalTensor<half> l0b;
  AscendC::LocalTensor<float> l0c;
};

__aicore__ inline void cube_qk(AttnTiles &t, AscendC::GlobalTensor<float> &gScores, int32_t blocks) {
  for (int32_t i = 0; i < blocks; ++i) {
    AscendC::LoadData(t.l0a, t.l1Q, AscendC::LoadData2DParams());
    AscendC::LoadData(t.l0b, t.l1K, AscendC::LoadData2DParams());
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(t.l0c, t.l0a, t.l0b, AscendC::MmadParams(kBlockSize, kBlockSize, kHeadDim));
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::Fixpipe(gScores[i * kBlockSize * kBlockSize], t.l0c, AscendC::FixpipeParamsV220());
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kQkReady);
    AscendC::CrossCoreWaitFlag(kSoftmaxDone); // want "EXT005"
  }
}

__aicore__ inline void vec_softmax(AscendC::LocalTensor<float> &s, AscendC::GlobalTensor<float> &gScores,
                                   int32_t blocks) {
  for (int32_t i = 0; i < blocks; ++i) {
    AscendC::CrossCoreWaitFlag(kQkReady);
    AscendC::DataCopy(s, gScores[i * kBlockSize * kBlockSize], kBlockSize * kBlockSize);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Exp(s, s, kBlockSize * kBlockSize);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::DataCopy(gScores[i * kBlockSize * kBlockSize], s, kBlockSize * kBlockSize);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxDone); // want "EXT005"
  }
}

template <bool WithRope>
__aicore__ inline void attention(__gm__ int64_t *args, int32_t blockIdx, int32_t blockNum) {
  constexpr int32_t outArg = kOut;
  constexpr int32_t seqArg = WithRope ? kSeqLens : 6;
  __gm__ float *scores = tensor_data<float>(args, kWorkspace) + blockIdx * kBlockSize * kBlockSize * 4;
  AscendC::GlobalTensor<float> gScores;
  gScores.SetGlobalBuffer(scores);
  __gm__ half *outData = tensor_data<half>(args, outArg);
  int32_t blocks = 4;
  (void)seqArg;
  (void)outData;
  (void)blockNum;

#if defined(__DAV_C220_CUBE__)
  Resource res;
  AttnTiles tiles;
  cube_qk(tiles, gScores, blocks);
  AscendC::PipeBarrier<PIPE_ALL>();
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> calc;
  pipe.InitBuffer(calc, 64 * 1024);
  AscendC::LocalTensor<float> s = calc.Get<float>();
  vec_softmax(s, gScores, blocks);
  pipe.Destroy();
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
}

} // namespace pa
