// A ping-pong buffer id kept in GM for the next launch: read at Init,
// flipped by core 0 after the work. With the kernel-end write-back off,
// the author's write-back needs its dsb before the kernel ends.
#include "kernel_operator.h"

using namespace AscendC;

class BufferFlip {
public:
  __aicore__ inline void Init(GM_ADDR state) {
    bufferIdGm_.SetGlobalBuffer((__gm__ uint32_t *)state);
    bufferId_ = bufferIdGm_(0);
  }
  __aicore__ inline void Process() {
    if (GetBlockIdx() == 0) {
      bufferIdGm_(0) = bufferId_ ^ 1;
      DataCacheCleanAndInvalid<uint32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(bufferIdGm_[0]); // want "warning: EXT009 .*`bufferIdGm_\\(0\\) = bufferId_ \\^ 1`.*the word carries state to the next launch \\(taken in by `bufferIdGm_\\(0\\)` \\(line 12\\)\\), and this build turns the compiler's kernel-end write-back off"
    }
    SyncAll();
  }

private:
  GlobalTensor<uint32_t> bufferIdGm_;
  uint32_t bufferId_;
};

extern "C" __global__ __aicore__ void buffer_flip(GM_ADDR state) {
  BufferFlip op;
  op.Init(state);
  op.Process();
}
