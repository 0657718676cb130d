// Scalar stores to GM, flushed and not.
#include "gm_util.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[0]);
  __gm__ int32_t *counter = reinterpret_cast<__gm__ int32_t *>(args[1]);
  __gm__ Header *hdr = reinterpret_cast<__gm__ Header *>(args[2]);
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[3]);
  uint32_t blk = get_block_idx(args);

  flags[blk] = 1; // want "EXT009 gm-scalar-write: scalar store `flags\\[blk\\] = 1` through `__gm__` pointer `flags` stays in this core's data cache"
  *counter += 1; // want "`\\*counter \\+= 1`"
  hdr->len = 128; // want "`hdr->len = 128`"
  for (uint32_t i = 0; i < 16; ++i) {
    out[i] = 0.0f; // want "`out\\[i\\] = 0.0f`"
  }

  // GlobalTensor::SetValue is a scalar store as well; LocalTensor's is UB.
  AscendC::GlobalTensor<int32_t> flagGm;
  flagGm.SetGlobalBuffer(flags);
  flagGm.SetValue(blk, 9); // want "GlobalTensor `flagGm`"
  AscendC::LocalTensor<int32_t> ub;
  ub.SetValue(0, 9);

  // Reads, args and descriptors are not stores.
  int32_t seen = flags[blk];
  args[9] = 0;
#ifdef __CPU_SIM
  flags[0] = 0;
#endif
  hdr->ready = 4; // NOLINT(gm-scalar-write)
}

extern "C" __global__ __aicore__ void flushed(__gm__ int64_t *args) {
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[0]);
  __gm__ int32_t *slots = reinterpret_cast<__gm__ int32_t *>(args[1]);
  __gm__ Header *hdr = reinterpret_cast<__gm__ Header *>(args[2]);
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[3]);
  uint32_t blk = get_block_idx(args);

  // Written out and waited for.
  flags[blk] = 2;
  dcci(&flags[blk], SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);

  // Written out through a helper that loops over the cache lines.
  for (uint32_t i = 0; i < 64; ++i) {
    out[i] = 1.0f;
  }
  flush_lines((__gm__ uint8_t *)out, 64 * sizeof(float));

  // A building block followed by the caller's write-back.
  gm_store(slots + blk, 7);
  gm_dcci((__gm__ uint8_t *)(slots + blk));

  // The whole cache at once.
  hdr->ready = 1;
  hdr->len = 0;
  dcci(hdr, ENTIRE_DATA_CACHE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

extern "C" __global__ __aicore__ void half_flushed(__gm__ int64_t *args) {
  __gm__ int32_t *counter = reinterpret_cast<__gm__ int32_t *>(args[1]);
  __gm__ int32_t *seqs = reinterpret_cast<__gm__ int32_t *>(args[4]);
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[0]);
  uint32_t blk = get_block_idx(args);

  // Written out but never waited for, and a barrier follows: a warning.
  counter[8] = 5;
  dcci(&counter[8], SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*is written out by `dcci\\(&counter\\[8\\], SINGLE_CACHE_LINE, CACHELINE_OUT\\)` but no `dsb\\(DSB_DDR\\)`.*`flags\\[blk\\] = 3` \\(line 78\\) stores a flag another core may poll before any `dsb`"

  // An invalidate before the store is not a write-back.
  dcci(&seqs[16], SINGLE_CACHE_LINE);
  seqs[16] = 6; // want "stays in this core's data cache"

  // Written out only after the barrier the readers wait at: too late.
  flags[blk] = 3; // want "before the barrier `AscendC::SyncAll<false>\\(\\)` \\(line 79\\)"
  AscendC::SyncAll<false>();
  dcci(&flags[blk], SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
