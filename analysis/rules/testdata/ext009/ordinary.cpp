// Ordinary standalone kernels (default build) that publish a scalar: the
// author's write-back needs its dsb before anyone consumes the bytes,
// another core after the barrier or this core's own DMA reading them back.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void publish_count(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  dcci(counts + blk * 16, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*`counts\\[blk \\* 16\\] = 1`.*no `dsb\\(DSB_DDR\\)` waits for it to reach GM before the barrier `SyncAll\\(\\)`"
  SyncAll();
  (void)counts[0];
}

extern "C" __global__ __aicore__ void stage_header(GM_ADDR hdr) {
  GlobalTensor<int32_t> hdrGm;
  hdrGm.SetGlobalBuffer((__gm__ int32_t *)hdr);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  hdrGm.SetValue(0, 64);
  DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(hdrGm); // want "warning: EXT009 .*`hdrGm.SetValue\\(0, 64\\)`.*`DataCopy\\(ub, hdrGm, 16\\)` \\(line 25\\) reads it back by DMA before any `dsb`"
  DataCopy(ub, hdrGm, 16);
}

// Fixed: the dsb waits for the write-back before the barrier and the
// read-back.
extern "C" __global__ __aicore__ void publish_count_fixed(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  dcci(counts + blk * 16, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  SyncAll();
}

extern "C" __global__ __aicore__ void stage_header_fixed(GM_ADDR hdr) {
  GlobalTensor<int32_t> hdrGm;
  hdrGm.SetGlobalBuffer((__gm__ int32_t *)hdr);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  hdrGm.SetValue(0, 64);
  DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(hdrGm);
  dsb(DSB_DDR);
  DataCopy(ub, hdrGm, 16);
}

// One workspace, two views: per-block partial sums first, a 64-byte ready
// word per block after them, both at offsets that are not constants. The
// DMA reads the sums region: whether it reaches the ready word is not
// something the analysis can tell, so the missing dsb is only a note.
template <uint32_t BLOCKS, uint32_t PARTS>
__global__ __aicore__ void partial_sums(__gm__ float *ws) {
  uint32_t blk = GetBlockIdx();
  GlobalTensor<float> sumsGm;
  GlobalTensor<int32_t> readyGm;
  sumsGm.SetGlobalBuffer(ws + blk * PARTS);
  readyGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(ws + BLOCKS * PARTS) + blk * 16);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> ub = buf.Get<float>();
  readyGm.SetValue(0, 1);
  DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(readyGm); // want "info: EXT009 .*`readyGm.SetValue\\(0, 1\\)`.*`DataCopy\\(ub, sumsGm, BLOCKS \\* PARTS\\)` \\(line 68\\) reads the same buffer by DMA through another view, `sumsGm`, whose offset from `readyGm` the analysis cannot tell"
  DataCopy(ub, sumsGm, BLOCKS * PARTS);
}
