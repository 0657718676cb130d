// Pipes declared together at the top of a kernel and handed to one phase
// after another: each is destroyed before the next is first used, in the
// function or in the body of the macro that runs the phases.
#include "kernel_operator.h"

using namespace AscendC;

#define RUN_PHASES(First, Second)        \
  do {                                   \
    First op1;                           \
    op1.Init(x, y, &firstPipe);          \
    op1.Process();                       \
    firstPipe.Destroy();                 \
    Second op2;                          \
    op2.Init(y, z, &secondPipe);         \
    op2.Process();                       \
  } while (0)

#define RUN_OVERLAPPED(First, Second)    \
  do {                                   \
    First op1;                           \
    op1.Init(x, y, &firstPipe);          \
    Second op2;                          \
    op2.Init(y, z, &secondPipe);         \
    op1.Process();                       \
    op2.Process();                       \
  } while (0)

extern "C" __global__ __aicore__ void sort_then_copy(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe firstPipe;
  TPipe secondPipe;
  RUN_PHASES(SortOp, CopyOp);
}

extern "C" __global__ __aicore__ void sort_then_copy_inline(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe firstPipe;
  TPipe secondPipe;
  SortOp op1;
  op1.Init(x, y, &firstPipe);
  op1.Process();
  firstPipe.Destroy();
  CopyOp op2;
  op2.Init(y, z, &secondPipe);
  op2.Process();
}

extern "C" __global__ __aicore__ void sort_with_copy(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe firstPipe;
  TPipe secondPipe; // want "EXT003 .*second TPipe `secondPipe` created while `firstPipe`"
  RUN_OVERLAPPED(SortOp, CopyOp);
}

// An operator class with a TPipe member of its own, handed the kernel's
// pipe: it works with the pipe it is handed (a copy, or through the
// pointer), and its own member hands out nothing.
class ScaleOp {
public:
  __aicore__ inline void Init(GM_ADDR x, TPipe *in) {
    in->InitBuffer(buf, 4096);
  }
  __aicore__ inline void Process() {}

private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
};

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x) {
  TPipe pipe;
  ScaleOp op;
  op.Init(x, &pipe);
  op.Process();
}

extern "C" __global__ __aicore__ void scale_kernel_own(GM_ADDR x) {
  TPipe pipe;
  pipe.InitBuffer(scratch, 1024);
  ScaleOp op; // want "EXT003 .*`op` \\(a `ScaleOp` holding a TPipe\\) created while `pipe`"
  op.Process();
}

// Built from two variables: `ScaleOp op(rows, cols);` reads like a
// function declaration, but in a body it constructs op.
extern "C" __global__ __aicore__ void scale_kernel_args(GM_ADDR x, int32_t rows) {
  TPipe pipe;
  pipe.InitBuffer(scratch, 1024);
  int32_t cols = rows * 2;
  ScaleOp op(rows, cols); // want "EXT003 .*`op` \\(a `ScaleOp` holding a TPipe\\) created while `pipe`"
  op.Process();
}

// One operator or the other, by the build's data type: no compile sees
// both.
extern "C" __global__ __aicore__ void by_dtype(GM_ADDR x) {
#if defined(COMPLEX_INPUT)
  ScaleOp op;
#else
  ScaleOp op;
#endif
  op.Process();
}

// The same, but its own member hands out a scratch buffer too: two pipes
// at once.
class NormOp {
public:
  __aicore__ inline void Init(GM_ADDR x, TPipe *in) {
    pipe_ = in;
    pipe_->InitBuffer(buf, 4096);
    scratch.InitBuffer(tmp, 256);
  }
  __aicore__ inline void Process() {}

private:
  TPipe *pipe_ = nullptr;
  TPipe scratch;
  TBuf<TPosition::VECCALC> buf, tmp;
};

extern "C" __global__ __aicore__ void norm_kernel(GM_ADDR x) {
  TPipe pipe;
  NormOp op; // want "EXT003 .*second TPipe `op` \\(a `NormOp` holding a TPipe\\) created while `pipe`"
  op.Init(x, &pipe);
  op.Process();
}

// One name, two objects: the branch's own `op` is not the one handed the
// pipe in the other branch.
extern "C" __global__ __aicore__ void scale_by_key(GM_ADDR x, int32_t key) {
  TPipe pipe;
  if (key == 1) {
    ScaleOp op; // want "EXT003 .*`op` \\(a `ScaleOp` holding a TPipe\\) created while `pipe`"
    op.Process();
  } else {
    ScaleOp op;
    op.Init(x, &pipe);
    op.Process();
  }
}

// Operators built on a base class that holds the pipe: one base
// default-builds its own while the kernel's is live; the other copies
// the pipe the kernel hands its constructor (`: pipe_(pipe)`), so the
// object builds no pipe of its own.
class OwnPipeBase {
protected:
  TPipe pipe_;
};

class PoolOp : public OwnPipeBase {
public:
  __aicore__ inline void Init(GM_ADDR x) { pipe_.InitBuffer(buf, 2048); }

private:
  TBuf<TPosition::VECCALC> buf;
};

template <typename T>
class SharedPipeBase {
public:
  __aicore__ inline SharedPipeBase(TPipe &pipe) : pipe_(pipe) {}

protected:
  TPipe pipe_;
};

template <typename T>
class GatherOp : public SharedPipeBase<T> {
public:
  __aicore__ inline GatherOp(TPipe &pipe) : SharedPipeBase<T>(pipe) {}
  __aicore__ inline void Init(GM_ADDR x) { this->pipe_.InitBuffer(buf, 2048); }

private:
  TBuf<TPosition::VECCALC> buf;
};

extern "C" __global__ __aicore__ void pool_by_key(GM_ADDR x, int32_t key) {
  TPipe pipe;
  pipe.InitBuffer(scratch, 1024);
  if (key == 1) {
    PoolOp op; // want "EXT003 .*`op` \\(a `PoolOp` holding a TPipe\\) created while `pipe`"
    op.Init(x);
  } else {
    GatherOp<half> op(pipe);
    op.Init(x);
  }
}

// A kernel object that holds two pipes at once: its base's, and the one
// of a parameter loader it keeps as a member. A loader handed the base's
// pipe builds none of its own.
template <typename T>
class ParamLoader {
public:
  __aicore__ inline void Load(GM_ADDR gamma) { ubPipe_.InitBuffer(buf_, 1024); }

private:
  TPipe ubPipe_;
  TBuf<TPosition::VECCALC> buf_;
};

class SharedLoader {
public:
  __aicore__ inline void Load(TPipe *pipe) { pipe->InitBuffer(buf_, 1024); }

private:
  TBuf<TPosition::VECCALC> buf_;
};

class AffineOp : public OwnPipeBase {
public:
  __aicore__ inline void Init(GM_ADDR x) {
    pipe_.InitBuffer(buf, 2048);
    params_.Load(x);
  }

private:
  TBuf<TPosition::VECCALC> buf;
  ParamLoader<half> params_; // want "EXT003 .*`op` \\(a `AffineOp`\\) holds two TPipes at once: `pipe_` \\(declared in `OwnPipeBase`\\) and `params_.ubPipe_` \\(declared in `ParamLoader`\\)"
};

class AffineSharedOp : public OwnPipeBase {
public:
  __aicore__ inline void Init(GM_ADDR x) {
    pipe_.InitBuffer(buf, 2048);
    params_.Load(&pipe_);
  }

private:
  TBuf<TPosition::VECCALC> buf;
  SharedLoader params_;
};

extern "C" __global__ __aicore__ void channel_affine(GM_ADDR x, int32_t key) {
  if (key == 1) {
    AffineOp op;
    op.Init(x);
  } else {
    AffineSharedOp op;
    op.Init(x);
  }
}
