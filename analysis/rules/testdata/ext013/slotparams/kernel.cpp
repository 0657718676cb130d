#include "slot.h"

extern "C" __global__ __aicore__ void records(__gm__ int64_t *args) {
  const int32_t blk = get_block_idx(args);
  __gm__ HalfLine *halves = reinterpret_cast<__gm__ HalfLine *>(args[0]);
  __gm__ FullLine *fulls = reinterpret_cast<__gm__ FullLine *>(args[1]);
  float v = 1.0f;
  PutHalf(halves + blk, v, 1);
  PutFull(fulls + blk, v, 1);
  __gm__ float *partials = reinterpret_cast<__gm__ float *>(args[2]);
  PutPartial(PartialOf(partials, blk), v);
  PutLine(LineOf(partials, blk), v);
  if (blk == 0) {
    PutSummary(halves + blk, v);
  }
  AscendC::SyncAll();
}
