// An AIV extern reading metadata from GM in every shape EXT001 knows.
#include "common.h"

__aicore__ inline int32_t sum_lens(__gm__ const int32_t *lens, int32_t n) {
  int32_t s = 0;
  for (int32_t i = 0; i < n; i++) s += lens[i]; // want `EXT001 gm-scalar-read: scalar read .lens\[i\]. of .__gm__. pointer .lens.`
  return s;
}

__aicore__ inline int32_t sum_lens_flushed(__gm__ int32_t *lens, int32_t n) {
  invalidate_lines(lens, n * sizeof(int32_t));
  int32_t s = 0;
  for (int32_t i = 0; i < n; i++) {
    s += lens[i];
  }
  return s;
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ DescT *seq_t = reinterpret_cast<__gm__ DescT *>(args[0]);
  __gm__ Tensor *meta_t = reinterpret_cast<__gm__ Tensor *>(args[1]);
  __gm__ ChipTensor *out_t = (__gm__ ChipTensor *)args[2];
  int64_t batch = args[3];
  int64_t extra = get_scalar(args, 4);
  uint64_t base = seq_t->buffer.addr + meta_t->start_offset * sizeof(int32_t);
  int32_t bidx = get_block_idx(args);

  __gm__ int32_t *seq_lens = tensor_data<int32_t>(seq_t);
  int32_t pos = seq_lens[bidx] - 1; // want `6 scalar reads of .__gm__. pointer .seq_lens. in .kernel_entry. \(first .seq_lens\[bidx\].\) read memory nothing in this task writes`
  int32_t first = *seq_lens; // a related location of the read above
  int32_t second = *(seq_lens + 1) + seq_lens[2]; // two more of them
  if (batch > 0) pos = seq_lens[0]; // and one
  int32_t s = sum_lens(seq_lens, 4);

  auto meta = reinterpret_cast<__gm__ BatchMeta *>(meta_t->buffer.addr);
  int32_t len = meta->seq_len; // want `3 scalar reads of .__gm__. pointer .meta. in .kernel_entry. \(first .meta->seq_len.\)`
  int32_t blk = meta->block_table[pos]; // want `read .meta->block_table\[pos\]. of .__gm__. pointer .meta->block_table.`
  int32_t padv = meta->pad[3];

  GM_ADDR raw = (GM_ADDR)out_t->buffer.addr;
  uint8_t tag = raw[7]; // want `2 scalar reads of .__gm__. pointer .raw. in .kernel_entry. \(first .raw\[7\].\)`
  int32_t wide = ((__gm__ int32_t *)raw)[1];

  // Writes and addresses are not reads.
  __gm__ int32_t *out = tensor_data<int32_t>(out_t);
  out[0] = pos;
  *out = len;
  __gm__ int32_t *row = &out[bidx * 16];
  __gm__ int32_t *next = out + 16;
  uint32_t sz = sizeof(out[0]);

#ifdef __CPU_SIM
  int32_t dbg = meta->seq_len;
#endif

  int32_t n1 = *seq_lens; // NOLINT(EXT001)
  int32_t n2 = *seq_lens; // NOLINT(gm-scalar-read)
  int32_t n3 = *seq_lens; // NOLINT
  // NOLINTNEXTLINE(EXT001)
  int32_t n4 = *seq_lens;
  int32_t n5 = *seq_lens; // NOLINT(EXT009): not this rule, so one of the reads of line 29

  // Reads made coherent first.
  dcci(seq_lens, SINGLE_CACHE_LINE);
  int32_t again = seq_lens[bidx];
  invalidate_lines(meta, sizeof(BatchMeta));
  int32_t len2 = meta->seq_len + meta->block_num;
  dcci(raw, ENTIRE_DATA_CACHE); // every line: later reads of any pointer are coherent
  uint8_t tag2 = raw[8] + out[3];
  int32_t s2 = sum_lens_flushed(seq_lens, 4);

}
