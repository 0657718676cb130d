// Handshakes through a class template whose parameter is the flag id:
// each call's instance (written at the call, an alias of one instance, or
// the type an object is declared with) gives the id.
#include "kernel_operator.h"

template <uint16_t kId, pipe_t kPipe = PIPE_MTE3>
struct Channel {
  __aicore__ static inline void Set() { AscendC::CrossCoreSetFlag<0, kPipe>(kId); }
  __aicore__ static inline void Wait() { AscendC::CrossCoreWaitFlag(kId); }
};

constexpr uint16_t kFlagBase = 8;
namespace cv {
using Ready = Channel<kFlagBase + 4>;
}  // namespace cv

class Stage {
 public:
  __aicore__ inline void Run() {
    done_.Set();
    done_.Wait();
  }

 private:
  Channel<3> done_;
};

extern "C" __global__ __aicore__ void channel_rows(GM_ADDR x, GM_ADDR y) {
  cv::Ready::Set(); // want "EXT005 ffts-flag-reserved: `Set` passes FFTS flag 12 to `CrossCoreSetFlag`, which the hardware `SyncAll` of this kernel uses"
  Ready::Wait(); // want "`Wait` passes FFTS flag 12 to `CrossCoreWaitFlag`"
  Channel<13, PIPE_MTE2>::Set(); // want "`Set` passes FFTS flag 13"
  Channel<13, PIPE_MTE2>::Wait(); // want "`Wait` passes FFTS flag 13"
  Stage stage;
  stage.Run();
  AscendC::SyncAll<false>();
}
