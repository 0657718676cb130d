// The barrier helper: the SyncAll that reserves 11-14 lives here.
#pragma once

__aicore__ inline void global_barrier() {
  AscendC::SyncAll();
}
