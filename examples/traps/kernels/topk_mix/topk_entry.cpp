// topk_mix: every trap extern-lsp knows, once. See examples/README.md.
#include "kernel_operator.h"
#include "topk_args.hpp"

using namespace topk;

__aicore__ inline void stage_counts(__gm__ int64_t *args) {
  AscendC::TPipe tablePipe; // EXT002: the cube compiles this TPipe
  AscendC::TBuf<AscendC::TPosition::VECCALC> tbl;
  tablePipe.InitBuffer(tbl, 1024);
}

// A ready word the next block polls: set by the scalar unit, copied out.
__aicore__ inline void publish_ready(AscendC::GlobalTensor<int32_t> &word, AscendC::LocalTensor<int32_t> &ub, int32_t v) {
  ub.SetValue(0, v);
  AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID2);
  AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID2);
  AscendC::DataCopy(word, ub, 8);
}

__aicore__ inline void await_ready(AscendC::GlobalTensor<int32_t> &word, AscendC::LocalTensor<int32_t> &ub, int32_t v) {
  while (true) {
    AscendC::DataCopy(ub, word, 8);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    if (ub.GetValue(0) == v) {
      break;
    }
  }
}

__aicore__ inline void score_phase(__gm__ int64_t *args, int32_t block) {
#ifdef __DAV_C220_VEC__
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 32 * 1024);
  AscendC::LocalTensor<float> s = ub.Get<float>();
  AscendC::TPipe scratch; // EXT003: a second live TPipe
  (void)scratch;

  __gm__ int32_t *counts = tensor_data<int32_t>(args, kCountsArg);
  int32_t n = counts[block]; // EXT001: stale-cache scalar read
  float scale = (float)args[kScaleArg]; // EXT106: FP32 scalar must be bit-cast
  __gm__ float *bad = reinterpret_cast<__gm__ float *>(args[kTopKArg]); // EXT101: a scalar slot as a pointer
  (void)bad;

  AscendC::GlobalTensor<float> gScores;
  gScores.SetGlobalBuffer(tensor_data<float>(args, kScoresArg));
  AscendC::DataCopy(s, gScores[block * 256], 256);
  float top = s.GetValue(0); // EXT017: the scalar unit can read UB before the copy lands
  (void)top;
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::Muls(s, s, scale, n);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);

  AscendC::GlobalTensor<int32_t> gReady;
  gReady.SetGlobalBuffer(tensor_data<int32_t>(args, kWorkspaceArg) + 4096);
  AscendC::LocalTensor<int32_t> word = ub.Get<int32_t>()[8192];
  if (block > 0) {
    await_ready(gReady[(block - 1) * 16], word, 1);
  }
  AscendC::DataCopy(gScores[block * 256], s, 256);
  publish_ready(gReady[block * 16], word, 1); // EXT016: the ready word can land before the scores
  AscendC::PipeBarrier<PIPE_ALL>();
  pipe.Destroy();
#endif
}

__aicore__ inline void merge_phase(__gm__ int64_t *args, int32_t block) {
#ifdef __DAV_C220_CUBE__
  AscendC::LocalTensor<half> a;
  AscendC::LocalTensor<half> b;
  AscendC::LocalTensor<float> c;
  AscendC::Mmad(c, a, b, AscendC::MmadParams(16, 16, 16));
  AscendC::CrossCoreWaitFlag(kMergeDone); // EXT005: flag 13 belongs to SyncAll
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kMergeReady);
#endif
#ifdef __DAV_VEC__ // EXT006: pto-isa's macro in a C220-keyed extern
  AscendC::CrossCoreWaitFlag(6); // EXT018: the cube signals the merge on 5
  if (get_sub_block_id(args) == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kScoresReady); // EXT010: one lane sets
  }
#endif
  __gm__ int32_t *index = tensor_data<int32_t>(args, kIndexArg);
  index[block * 16] = block; // EXT009: scalar GM store without dcci + dsb
  __gm__ int32_t *done = tensor_data<int32_t>(args, kWorkspaceArg);
  done[block] = 1; // EXT013: sixteen cores' flags in one cache line
  dcci(&done[block], SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  int64_t extra = args[9]; // EXT102: only seven args
  (void)extra;
}

#ifdef __DAV_C220_VEC__
// Row statistics of the scores.
class RowStats {
public:
  __aicore__ inline void Init(__gm__ float *scores) {
    gIn_.SetGlobalBuffer(scores);
    AscendC::TPipe pipe; // EXT019: destroyed as Init returns; Process still uses the queue
    pipe.InitBuffer(inQ_, 2, 1024);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> t = inQ_.AllocTensor<float>();
    AscendC::DataCopy(t, gIn_, 256);
    inQ_.EnQue(t);
    t = inQ_.DeQue<float>();
    inQ_.FreeTensor(t);
  }

private:
  AscendC::GlobalTensor<float> gIn_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
};
#endif

extern "C" __global__ __aicore__ void topk_mix_entry(__gm__ int64_t *args) {
  set_ffts_base_addr(0); // EXT007: the runtime owns the FFTS base
  int32_t block = get_block_idx(); // EXT008: the physical launch grid
  if (block >= 8) {
    return; // EXT011: leaves before the barrier below
  }
  stage_counts(args);
  score_phase(args, block);
  AscendC::SyncAll(); // EXT004: vector-only barrier in a mixed extern
  merge_phase(args, block);
#ifdef __DAV_C220_VEC__
  RowStats stats;
  stats.Init(tensor_data<float>(args, kScoresArg));
  stats.Process();
#endif
#ifdef __DAV_C220_CUBE__
  AscendC::CrossCoreSetFlag<0, PIPE_FIX>(kCubesDone); // EXT014: one id for two synchronisations
  AscendC::CrossCoreWaitFlag(kCubesDone);
#endif

  AscendC::GlobalTensor<float> gOut;
  gOut.SetGlobalBuffer(tensor_data<float>(args, kOutArg));
  AscendC::LocalTensor<float> res;
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1); // EXT015: raised here, never waited
  AscendC::DataCopy(gOut[block * 16], res, 16); // EXT012: MTE3 store never drained
}
