// Fused RoPE + paged attention extern: one source compiled for the cube
// (dav-c220-cube) and for the vector cores (dav-c220-vec).
#include "kernel_operator.h"
#include "pa_args.hpp"
#include "rope_phase.hpp"
#include "fai_body.hpp"

using namespace pa;

// Loads the per-batch tables the cube needs before the barrier.
__aicore__ inline void prefetch_tables(__gm__ int64_t *args) {
  AscendC::TPipe tablePipe; // want "EXT002"
  AscendC::TBuf<AscendC::TPosition::VECCALC> tbl;
  tablePipe.InitBuffer(tbl, 1024);
  AscendC::PipeBarrier<PIPE_ALL>();
}

template <bool WithRope>
__aicore__ inline void run_fused(__gm__ int64_t *args) {
  RopeParams p;
  p.cacheRowOffset = static_cast<int64_t>(args[kCacheRowOffset]);
  p.batchOffset = static_cast<int64_t>(args[kBatchOffset]);
  p.blockIdx = get_block_idx(args);
  p.blockNum = get_block_num(args);

  if constexpr (WithRope) {
    rope_phase(args, p);
  }
  prefetch_tables(args);

  // Vector RoPE output is read by the cube attention: whole-core barrier.
  AscendC::SyncAll<false>();

  attention<WithRope>(args, p.blockIdx, p.blockNum);

#ifdef __DAV_VEC__ // want "EXT006"
  AscendC::PipeBarrier<PIPE_V>();
#endif
  AscendC::SyncAll(); // want "EXT004"
}

extern "C" __global__ __aicore__ void pa_rope_fused(__gm__ int64_t *args) {
#ifdef __CPU_SIM
  // The CPU simulator stub has no barrier hardware.
  AscendC::SyncAll();
  return;
#endif
  int32_t logical = get_block_idx(); // want "EXT008"
  (void)logical;
  run_fused<true>(args);
}
