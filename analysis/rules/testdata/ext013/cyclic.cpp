// Standalone cube + vector kernels whose vector cores fill a result table
// in turns: each core starts at its id and steps by the core count, so in
// every turn neighbouring cores store neighbouring elements. The element
// type is spelled through an alias, as operator code usually does.
#include "kernel_operator.h"

using namespace AscendC;
using OutT = float;
typedef OutT AccT;

// One cache line per slot, under an alias too.
struct LineSlot {
  float v[16];
};
using PaddedT = LineSlot;

class Tally {
public:
  __aicore__ inline void Init(GM_ADDR sum, GM_ADDR rows, GM_ADDR lines, uint32_t n) {
    n_ = n;
    sumGm.SetGlobalBuffer((__gm__ OutT *)sum, n);
    rowGm.SetGlobalBuffer((__gm__ AccT *)rows, n * 16);
    lineGm.SetGlobalBuffer((__gm__ PaddedT *)lines, n);
  }
  __aicore__ inline void Process() {
#if defined(__DAV_CUBE__)
    // The cube's matmul phase is elsewhere.
#else
    Recompute(GetBlockIdx(), GetBlockNum());
    Cyclic();
#endif
  }

private:
  // The core id and count passed in by the caller.
  __aicore__ inline void Recompute(uint32_t vectorId, uint32_t vectorNum) {
    for (int64_t idx = vectorId; idx < n_; idx += vectorNum) {
      sumGm.SetValue(idx, 1.0f); // want "EXT013 .*`sumGm.SetValue\\(idx, 1.0f\\)` stores to a GM slot 4 bytes from the next core's \\(`GetBlockIdx\\(\\)` steps 1 × 4-byte `OutT`\\)"
    }
    // Padded: a line per item.
    for (int64_t idx = vectorId; idx < n_; idx += vectorNum) {
      rowGm.SetValue(idx * 16, 1.0f);
    }
  }
  // The same turns written as a while loop.
  __aicore__ inline void Cyclic() {
    uint32_t idx = GetBlockIdx();
    while (idx < n_) {
      rowGm.SetValue(idx, 2.0f); // want "EXT013 .*`rowGm.SetValue\\(idx, 2.0f\\)` stores to a GM slot 4 bytes from the next core's"
      idx += GetBlockNum();
    }
    uint32_t pad = GetBlockIdx();
    while (pad < n_) {
      rowGm.SetValue(pad * 16, 2.0f);
      pad += GetBlockNum();
    }
    uint32_t line = GetBlockIdx();
    while (line < n_) {
      lineGm.SetValue(line, PaddedT{});
      line += GetBlockNum();
    }
  }

  uint32_t n_;
  GlobalTensor<OutT> sumGm;
  GlobalTensor<AccT> rowGm;
  GlobalTensor<PaddedT> lineGm;
};

extern "C" __global__ __aicore__ void tally(GM_ADDR sum, GM_ADDR rows, GM_ADDR lines, uint32_t n) {
  Tally op;
  op.Init(sum, rows, lines, n);
  op.Process();
}
