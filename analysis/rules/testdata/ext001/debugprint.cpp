// A read written in the arguments of a debug-print macro happens only
// when the definition the compile takes evaluates them. With the enabling
// #define commented out, DBG_PRINT expands to nothing and the GetValue
// in it is never evaluated; TRACE's switch is on and its reads are reads.
#include "kernel_operator.h"

using namespace AscendC;

// #define ENABLE_PRINT
#ifdef ENABLE_PRINT
#define DBG_PRINT(fmt, ...)                  \
    do {                                     \
        AscendC::printf(fmt, ##__VA_ARGS__); \
    } while (0)
#else
#define DBG_PRINT(fmt, ...)
#endif

#define ENABLE_TRACE
#ifdef ENABLE_TRACE
#define TRACE(fmt, ...) AscendC::printf(fmt, __VA_ARGS__)
#else
#define TRACE(fmt, ...)
#endif

// The prints compile to nothing: no read caches the line, none follows
// the copy.
extern "C" __global__ __aicore__ void copy_out_quiet(GM_ADDR out) {
  GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t *)out);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DBG_PRINT("before %d\n", outGm.GetValue(0));
  DataCopy(outGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  DBG_PRINT("after %d\n", outGm.GetValue(0));
}

// The same prints switched on: the first read caches the line, the
// second reads it after this core's DMA wrote the memory.
extern "C" __global__ __aicore__ void copy_out_traced(GM_ADDR out) {
  GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t *)out);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  TRACE("before %d\n", outGm.GetValue(0));
  DataCopy(outGm, ub, 16);
  SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
  TRACE("after %d\n", outGm.GetValue(0)); // want "warning: EXT001 gm-scalar-read: scalar read `outGm.GetValue\\(0\\)` of GlobalTensor `outGm`, read after this core's own DMA write `DataCopy\\(outGm, ub, 16\\)` \\(line 52\\)"
}
