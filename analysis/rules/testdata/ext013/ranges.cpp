// Range-partitioned output: each core fills the elements of its request,
// from its entry of a prefix table to the next core's entry, by scalar
// stores. The ranges touch: the last element of one core's range and the
// first of the next core's sit in one cache line unless the prefix lands
// on a 64-byte boundary, which the data decides.
#include "kernel_operator.h"

class MaskRanges {
public:
  __aicore__ inline void Init(GM_ADDR offsets, GM_ADDR mask, GM_ADDR rows) {
    offsetsGm_.SetGlobalBuffer((__gm__ int32_t *)offsets);
    maskGm_.SetGlobalBuffer((__gm__ uint8_t *)mask);
    rowsGm_.SetGlobalBuffer((__gm__ float *)rows);
  }

  // The start comes in as a parameter: every call passes a core's range.
  __aicore__ inline void Clear(int32_t start, int32_t len) {
    for (int32_t i = 0; i < len; ++i) {
      maskGm_.SetValue(start + i, 0); // want "EXT013 gm-false-sharing: `maskGm_.SetValue\\(start \\+ i, 0\\)` stores into this core's range of 1-byte `uint8_t` elements, which starts at `offsetsGm_.GetValue\\(req\\)` and ends where the next core's starts \\(`offsetsGm_` is read at `req \\+ 1` too\\)"
    }
  }

  __aicore__ inline void Process() {
    uint32_t req = AscendC::GetBlockIdx();
    int32_t start = offsetsGm_.GetValue(req);
    int32_t end = offsetsGm_.GetValue(req + 1);
    Clear(start, end - start);
    for (int32_t j = 0; j < end - start; ++j) {
      maskGm_.SetValue(start + j, 1); // want "EXT013 gm-false-sharing: `maskGm_.SetValue\\(start \\+ j, 1\\)` stores into this core's range"
      // Rows of 16 floats: each range starts on a line of its own.
      rowsGm_.SetValue(start * 16 + 3, 1.0f);
    }
  }

private:
  AscendC::GlobalTensor<int32_t> offsetsGm_;
  AscendC::GlobalTensor<uint8_t> maskGm_;
  AscendC::GlobalTensor<float> rowsGm_;
};

extern "C" __global__ __aicore__ void mask_ranges(GM_ADDR offsets, GM_ADDR mask, GM_ADDR rows) {
  MaskRanges op;
  op.Init(offsets, mask, rows);
  op.Process();
}

// A table read at the core id alone says nothing about where the next
// core writes (an offset the host may have aligned): silent.
extern "C" __global__ __aicore__ void mask_offsets(GM_ADDR offsets, GM_ADDR mask) {
  __gm__ int32_t *off = (__gm__ int32_t *)offsets;
  __gm__ uint8_t *m = (__gm__ uint8_t *)mask;
  int32_t start = off[AscendC::GetBlockIdx()];
  for (int32_t k = 0; k < 8; ++k) {
    m[start + k] = 1;
  }
}

// The same partition by pointers: start and end from the table.
extern "C" __global__ __aicore__ void mask_ranges_raw(GM_ADDR offsets, GM_ADDR mask) {
  __gm__ int32_t *off = (__gm__ int32_t *)offsets;
  __gm__ uint8_t *m = (__gm__ uint8_t *)mask;
  uint32_t id = AscendC::GetBlockIdx();
  int32_t start = off[id];
  int32_t len = off[id + 1] - start;
  for (int32_t k = 0; k < len; ++k) {
    m[start + k] = 1; // want "EXT013 gm-false-sharing: `m\\[start \\+ k\\]` stores into this core's range of 1-byte `uint8_t` elements, which starts at `off\\[id\\]`"
  }
}
