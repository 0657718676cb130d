// One symmetric heap carved into regions at offsets a host-written
// control block lists: a row region DMA writes and reads back by scalar.
#include "kernel_operator.h"

using namespace AscendC;

struct HeapCtrl {
  uint64_t rows_off;
  uint32_t row_bytes;
  uint32_t count;
};

__aicore__ inline void StoreRow(__gm__ uint8_t *row, LocalTensor<uint8_t> ub, uint32_t bytes) {
  GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(row);
  DataCopyPad(g, ub, DataCopyExtParams(1, bytes, 0, 0, 0));
}

// The same region read back after the DMA wrote it: a stale line.
extern "C" __global__ __aicore__ void heap_rows_reread(__gm__ uint8_t *sym, uint64_t ctrl_off) {
  __gm__ HeapCtrl *ctrl = (__gm__ HeapCtrl *)(sym + ctrl_off);
  __gm__ uint32_t *rows = (__gm__ uint32_t *)(sym + ctrl->rows_off);
  LocalTensor<uint8_t> ub;
  uint32_t before = rows[0];
  StoreRow((__gm__ uint8_t *)rows, ub, 64);
  PipeBarrier<PIPE_ALL>();
  uint32_t after = rows[0]; // want "warning: EXT001 .*`rows\\[0\\]`.*own DMA write `DataCopyPad.*in `StoreRow"
  (void)before;
  (void)after;
}

// The branch that copies the row out returns: the read after it is on
// the other path.
extern "C" __global__ __aicore__ void heap_rows_early(__gm__ uint8_t *sym, uint64_t ctrl_off, uint32_t mode) {
  __gm__ HeapCtrl *ctrl = (__gm__ HeapCtrl *)(sym + ctrl_off);
  __gm__ uint32_t *rows = (__gm__ uint32_t *)(sym + ctrl->rows_off);
  LocalTensor<uint8_t> ub;
  uint32_t before = rows[0];
  if (mode == 1) {
    StoreRow((__gm__ uint8_t *)rows, ub, 64);
    return;
  }
  PipeBarrier<PIPE_ALL>();
  uint32_t after = rows[0];
  (void)before;
  (void)after;
}
