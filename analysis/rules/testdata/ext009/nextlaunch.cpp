// Standalone kernels (default build: the compiler writes the data cache
// back as the kernel ends) keeping a counter in GM from launch to launch:
// each launch takes the word in at Init and core 0 stores the next value
// after its work. Nothing in the launch reads the word after the store,
// so the kernel-end write-back lands it before the next launch reads it;
// a core that reads it back after the barrier needs the dsb.
#include "kernel_operator.h"

using namespace AscendC;

class MagicCounter {
public:
  __aicore__ inline void Init(GM_ADDR magic, GM_ADDR out) {
    magicGm_.SetGlobalBuffer((__gm__ uint64_t *)magic);
    outGm_.SetGlobalBuffer((__gm__ uint64_t *)out);
    magic_ = magicGm_.GetValue(0);
  }
  __aicore__ inline void Process() {
    outGm_.SetValue(GetBlockIdx() * 8, magic_);
    DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(outGm_[GetBlockIdx() * 8]);
    dsb(DSB_DDR);
    if (GetBlockIdx() == 0) {
      magicGm_.SetValue(0, magic_ + 1);
      DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(magicGm_);
    }
    SyncAll();
  }

private:
  GlobalTensor<uint64_t> magicGm_;
  GlobalTensor<uint64_t> outGm_;
  uint64_t magic_;
};

extern "C" __global__ __aicore__ void magic_counter(GM_ADDR magic, GM_ADDR out) {
  MagicCounter op;
  op.Init(magic, out);
  op.Process();
}

// The same counter, but every core reads it back after the barrier: the
// barrier hands it to them before the write-back has landed.
class MagicShared {
public:
  __aicore__ inline void Init(GM_ADDR magic, GM_ADDR out) {
    sharedGm_.SetGlobalBuffer((__gm__ uint64_t *)magic);
    outGm_.SetGlobalBuffer((__gm__ uint64_t *)out);
    magic_ = sharedGm_.GetValue(0);
  }
  __aicore__ inline void Process() {
    if (GetBlockIdx() == 0) {
      sharedGm_.SetValue(0, magic_ + 1);
      DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(sharedGm_); // want "warning: EXT009 .*`sharedGm_.SetValue\\(0, magic_ \\+ 1\\)`.*no `dsb\\(DSB_DDR\\)` waits for it to reach GM before the barrier `SyncAll\\(\\)`"
    }
    SyncAll();
    uint64_t next = sharedGm_.GetValue(0);
    outGm_.SetValue(GetBlockIdx() * 8, next);
  }

private:
  GlobalTensor<uint64_t> sharedGm_;
  GlobalTensor<uint64_t> outGm_;
  uint64_t magic_;
};

extern "C" __global__ __aicore__ void magic_shared(GM_ADDR magic, GM_ADDR out) {
  MagicShared op;
  op.Init(magic, out);
  op.Process();
}

// A soft-sync flag raised through a helper's parameter: the counter the
// helper reads back and increments is another core's signal in this
// launch, not state for the next one (the note stays).
__aicore__ inline void RaiseFlag(__gm__ uint8_t *flagAddr) {
  GlobalTensor<uint8_t> flag;
  flag.SetGlobalBuffer(flagAddr);
  uint8_t value = flag.GetValue(0);
  flag.SetValue(0, value + 1);
  DataCacheCleanAndInvalid<uint8_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flag); // want "info: EXT009 .*`flag.SetValue\\(0, value \\+ 1\\)`.*robustness note"
}

extern "C" __global__ __aicore__ void raise_flag(GM_ADDR flags) {
  RaiseFlag((__gm__ uint8_t *)flags);
}
