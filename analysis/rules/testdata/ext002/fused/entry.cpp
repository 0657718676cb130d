// Fused paged attention + RoPE extern (mixed): RoPE on the vector lanes, a
// whole-core barrier, then cube attention with its vector softmax.
#include "rope_phase.h"
#include "attention.h"

extern "C" __global__ __aicore__ void pa_rope_fused(__gm__ int64_t *args) {
#ifdef __CPU_SIM
  AscendC::TPipe simPipe;
  int32_t simLen = arg_data<int32_t>(args, kSeqLens)[0];
#endif
  int32_t blockIdx = get_block_idx(args);
  __gm__ ChipTensor *outT = reinterpret_cast<__gm__ ChipTensor *>(args[kOut]);
  uint64_t outAddr = outT->buffer.addr;
  rope_phase(args);
  AscendC::SyncAll<false>();
  AscendC::TPipe debugPipe; // want "EXT002 tpipe-outside-vec: .AscendC::TPipe. .debugPipe. is created where the cube core"
  debugPipe.InitBuffer(dbgBuf, 1024);
  attention(args, blockIdx);
  __gm__ int32_t *seqLens = arg_data<int32_t>(args, kSeqLens);
  int32_t last = seqLens[kBatch - 1]; // want "EXT001 gm-scalar-read: scalar read .seqLens\\[kBatch - 1\\]."
  (void)outAddr;
  (void)last;
}
