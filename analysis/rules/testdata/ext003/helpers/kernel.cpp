// Kernels calling the row helpers with their own pipe live.
#include "reduce.h"

class NormOp {
public:
  __aicore__ inline void Init(AscendC::TPipe *pipe) {
    pipe->InitBuffer(rows, 8192);
  }
  __aicore__ inline void Run() {
    AscendC::LocalTensor<float> row = rows.Get<float>();
    scale = RowScale(row);
  }

private:
  AscendC::TBuf<AscendC::TPosition::VECCALC> rows;
  float scale;
};

extern "C" __global__ __aicore__ void norm_rows(GM_ADDR x) {
  AscendC::TPipe pipe;
  NormOp op;
  op.Init(&pipe);
  (void)x;
  op.Run();
}

// The pipe ends before the helper builds its own: one live pipe at a time.
extern "C" __global__ __aicore__ void norm_rows_after(GM_ADDR x) {
  AscendC::TPipe pipe;
  pipe.Destroy();
  NormOp op;
  (void)x;
  op.Run();
}

// The helper ends the pipe it is handed first.
extern "C" __global__ __aicore__ void scale_after(GM_ADDR x) {
  AscendC::TPipe pipe;
  (void)x;
  ScaleAfter(pipe);
}
