// rms_attn: one source compiled for the cube (dav-c220-cube) and the vector
// cores (dav-c220-vec).
#include "kernel_operator.h"
#include "rms_attn_args.hpp"

using namespace rms_attn;

__aicore__ inline void rms_norm_phase(__gm__ int64_t *args, int32_t block, int32_t blocks) {
#ifdef __DAV_C220_VEC__
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 64 * 1024);
  AscendC::LocalTensor<float> row = ub.GetWithOffset<float>(kCols, 0);
  AscendC::LocalTensor<float> w = ub.GetWithOffset<float>(kCols, 1024);
  AscendC::LocalTensor<int32_t> lens = ub.GetWithOffset<int32_t>(16, 2048);

  AscendC::GlobalTensor<float> gX;
  AscendC::GlobalTensor<float> gW;
  AscendC::GlobalTensor<float> gWs;
  AscendC::GlobalTensor<int32_t> gLens;
  gX.SetGlobalBuffer(arg_tensor<float>(args, kX));
  gW.SetGlobalBuffer(arg_tensor<float>(args, kNormW));
  gWs.SetGlobalBuffer(arg_tensor<float>(args, kWorkspace));
  gLens.SetGlobalBuffer(arg_tensor<int32_t>(args, kRowLens));

  int32_t rows = static_cast<int32_t>(args[kRows]);
  float eps = from_u64<float>(args[kEps]);

  // Per-row lengths come through UB: MTE2 is coherent, scalar GM loads are not.
  AscendC::DataCopy(lens, gLens, 16);
  AscendC::DataCopy(w, gW, kCols);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
  for (int32_t r = block; r < rows; r += blocks) {
    int32_t n = lens.GetValue(r);
    AscendC::DataCopy(row, gX[r * kCols], kCols);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
    AscendC::Mul(row, row, w, n);
    AscendC::Adds(row, row, eps, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2);
    AscendC::DataCopy(gWs[r * kCols], row, kCols);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);
  }
  pipe.Destroy();
#endif
}

__aicore__ inline void matmul_phase(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::GlobalTensor<float> gOut;
  gOut.SetGlobalBuffer(arg_tensor<float>(args, kOut));
  AscendC::LocalTensor<half> a;
  AscendC::LocalTensor<half> b;
  AscendC::LocalTensor<float> c;
  AscendC::Mmad(c, a, b, AscendC::MmadParams(16, kCols, kCols));
  AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
  AscendC::Fixpipe(gOut, c, AscendC::FixpipeParamsV220());
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kNormReady);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::CrossCoreWaitFlag(kNormReady);
#endif
}

extern "C" __global__ __aicore__ void rms_attn_entry(__gm__ int64_t *args) {
  int32_t block = get_block_idx(args);
  int32_t blocks = get_block_num(args);

  rms_norm_phase(args, block, blocks);
  // The cube reads the normalised rows the vector cores wrote.
  AscendC::SyncAll<false>();
  matmul_phase(args);
  AscendC::PipeBarrier<PIPE_ALL>();
}
