// One heap the host lays out, its regions at offsets a control block
// names: this core's DMA into the rows region does not touch the counts
// region, whose line a read before the copy cached. A DMA into the counts
// region itself does.
#include "kernel_operator.h"

using namespace AscendC;

struct HeapLayout {
  uint64_t rows_off;
  uint64_t counts_off;
};

extern "C" __global__ __aicore__ void heap_rows(GM_ADDR heap, GM_ADDR layout) {
  __gm__ HeapLayout *ctl = reinterpret_cast<__gm__ HeapLayout *>(layout);
  __gm__ uint8_t *sym = reinterpret_cast<__gm__ uint8_t *>(heap);
  __gm__ int32_t *counts = reinterpret_cast<__gm__ int32_t *>(sym + ctl->counts_off);
  GlobalTensor<int32_t> rowsGm;
  rowsGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(sym + ctl->rows_off));
  GlobalTensor<int32_t> countsGm;
  countsGm.SetGlobalBuffer(counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t before = counts[0];
  DataCopy(rowsGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  int32_t after = counts[0];
  DataCopy(countsGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  int32_t again = counts[0]; // want "warning: EXT001 .*`counts\\[0\\]`.*own DMA write `DataCopy\\(countsGm, ub, 16\\)`"
  (void)before;
  (void)after;
  (void)again;
}
