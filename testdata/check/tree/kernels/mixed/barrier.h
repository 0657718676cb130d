// Barrier helper shared by the phases of the mixed extern.
#pragma once
#include "kernel_operator.h"

__aicore__ inline void phase_barrier() {
  AscendC::SyncAll();
}
