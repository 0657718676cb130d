// Cube attention in the shape of a vendored kernel: Arch::Resource creates
// and destroys its TPipe, the softmax side owns one on the vector core.
#pragma once
#include "pa_args.h"

namespace Arch {
template <class ArchTag>
struct Resource {
  AscendC::TPipe pipe;
  __aicore__ inline Resource() { pipe.Destroy(); }
};
} // namespace Arch

struct AtlasA2 {};

class SoftmaxVec {
public:
  __aicore__ inline void Init() { pipe.InitBuffer(buf, 64 * 1024); }
  __aicore__ inline void Process() { AscendC::PipeBarrier<PIPE_V>(); }

private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
};

__aicore__ inline void attention(__gm__ int64_t *args, int32_t blockIdx) {
  __gm__ int32_t *blockTable = arg_data<int32_t>(args, kBlockTable);
  int64_t rows = arg_rows(args, kBlockTable);
  refresh_lines(blockTable, 64 * sizeof(int32_t));
  int32_t firstBlock = blockTable[blockIdx * 64];
#if defined(__DAV_C220_CUBE__)
  Arch::Resource<AtlasA2> resource;
  // The L0 buffer is handed back from MMAD to MTE1 on event 0.
  AscendC::Mmad(cL0, aL0, bL0, mmadParams);
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
  AscendC::PipeBarrier<PIPE_M>();
#elif defined(__DAV_C220_VEC__)
  SoftmaxVec softmax;
  softmax.Init();
  softmax.Process();
#endif
  (void)rows;
  (void)firstBlock;
}
