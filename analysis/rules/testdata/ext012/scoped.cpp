// A TPipe declared in a block drains as the block ends: its destructor
// waits on its events and runs a PIPE_ALL barrier.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scoped_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  if ASCEND_IS_AIV {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    AscendC::LocalTensor<half> t = ub.Get<half>();
    if (args[2] == 0) {
      AscendC::DataCopy(out, t, 64);
      return; // leaves the block: the pipe is destroyed on the way out
    }
    AscendC::DataCopy(out[64], t, 64);
  }
}

// The pipe's block closed before the store: nothing drains it.
extern "C" __global__ __aicore__ void scoped_before(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  AscendC::LocalTensor<half> t;
  if ASCEND_IS_AIV {
    {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 4096);
    }
    AscendC::DataCopy(out, t, 64); // want "leaves its store in flight when the extern returns"
  }
  (void)args;
}

// An object holding a TPipe, built from the args (`Ctx ctx(args);`, which
// parses like a function declaration): its pipe drains as the entry ends.
class StoreCtx {
public:
  __aicore__ inline explicit StoreCtx(__gm__ int64_t *args) : args_(args) {}
  __gm__ int64_t *args_;
  AscendC::TPipe pipe_;
};

extern "C" __global__ __aicore__ void ctx_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  AscendC::LocalTensor<half> t;
  StoreCtx ctx(args);
  if ASCEND_IS_AIV {
    AscendC::DataCopy(out, t, 64);
  }
}

// The same, built from a variable and a getter's value (`Ctx ctx(task,
// lane_of(args));` parses like a function declaration too).
class LaneCtx {
public:
  __aicore__ inline LaneCtx(int32_t task, int32_t lane) : task_(task), lane_(lane) {}
  int32_t task_, lane_;
  AscendC::TPipe pipe_;
};

extern "C" __global__ __aicore__ void lane_ctx_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  AscendC::LocalTensor<half> t;
  int32_t task = 3;
  LaneCtx ctx(task, get_sub_block_id(args));
  if ASCEND_IS_AIV {
    AscendC::DataCopy(out, t, 64);
  }
}

// And from template calls on the args (`Ctx ctx(Arg<float>(args, 0));`,
// read as a parameter of type `Arg<float>`).
template <typename T>
__aicore__ inline __gm__ T *ArgPtr(__gm__ int64_t *args, int32_t slot) {
  return reinterpret_cast<__gm__ T *>(args[slot]);
}

class PtrCtx {
public:
  __aicore__ inline PtrCtx(__gm__ float *x, __gm__ float *y) : x_(x), y_(y) {}
  __gm__ float *x_;
  __gm__ float *y_;
  AscendC::TPipe pipe_;
};

extern "C" __global__ __aicore__ void ptr_ctx_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  AscendC::LocalTensor<half> t;
  int32_t kX = 0, kY = 1;
  PtrCtx ctx(ArgPtr<float>(args, kX), ArgPtr<float>(args, kY));
  if ASCEND_IS_AIV {
    AscendC::DataCopy(out, t, 64);
  }
}

// A class template's object in a namespace, built from the args' own
// slots (`ns::Ctx<half> ctx(Ptr<half>(args[0]), n);`).
namespace ctxs {
template <typename T>
class SlotCtx {
public:
  __aicore__ inline SlotCtx(__gm__ T *x, int32_t n) : x_(x), n_(n) {}
  __gm__ T *x_;
  int32_t n_;
  AscendC::TPipe pipe_;
};
}  // namespace ctxs

template <typename T>
__aicore__ inline __gm__ T *SlotPtr(int64_t raw) {
  return reinterpret_cast<__gm__ T *>(raw);
}

extern "C" __global__ __aicore__ void slot_ctx_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<half> out;
  AscendC::LocalTensor<half> t;
  int32_t n = 4;
  ctxs::SlotCtx<half> ctx(SlotPtr<half>(args[0]), n);
  if ASCEND_IS_AIV {
    AscendC::DataCopy(out, t, 64);
  }
}
