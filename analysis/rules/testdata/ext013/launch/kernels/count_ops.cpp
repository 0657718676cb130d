// Per-block counters: each block bumps its own 4-byte slot. Whether
// neighbouring blocks' slots share a line depends on how many blocks the
// host starts, read from every launch that names the kernel (here through
// wrappers passing their blockDim on to <<<>>>, called from ../app and
// ../aclapp).
#include "kernel_operator.h"

// Every call of BumpOne passes one block: no neighbouring core.
extern "C" __global__ __aicore__ void BumpOneKernel(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1;
}

void BumpOne(uint32_t blockDim, void *stream, uint32_t *x) { BumpOneKernel<<<blockDim, nullptr, stream>>>(x); }

// One caller passes 1, another 8: eight blocks share two lines.
extern "C" __global__ __aicore__ void BumpSomeKernel(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1; // want "EXT013 gm-false-sharing: `x\\[idx\\]` stores to a GM slot 4 bytes from the next core's"
}

void BumpSome(uint32_t blockDim, void *stream, uint32_t *x) { BumpSomeKernel<<<blockDim, nullptr, stream>>>(x); }

// Launched in a loop over block counts: not one count.
extern "C" __global__ __aicore__ void BumpLoopKernel(__gm__ uint32_t *x) {
  x[AscendC::GetBlockIdx()] += 1; // want "EXT013 gm-false-sharing: `x\\[AscendC::GetBlockIdx\\(\\)\\]`"
}

// Launched on one block here, and also looked up by name through a
// binary handle (../aclapp) and launched with a count of its own.
extern "C" __global__ __aicore__ void BumpHandleKernel(__gm__ uint32_t *x) {
  x[AscendC::GetBlockIdx()] += 1; // want "EXT013 gm-false-sharing: `x\\[AscendC::GetBlockIdx\\(\\)\\]`"
}

// No host launch names it: unknown, judged as any kernel.
extern "C" __global__ __aicore__ void BumpUnknownKernel(__gm__ uint32_t *x) {
  x[AscendC::GetBlockIdx()] += 1; // want "EXT013 gm-false-sharing: `x\\[AscendC::GetBlockIdx\\(\\)\\]`"
}
