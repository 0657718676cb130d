// Where a TPipe lives decides how long the buffers it hands out stay valid.
#include "kernel_operator.h"

constexpr uint32_t kBytes = 4096;

// The pipe is a local of Init: the queues outlive it.
class RowNorm {
public:
  __aicore__ inline void Init(GM_ADDR x) {
    xGm_.SetGlobalBuffer((__gm__ float *)x);
    AscendC::TPipe pipe; // want "EXT019 tpipe-scope: TPipe `pipe` is a local of `Init`: its destructor frees the buffer it gave `inQ_` as `Init` returns, but `Process` uses `inQ_` \\(scope.cpp:[0-9]+\\) after that"
    pipe.InitBuffer(inQ_, 2, kBytes);
    pipe.InitBuffer(work_, kBytes);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> t = inQ_.AllocTensor<float>();
    AscendC::DataCopy(t, xGm_, 64);
    inQ_.EnQue(t);
    t = inQ_.DeQue<float>();
    inQ_.FreeTensor(t);
  }

private:
  AscendC::GlobalTensor<float> xGm_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> work_;
};

extern "C" __global__ __aicore__ void row_norm(GM_ADDR x) {
  RowNorm op;
  op.Init(x);
  op.Process();
}

// The same with the methods defined outside the class.
class ColNorm {
public:
  __aicore__ inline void Init(GM_ADDR x);
  __aicore__ inline void Process();

private:
  AscendC::GlobalTensor<float> xGm_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ_;
};

__aicore__ inline void ColNorm::Init(GM_ADDR x) {
  xGm_.SetGlobalBuffer((__gm__ float *)x);
  AscendC::TPipe pipe; // want "TPipe `pipe` is a local of `Init`.*gave `outQ_`.*but `Process` uses `outQ_`"
  pipe.InitBuffer(this->outQ_, 1, kBytes);
}

__aicore__ inline void ColNorm::Process() {
  AscendC::LocalTensor<float> t = outQ_.AllocTensor<float>();
  outQ_.EnQue(t);
  t = outQ_.DeQue<float>();
  AscendC::DataCopy(xGm_, t, 64);
  outQ_.FreeTensor(t);
}

extern "C" __global__ __aicore__ void col_norm(GM_ADDR x) {
  ColNorm op;
  op.Init(x);
  op.Process();
}

// Right: the kernel's pipe outlives the object's work.
class HandedNorm {
public:
  __aicore__ inline void Init(GM_ADDR x, AscendC::TPipe *pipe) {
    xGm_.SetGlobalBuffer((__gm__ float *)x);
    pipe->InitBuffer(inQ_, 2, kBytes);
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> t = inQ_.AllocTensor<float>();
    AscendC::DataCopy(t, xGm_, 64);
    inQ_.FreeTensor(t);
  }

private:
  AscendC::GlobalTensor<float> xGm_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
};

extern "C" __global__ __aicore__ void handed_norm(GM_ADDR x) {
  AscendC::TPipe pipe;
  HandedNorm op;
  op.Init(x, &pipe);
  op.Process();
}

// Right: Run keeps its pipe alive while the method using the queue runs.
class RunNorm {
public:
  __aicore__ inline void Run(GM_ADDR x) {
    xGm_.SetGlobalBuffer((__gm__ float *)x);
    AscendC::TPipe pipe;
    pipe.InitBuffer(inQ_, 2, kBytes);
    Step();
  }

private:
  __aicore__ inline void Step() {
    AscendC::LocalTensor<float> t = inQ_.AllocTensor<float>();
    AscendC::DataCopy(t, xGm_, 64);
    inQ_.FreeTensor(t);
  }
  AscendC::GlobalTensor<float> xGm_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ_;
};

extern "C" __global__ __aicore__ void run_norm(GM_ADDR x) {
  RunNorm op;
  op.Run(x);
}

// Right: a pipe made to carve UB for a TBuf alone; no other pipe hands the
// memory out again.
class FlagWords {
public:
  __aicore__ inline void Init() {
    AscendC::TPipe pipe;
    pipe.InitBuffer(words_, 256);
  }
  __aicore__ inline void Set(int64_t v) {
    AscendC::LocalTensor<int64_t> w = words_.Get<int64_t>();
    w.SetValue(0, v);
  }

private:
  AscendC::TBuf<AscendC::TPosition::VECCALC> words_;
};

extern "C" __global__ __aicore__ void flag_words(GM_ADDR x) {
  FlagWords f;
  f.Init();
  f.Set(1);
  (void)x;
}
