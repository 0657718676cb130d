// A kernel whose engine forwards each step to a policy struct's static
// `call` through a local alias (`using Step = typename Ops::Load;`): the
// call runs the struct the alias names, not every struct with a `call`.
#include "kernel_operator.h"

namespace steps {
__aicore__ inline void VectorBarrier() {
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(3);
  AscendC::CrossCoreWaitFlag(3);
}

template <class Eng>
struct Load {
  static __aicore__ inline void call(Eng *eng, GM_ADDR src) { eng->src = src; }
};

template <class Eng>
struct Fold {
  static __aicore__ inline void call(Eng *eng, uint32_t levels) {
    for (uint32_t l = 0; l < levels; ++l) {
      VectorBarrier();
    }
    (void)eng;
  }
};
} // namespace steps

template <class Eng>
struct Ops {
  using Load = steps::Load<Eng>;
  template <bool sync>
  using Fold = steps::Fold<Eng>;
};

struct Engine {
  using Ext = Ops<Engine>;
  GM_ADDR src = nullptr;
  __aicore__ inline void SetSource(GM_ADDR x) {
    using Step = typename Ext::Load;
    Step::call(this, x);
  }
  __aicore__ inline void FoldAll(uint32_t levels) {
    using Step = typename Ext::template Fold<true>;
    Step::call(this, levels);
  }
};

// Only loads after the return: no barrier is skipped.
extern "C" __global__ __aicore__ void load_tiles(GM_ADDR x, uint32_t tiles) {
  Engine eng;
  for (uint32_t t = 0; t < 4; ++t) {
    uint32_t id = AscendC::GetBlockIdx() + t * AscendC::GetBlockNum();
    if (id >= tiles) {
      return;
    }
    eng.SetSource(x + id * 256);
  }
}

// The fold after the return holds the barrier.
extern "C" __global__ __aicore__ void fold_tiles(GM_ADDR x, uint32_t tiles) {
  Engine eng;
  if (AscendC::GetBlockIdx() >= tiles) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(AscendC::GetBlockIdx\\(\\) >= tiles\\)` can leave before `eng.FoldAll\\(4\\)`"
  }
  eng.SetSource(x);
  eng.FoldAll(4);
}
