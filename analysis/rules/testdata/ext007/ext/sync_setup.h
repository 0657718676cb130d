// Included by the extern: its calls are findings too.
#pragma once

__aicore__ inline void setup_ffts(uint64_t addr) {
  set_ffts_base_addr(addr); // want "set_ffts_base_addr"
}

// A declaration only: nothing runs.
void set_ffts_base_addr(uint64_t addr);
