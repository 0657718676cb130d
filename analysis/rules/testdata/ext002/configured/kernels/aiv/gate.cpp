#include "channel.h"

// Configured for both cores: the cube builds this pipe too.
extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::TPipe pipe; // want "error: EXT002 .*`pipe` is created where the cube core"
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  chan::VecTake();
  chan::VecPost();
  (void)args;
}
