// Ordinary standalone kernels (launched with <<<>>>, built with the
// compiler's default flags): the compiler's scalar dcci does not cover a
// line this core cached before its own DMA wrote the memory, so a
// GetValue before a DataCopy to GM and another after it reads the stale
// line. The fixed twins invalidate the line between them.
#include "kernel_operator.h"

using namespace AscendC;

// A count read first, the rows copied out, the count read back.
extern "C" __global__ __aicore__ void append_rows(GM_ADDR rows, GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t before = countGm.GetValue(0);
  DataCopy(countGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  int32_t after = countGm.GetValue(0); // want "warning: EXT001 gm-scalar-read: scalar read `countGm.GetValue\\(0\\)` of GlobalTensor `countGm`, read after this core's own DMA write `DataCopy\\(countGm, ub, 16\\)` \\(line 19\\)"
  (void)before;
  (void)after;
  (void)rows;
}

// The destination through operator[] is a write of the same GM buffer.
extern "C" __global__ __aicore__ void append_at(GM_ADDR counts, uint32_t at) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t head = countGm.GetValue(at);
  DataCopy(countGm[at], ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID1);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID1);
  int32_t tail = countGm.GetValue(at); // want "warning: EXT001 .*own DMA write `DataCopy\\(countGm\\[at\\], ub, 16\\)` \\(line 37\\)"
  (void)head;
  (void)tail;
}

// Fixed: the line is invalidated after the DMA write, before the read.
extern "C" __global__ __aicore__ void append_at_fixed(GM_ADDR counts, uint32_t at) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t head = countGm.GetValue(at);
  DataCopy(countGm[at], ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID1);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID1);
  DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(countGm[at]);
  int32_t tail = countGm.GetValue(at);
  (void)head;
  (void)tail;
}

// Fixed with the raw intrinsic on the element's address.
extern "C" __global__ __aicore__ void append_rows_fixed(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t before = countGm.GetValue(0);
  DataCopy(countGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  dcci((__gm__ int32_t *)counts, SINGLE_CACHE_LINE);
  int32_t after = countGm.GetValue(0);
  (void)before;
  (void)after;
}

// Nothing read the line before the DMA write: the read misses the cache
// and loads GM, and the compiler's default build covers the rest.
extern "C" __global__ __aicore__ void write_then_read(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  int32_t after = countGm.GetValue(0);
  (void)after;
}

// Nothing waits for MTE3 between the copy out and the read: the scalar
// load can overtake the DMA and read the bytes from before it, cached or
// not (the reduce-then-read-back shape of operator history bugs).
extern "C" __global__ __aicore__ void write_then_read_unsynced(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(countGm);
  SyncAll();
  DataCopy(ub, countGm, 16);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Adds(ub, ub, 1, 16);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(countGm, ub, 16);
  int32_t total = countGm.GetValue(0); // want "warning: EXT001 gm-scalar-read: scalar read `countGm.GetValue\\(0\\)` of GlobalTensor `countGm` can run before this core's own DMA write `DataCopy\\(countGm, ub, 16\\)` \\(line 115\\) to it has landed: .*wait for MTE3 first"
  (void)total;
}

// The wait is the vector pipe's (MTE3_V): it holds the vector pipe, not
// the scalar unit, so the read can still overtake the copy.
extern "C" __global__ __aicore__ void write_then_read_vector_wait(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  SetFlag<HardEvent::MTE3_V>(EVENT_ID2);
  WaitFlag<HardEvent::MTE3_V>(EVENT_ID2);
  int32_t total = countGm.GetValue(0); // want "warning: EXT001 .*can run before this core's own DMA write `DataCopy\\(countGm, ub, 16\\)`"
  (void)total;
}

// Read once, copied out, read back with no wait: both the race and the
// line cached before the copy.
extern "C" __global__ __aicore__ void reread_unsynced(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  int32_t before = countGm.GetValue(0);
  DataCopy(countGm, ub, 16);
  int32_t after = countGm.GetValue(0); // want "warning: EXT001 .*can run before this core's own DMA write `DataCopy\\(countGm, ub, 16\\)`.*then `dcci` the line: this core can have cached it"
  (void)before;
  (void)after;
}

// Fixed: a barrier on every pipe, or a helper waiting on the MTE3_S event,
// orders the copy before the read.
extern "C" __global__ __aicore__ void write_then_read_barrier(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  PipeBarrier<PIPE_ALL>();
  int32_t total = countGm.GetValue(0);
  (void)total;
}

template <HardEvent EVT>
__aicore__ inline void SyncOn() {
  event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
  SetFlag<EVT>(id);
  WaitFlag<EVT>(id);
}

extern "C" __global__ __aicore__ void write_then_read_helper(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  SyncOn<HardEvent::MTE3_S>();
  int32_t total = countGm.GetValue(0);
  (void)total;
}

// The class shape of operator kernels: members set up in Init, the copy
// and both reads in Process.
class KernelCompact {
public:
  __aicore__ inline void Init(GM_ADDR data, GM_ADDR meta) {
    dataGm.SetGlobalBuffer((__gm__ float *)data);
    metaGm.SetGlobalBuffer((__gm__ int32_t *)meta);
    pipe.InitBuffer(buf, 1024);
  }
  __aicore__ inline void Process() {
    LocalTensor<int32_t> ub = buf.Get<int32_t>();
    int32_t kept = metaGm.GetValue(8);
    DataCopy(metaGm[8], ub, 8);
    PipeBarrier<PIPE_ALL>();
    int32_t now = metaGm.GetValue(8); // want "warning: EXT001 .*`metaGm.GetValue\\(8\\)`.*own DMA write `DataCopy\\(metaGm\\[8\\], ub, 8\\)`"
    float x = dataGm.GetValue(0);
    (void)kept;
    (void)now;
    (void)x;
  }

private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  GlobalTensor<float> dataGm;
  GlobalTensor<int32_t> metaGm;
};

extern "C" __global__ __aicore__ void compact(GM_ADDR data, GM_ADDR meta) {
  KernelCompact op;
  op.Init(data, meta);
  op.Process();
}

// A stride set once: unit strides copy out by DMA, others update element
// by element. No run takes both branches, so the read never follows the
// copy; a test on another value can take both.
class KernelStride {
public:
  __aicore__ inline void Init(GM_ADDR y, int32_t inc) {
    yGm.SetGlobalBuffer((__gm__ float *)y);
    pipe.InitBuffer(buf, 1024);
    incy = inc;
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t col, uint32_t n) {
    LocalTensor<float> ub = buf.Get<float>();
    if (incy == 1) {
      DataCopy(yGm[row], ub, 8);
    } else {
      yGm.SetValue(row * incy, yGm.GetValue(row * incy) + ub.GetValue(0));
    }
    if (incy == 1) {
      DataCopy(yGm[col], ub, n);
    } else {
      for (uint32_t i = 0; i < n; i++) {
        yGm.SetValue((col + i) * incy, yGm.GetValue((col + i) * incy) + ub.GetValue(i));
      }
    }
    if (n > 8) {
      DataCopy(yGm[col], ub, n);
    } else {
      float last = yGm.GetValue(col); // want "warning: EXT001 .*`yGm.GetValue\\(col\\)`.*own DMA write `DataCopy\\(yGm\\[col\\], ub, n\\)`"
      (void)last;
    }
  }

private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  GlobalTensor<float> yGm;
  int32_t incy;
};

extern "C" __global__ __aicore__ void strided(GM_ADDR y, int32_t inc) {
  KernelStride op;
  op.Init(y, inc);
  for (uint32_t r = 0; r < 4; r++) {
    op.CopyOut(r, r * 8, 8);
  }
}

// The sorted keys copied out, then the first one rewritten by scalar and
// read back: this core's own store of that element sits in its cache, so
// the read returns it whatever the copy did to the line.
extern "C" __global__ __aicore__ void sort_then_clamp(GM_ADDR keys, float floor) {
  GlobalTensor<float> keyGm;
  keyGm.SetGlobalBuffer((__gm__ float *)keys);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> ub = buf.Get<float>();
  DataCopy(keyGm[1], ub, 16);
  keyGm(1) = keyGm(0) + floor; // want "scalar read `keyGm\\(0\\)` of GlobalTensor `keyGm` can run before"
  if (keyGm(1) < floor) {
    keyGm(1) = floor;
  }
  keyGm.SetValue(2, floor);
  float second = keyGm.GetValue(2);
  (void)second;
}

// Still flagged: a store to another element of the line, a store on one
// branch only, and a store whose index changes before the read.
extern "C" __global__ __aicore__ void sort_then_clamp_partly(GM_ADDR keys, float floor, uint32_t k) {
  GlobalTensor<float> keyGm;
  keyGm.SetGlobalBuffer((__gm__ float *)keys);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> ub = buf.Get<float>();
  DataCopy(keyGm[1], ub, 16);
  keyGm(0) = floor;
  float first = keyGm(1); // want "scalar read `keyGm\\(1\\)` of GlobalTensor `keyGm` can run before"
  if (first < floor) {
    keyGm(2) = floor;
  }
  float third = keyGm(2); // want "scalar read `keyGm\\(2\\)` of GlobalTensor `keyGm` can run before"
  keyGm(k) = floor;
  k = k + 1;
  float next = keyGm(k); // want "scalar read `keyGm\\(k\\)` of GlobalTensor `keyGm` can run before"
  (void)third;
  (void)next;
}

// The ordered keys copied out by DMA, then every one of them rewritten by
// scalar in key order before the first is read: when the copy wrote
// anything (rows > 1) the loop stored key 1 itself, and the read returns
// that store; with one row the copy wrote nothing.
__aicore__ inline void reorder(GlobalTensor<float> &keyGm, GlobalTensor<float> &srcGm, LocalTensor<float> &ub, uint16_t rows, float tol) {
  const uint16_t n = rows - 1;
  const DataCopyExtParams params = {1, n * sizeof(float), 0, 0, 0};
  DataCopyPad(keyGm[1], ub, params);
  for (uint16_t j = 1; j < rows; ++j) {
    keyGm(j) = srcGm(j);
  }
  if (keyGm(1) < tol) {
    keyGm(1) = tol;
  }
}

// Still flagged: the loop may stop short of what the copy wrote, and may
// not run at all while the copy wrote key 1.
__aicore__ inline void reorder_some(GlobalTensor<float> &keyGm, GlobalTensor<float> &srcGm, LocalTensor<float> &ub, uint16_t rows, uint16_t upto, float tol) {
  const uint16_t n = rows - 1;
  const DataCopyExtParams params = {1, n * sizeof(float), 0, 0, 0};
  DataCopyPad(keyGm[1], ub, params);
  for (uint16_t j = 1; j < upto; ++j) {
    keyGm(j) = srcGm(j);
  }
  if (keyGm(1) < tol) { // want "scalar read `keyGm\\(1\\)` of GlobalTensor `keyGm` can run before"
    keyGm(1) = tol;
  }
}

extern "C" __global__ __aicore__ void reorder_keys(GM_ADDR keys, GM_ADDR src, uint16_t rows, uint16_t upto, float tol) {
  GlobalTensor<float> keyGm;
  keyGm.SetGlobalBuffer((__gm__ float *)keys);
  GlobalTensor<float> srcGm;
  srcGm.SetGlobalBuffer((__gm__ float *)src);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> ub = buf.Get<float>();
  reorder(keyGm, srcGm, ub, rows, tol);
  reorder_some(keyGm, srcGm, ub, rows, upto, tol);
}
