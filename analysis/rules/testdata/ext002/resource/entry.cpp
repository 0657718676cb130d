// A mixed extern whose cube takes its L1/L0 buffers from a TPipe it
// releases at once (catlass's Arch::Resource shape): the pipe's only uses
// before its Destroy() hand out cube buffers, and the cube's own M_MTE1
// events start after the Destroy() has waited the preset ones. The two
// variants below keep the preset events pending while the cube uses them,
// or set up a vector buffer on the cube.
#include "kernel_operator.h"

struct CubeTiles {
  AscendC::LocalTensor<half> l1;
  AscendC::LocalTensor<half> l0a;
  __aicore__ inline CubeTiles() {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A1> a1;
    AscendC::TBuf<AscendC::TPosition::A2> a2;
    pipe.InitBuffer(a1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(a2, 2 * 64 * 64 * sizeof(half));
    l1 = a1.Get<half>();
    l0a = a2.Get<half>();
    pipe.Destroy();
  }
};

struct EagerTiles {
  AscendC::LocalTensor<half> l1;
  __aicore__ inline EagerTiles() {
    AscendC::TPipe pipe; // want "error: EXT002 .*`pipe` is created where the cube core.*not the create-then-destroy idiom"
    AscendC::TBuf<AscendC::TPosition::A1> a1;
    pipe.InitBuffer(a1, 64 * 64 * sizeof(half));
    AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    l1 = a1.Get<half>();
    pipe.Destroy();
  }
};

struct SymmetricTiles {
  AscendC::LocalTensor<float> ub;
  __aicore__ inline SymmetricTiles() {
    AscendC::TPipe pipe; // want "error: EXT002 .*`pipe` is created where the cube core.*not the create-then-destroy idiom"
    AscendC::TBuf<AscendC::TPosition::VECCALC> calc;
    pipe.InitBuffer(calc, 1024);
    ub = calc.Get<float>();
    pipe.Destroy();
  }
};

extern "C" __global__ __aicore__ void tile_gemm(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    CubeTiles tiles;
    EagerTiles eager;
    AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    (void)tiles;
    (void)eager;
  }
  SymmetricTiles sym;
  (void)sym;
  (void)args;
}
