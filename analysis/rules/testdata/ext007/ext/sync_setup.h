// Included by the extern: the calls of what it runs are findings too.
#pragma once

__aicore__ inline void setup_ffts(uint64_t addr) {
  set_ffts_base_addr(addr); // want "set_ffts_base_addr"
}

// A library helper no kernel of the unit calls: its callers, if any,
// are judged, not it.
__aicore__ inline void setup_ffts_unused(uint64_t addr) {
  set_ffts_base_addr(addr);
}

// A declaration only: nothing runs.
void set_ffts_base_addr(uint64_t addr);
