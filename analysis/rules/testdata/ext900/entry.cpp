// A mixed extern whose suppressions have partly outlived their findings.
#include "kernel_operator.h"

__aicore__ inline void cube_phase() {
  AscendC::Mmad(c, a, b, params);
}

__aicore__ inline void vec_phase() {
  AscendC::PipeBarrier<PIPE_V>();
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::SyncAll(); // NOLINT(EXT004): reviewed, the cube never reaches this barrier
  AscendC::SyncAll(); // NOLINT(syncall-aiv-only, bugprone-branch-clone)
  AscendC::SyncAll<false>(); // NOLINT(EXT004) want "EXT900 unused-suppression: unused suppression `.*`: `EXT004` reported nothing here"
  AscendC::SyncAll<false>(); // NOLINT(syncall-aiv-only) want "`syncall-aiv-only` reported nothing"
  AscendC::SyncAll<false>(); // NOLINT(EXT00*) want "`EXT00.` reported nothing"
  AscendC::SyncAll(); // NOLINT(EXT004, EXT04) want "unknown rule code `EXT04`"
  AscendC::SyncAll<false>(); // NOLINT(EXT004, EXT999) want "unknown rule code `EXT999`; `EXT004` reported nothing here"
  AscendC::SyncAll<false>(); // NOLINT(bugprone-branch-clone)
  AscendC::SyncAll<false>(); // NOLINT
  // NOLINTNEXTLINE(EXT004)
  AscendC::SyncAll();
  // NOLINTNEXTLINE(EXT004) want "unused suppression `N.*NEXTLINE.EXT004.`"
  AscendC::SyncAll<false>();
  // NOLINTBEGIN(EXT004)
  AscendC::SyncAll();
  AscendC::SyncAll();
  // NOLINTEND(EXT004)
  // NOLINTBEGIN(EXT004) want "unused suppression `N.*BEGIN.EXT004.`"
  AscendC::SyncAll<false>();
  // NOLINTEND(EXT004)
  AscendC::SyncAll<false>(); // NOLINT(EXT004, EXT900): an unused suppression can itself be silenced
}
