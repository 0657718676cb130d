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

// A method ends its object's pipe before the helper builds one.
class StagedOp {
public:
  __aicore__ inline void Init() { pipe_.InitBuffer(rows, 8192); }
  __aicore__ inline void Run() {
    AscendC::LocalTensor<float> row = rows.Get<float>();
    pipe_.Destroy();
    peak = RowMax(row);
  }

private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rows;
  float peak;
};

extern "C" __global__ __aicore__ void staged_rows(GM_ADDR x) {
  StagedOp op;
  op.Init();
  (void)x;
  op.Run();
}

// The entry's pipe serves one tiling branch; the other branch's helper
// builds its own, with the entry's handing out nothing there.
extern "C" __global__ __aicore__ void branch_rows(GM_ADDR x, GM_ADDR y) {
  AscendC::TPipe pipe;
  NormOp op;
  if (TILING_KEY_IS(0)) {
    op.Init(&pipe);
    op.Run();
  } else if (TILING_KEY_IS(1)) {
    FillRows(y);
  }
  (void)x;
}

// Here the entry's pipe hands out buffers after the helper's: both live.
extern "C" __global__ __aicore__ void clear_then_queue(GM_ADDR x, GM_ADDR y) {
  AscendC::TPipe pipe;
  NormOp op;
  ClearRows(y);
  op.Init(&pipe);
  (void)x;
}

// Phases whose objects hold a pipe; Done() ends the first before the
// second is built.
class PhaseOne {
public:
  __aicore__ inline void Run() { pipe_.InitBuffer(buf, 4096); }
  __aicore__ inline void Done() { pipe_.Destroy(); }

private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
};

class PhaseTwo {
public:
  __aicore__ inline void Run() { pipe_.InitBuffer(buf, 4096); }

private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
};

extern "C" __global__ __aicore__ void two_phases(GM_ADDR x) {
  PhaseOne a;
  a.Run();
  a.Done();
  PhaseTwo b;
  b.Run();
  (void)x;
}

extern "C" __global__ __aicore__ void two_phases_overlap(GM_ADDR x) {
  PhaseOne a;
  a.Run();
  PhaseTwo b; // want "second TPipe `b` \\(a `PhaseTwo` holding a TPipe\\) created while `a` \\(a `PhaseOne` holding a TPipe\\)"
  b.Run();
  a.Done();
  (void)x;
}
