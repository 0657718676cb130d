// Phase objects of the fixture extern.
#pragma once
#include "kernel_operator.h"

namespace Arch {
template <class ArchTag>
struct Resource {
  AscendC::TPipe pipe;
  __aicore__ inline Resource() { pipe.Destroy(); }
};
} // namespace Arch

class AttnKernel {
public:
  __aicore__ inline void Init(GM_ADDR q) { pipe.InitBuffer(qBuf, 16384); }
  __aicore__ inline void Process() {}

private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> qBuf;
};
