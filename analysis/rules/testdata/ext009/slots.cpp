// A table of signal slots: the slot getter returns nullptr for an index
// out of range, the slots are written back through a cast to the
// intrinsic's `void *`, and one path publishes locally and returns before
// the other path's remote notify.
#include "gm_util.h"

class SlotTable {
public:
  __aicore__ inline __gm__ int32_t *Base() const { return reinterpret_cast<__gm__ int32_t *>(base_); }

  __aicore__ inline volatile __gm__ int32_t *Slot(uint32_t i) const {
    if (i >= 8) {
      return nullptr;
    }
    return Base() + 256 + i * 16;
  }

  // The two-argument dcci cleans the line, whatever the pointer's type.
  __aicore__ inline void Publish(uint32_t i, int32_t v) const {
    volatile __gm__ int32_t *slot = Slot(i);
    if (slot == nullptr) {
      return;
    }
    *slot = v;
    dcci((__gm__ void *)slot, SINGLE_CACHE_LINE);
    dsb(DSB_DDR);
  }

  __aicore__ inline void PublishAll(uint32_t n, int32_t v) const {
    for (uint32_t i = 0; i < n; ++i) {
      *Slot(i) = v;
    }
    for (uint32_t i = 0; i < n; ++i) {
      dcci((__gm__ void *)Slot(i), SINGLE_CACHE_LINE);
    }
    dsb(DSB_DDR);
  }

  // The local path returns before the notify: nothing it reaches tells
  // another core to read, so its missing dsb is a note.
  __aicore__ inline void Ready(int32_t owner, int32_t me, int32_t v) const {
    if (owner == me) {
      volatile __gm__ int32_t *own = Slot(0);
      *own = v;
      dcci((__gm__ void *)own, SINGLE_CACHE_LINE); // want "info: EXT009 .*`\\*own = v`.*robustness note"
      return;
    }
    pto::comm::Signal sig(Base() + owner * 16);
    pto::comm::TNOTIFY(sig, v, pto::comm::NotifyOp::Set);
  }

  // No write-back at all is still a finding.
  __aicore__ inline void Forget(uint32_t i, int32_t v) const {
    volatile __gm__ int32_t *slot = Slot(i);
    if (slot == nullptr) {
      return;
    }
    *slot = v; // want "warning: EXT009 .*`\\*slot = v`.*stays in this core's data cache"
  }

  GM_ADDR base_;
};

extern "C" __global__ __aicore__ void publish_slots(__gm__ int64_t *args) {
  SlotTable t;
  t.base_ = reinterpret_cast<GM_ADDR>(args[0]);
  int32_t me = static_cast<int32_t>(get_block_idx(args));
  t.Publish(static_cast<uint32_t>(me), 1);
  t.PublishAll(4, 2);
  t.Ready(me % 2, me, 3);
  t.Forget(static_cast<uint32_t>(me), 4);
}
