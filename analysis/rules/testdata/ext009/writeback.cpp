// Write-backs the unit's summaries see: whole-cache and two-argument forms
// with a cast dsb, a dsb inside the helper that writes back, derived
// pointers flushed through their base, and stores that are not to GM.
#include "gm_util.h"

struct Meta {
  uint32_t words[16];
};

template <typename T>
__aicore__ inline __gm__ T *slot_data(__gm__ int64_t *args, int32_t slot) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[slot]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

// Writes back [base, base + bytes) line by line, then waits: one helper.
__aicore__ inline void publish_prefix(__gm__ uint8_t *base, uint64_t bytes) {
  uint64_t first = reinterpret_cast<uint64_t>(base) & ~static_cast<uint64_t>(63);
  for (uint64_t line = first; line < reinterpret_cast<uint64_t>(base) + bytes; line += 64) {
    dcci(reinterpret_cast<__gm__ void *>(line), SINGLE_CACHE_LINE, CACHELINE_OUT);
  }
  dsb(DSB_DDR);
}

// Writes back without waiting.
__aicore__ inline void write_out(__gm__ int32_t *p) { dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT); }

extern "C" __global__ __aicore__ void generated_tail(__gm__ int64_t *args) {
  __gm__ int32_t *plan = slot_data<int32_t>(args, 0);
  for (int64_t i = 0; i < 8; ++i) {
    (plan)[i] = 0;
  }
  // The generator's tail: the whole cache, then a cast dsb.
  pipe_barrier(PIPE_ALL);
  dcci((__gm__ void *)0, cache_line_t::ENTIRE_DATA_CACHE);
  dsb((mem_dsb_t)0);
  plan[9] = 1; // want "warning: EXT009 .*`plan\\[9\\] = 1`.*stays in this core's data cache"
}

extern "C" __global__ __aicore__ void tiling_writer(__gm__ int64_t *args) {
  __gm__ uint8_t *metadata = slot_data<uint8_t>(args, 1);
  __gm__ uint32_t *words = reinterpret_cast<__gm__ uint32_t *>(metadata + 64);
  __gm__ int64_t *lens = reinterpret_cast<__gm__ int64_t *>(metadata + 128);
  __gm__ int32_t *other = slot_data<int32_t>(args, 2);
  for (uint32_t i = 0; i < 16; ++i) {
    words[i] = i;
    lens[i] = 2 * i;
  }
  other[0] = 1; // want "warning: EXT009 .*`other\\[0\\] = 1`.*stays in this core's data cache"
  // Derived pointers are written out through their base.
  publish_prefix(metadata, 256);

  // Local arrays of GM pointers hold pointers, not GM.
  struct {
    GM_ADDR bufs[2];
  } local;
  GM_ADDR ptrs[2];
  local.bufs[0] = metadata;
  ptrs[1] = local.bufs[0];
  ptrs[1][3] = 7; // want "warning: EXT009 .*`ptrs\\[1\\]\\[3\\] = 7`"
}

extern "C" __global__ __aicore__ void unsynced(__gm__ int64_t *args) {
  __gm__ int32_t *result = slot_data<int32_t>(args, 0);
  __gm__ int32_t *ready = slot_data<int32_t>(args, 1);
  // Written out, no dsb, nothing follows: a note.
  result[0] = 5;
  write_out(result); // want "info: EXT009 .*no `dsb\\(DSB_DDR\\)`.*robustness note"
}

extern "C" __global__ __aicore__ void signalled(__gm__ int64_t *args) {
  __gm__ int32_t *result = slot_data<int32_t>(args, 0);
  // Written out, no dsb, then a cross-core signal: a consumer can read the
  // old bytes.
  result[0] = 5;
  write_out(result); // want "warning: EXT009 .*no `dsb\\(DSB_DDR\\)`.*`AscendC::CrossCoreSetFlag<0, PIPE_S>\\(4\\)`.* tells another core to read before any `dsb`"
  AscendC::CrossCoreSetFlag<0, PIPE_S>(4);
}

extern "C" __global__ __aicore__ void fenced(__gm__ int64_t *args) {
  __gm__ int32_t *result = slot_data<int32_t>(args, 0);
  result[0] = 5;
  write_out(result);
  dsb(DSB_DDR);
  AscendC::CrossCoreSetFlag<0, PIPE_S>(4);
}

// Store building blocks: the callers publish what they store.
__aicore__ inline void put_slot(__gm__ int32_t *slot, int32_t v) { *slot = v; }
__aicore__ inline void put_lost(__gm__ int32_t *slot, int32_t v) {
  *slot = v; // want "warning: EXT009 .*`\\*slot = v`.*stays in this core's data cache"
}

extern "C" __global__ __aicore__ void building_blocks(__gm__ int64_t *args) {
  __gm__ int32_t *slots = slot_data<int32_t>(args, 0);
  put_slot(slots + 1, 3);
  put_lost(slots + 2, 4);
  dcci((__gm__ void *)0, cache_line_t::ENTIRE_DATA_CACHE);
  dsb((mem_dsb_t)0);
}

extern "C" __global__ __aicore__ void forgets(__gm__ int64_t *args) {
  __gm__ int32_t *slots = slot_data<int32_t>(args, 0);
  put_lost(slots + 2, 5);
}

extern "C" __global__ __aicore__ void one_cause(__gm__ int64_t *args) {
  __gm__ int32_t *header = slot_data<int32_t>(args, 0);
  // Four stores, one whole-cache write-back, no dsb before the signal: one
  // missing dsb, so one finding at the write-back naming the stores.
  header[0] = 1;
  header[1] = 2;
  header[2] = 3;
  header[3] = 4;
  dcci(header, ENTIRE_DATA_CACHE, CACHELINE_OUT); // want "warning: EXT009 .*`header\\[0\\] = 1`.*no `dsb\\(DSB_DDR\\)`.*\\(it writes out 3 more scalar stores of this function without the `dsb`, listed as related\\)"
  AscendC::CrossCoreSetFlag<0, PIPE_S>(5);
}

// Stores a slot and writes it out; the dsb is its caller's.
__aicore__ inline void publish_slot(__gm__ int32_t *slots, int32_t i, int32_t v) {
  slots[i * 16] = v;
  dcci(slots + i * 16, SINGLE_CACHE_LINE, CACHELINE_OUT);
}

// Every slot written out, then one dsb for all of them: complete.
extern "C" __global__ __aicore__ void drained_by_caller(__gm__ int64_t *args) {
  __gm__ int32_t *slots = slot_data<int32_t>(args, 0);
  for (int32_t i = 0; i < 4; ++i) {
    publish_slot(slots, i, i);
  }
  dsb(DSB_DDR);
}

__aicore__ inline void publish_flag(__gm__ int32_t *flags, int32_t i) {
  flags[i * 16] = 1;
  dcci(flags + i * 16, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "info: EXT009 .*`flags\\[i \\* 16\\] = 1`.*no `dsb\\(DSB_DDR\\)`"
}

// The signal comes before the caller's dsb: the write-back is not waited.
extern "C" __global__ __aicore__ void signalled_first(__gm__ int64_t *args) {
  __gm__ int32_t *flags = slot_data<int32_t>(args, 1);
  for (int32_t i = 0; i < 4; ++i) {
    publish_flag(flags, i);
  }
  AscendC::CrossCoreSetFlag<0, PIPE_S>(5);
  dsb(DSB_DDR);
}
