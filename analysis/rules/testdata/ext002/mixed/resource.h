// Vendored-style helpers: a resource that creates and destroys its TPipe in
// the constructor (catlass Arch::Resource), and a vector op owning a live one.
#pragma once
#include "kernel_operator.h"

namespace Arch {
template <class ArchTag>
struct Resource {
  AscendC::TPipe pipe;
  __aicore__ inline Resource() { pipe.Destroy(); }
};
} // namespace Arch

class RopeOp {
public:
  __aicore__ inline void Init(GM_ADDR x) { pipe_.InitBuffer(buf_, 4096); }
  __aicore__ inline void Process() {}

private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
};

using VecPipe = AscendC::TPipe;
typedef AscendC::TPipe PipeT;

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
