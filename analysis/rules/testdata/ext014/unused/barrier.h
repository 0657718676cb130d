#pragma once
// A kernel library's barrier: on the cube cores a mode-0 barrier of all
// cube cores on flag 11. Only the kernels that call it use that flag.
constexpr uint64_t kAllCube = 11;

template <bool vectorOnly = true>
__aicore__ inline void AllCoreBarrier() {
  if constexpr (vectorOnly) {
    ffts_cross_core_sync(PIPE_MTE3, 1 | (0 << 4) | (12 << 8));
    wait_flag_dev(12);
    return;
  }
#ifdef __DAV_C220_CUBE__
  ffts_cross_core_sync(PIPE_FIX, 1 | (0 << 4) | (kAllCube << 8)); // want "flag 11 for a mode-0 barrier of all cube cores, but the mode-2 vector→cube handshake at handoff_barrier.cpp"
  wait_flag_dev(kAllCube);
#endif
}
