// A mixed extern: cube matmul and vector epilogue in one file.
#include "kernel_operator.h"

constexpr bool kVecOnly = true;
constexpr bool kWithRope = false;

__aicore__ inline void cube_phase() {
  AscendC::Mmad(c, a, b, params);
}

__aicore__ inline void vec_phase() {
  AscendC::PipeBarrier<PIPE_V>();
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::SyncAll(); // want "EXT004 syncall-aiv-only: .*vector-only barrier"
  AscendC::SyncAll<>(); // want "vector-only"
  AscendC::SyncAll<true>(); // want "`AscendC::SyncAll<true>\\(\\)` is the vector-only barrier"
  SyncAll(); // want "vector-only"
  AscendC::SyncAll<kVecOnly>(); // want "`AscendC::SyncAll<kVecOnly>\\(\\)` is the vector-only"
  AscendC::SyncAll< true >(); // want "`AscendC::SyncAll< true >\\(\\)`"
  AscendC::SyncAll<false>();
  AscendC::SyncAll(gmWorkspace, ubWorkspace, usedCores);
#ifdef __DAV_C220_VEC__
  AscendC::SyncAll();
#endif
#if defined(__DAV_C220_CUBE__)
  AscendC::SyncAll(); // want "vector-only"
#else
  AscendC::SyncAll();
#endif
#ifndef __DAV_C220_CUBE__
  AscendC::SyncAll();
#endif
#if defined(__DAV_C220_VEC__) && !defined(__CPU_SIM)
  AscendC::SyncAll();
#elif defined(__DAV_C220_CUBE__)
  AscendC::SyncAll(); // want "vector-only"
#endif
#if defined(__DAV_VEC__) || defined(__DAV_C220_VEC__)
  AscendC::SyncAll();
#endif
#ifdef __CPU_SIM
  AscendC::SyncAll();
#endif
  if ASCEND_IS_AIV {
    AscendC::SyncAll();
  }
  if ASCEND_IS_AIC {
    AscendC::SyncAll(); // want "vector-only"
  } else {
    AscendC::SyncAll();
  }
  if (g_coreType == AscendC::AIV) {
    AscendC::SyncAll();
  }
  if constexpr (g_coreType == AscendC::AIC) {
    AscendC::SyncAll(); // want "vector-only"
  }
  if (g_coreType != AscendC::AIC) {
    AscendC::SyncAll();
  }
  if constexpr (kWithRope) {
    AscendC::SyncAll();
  } else {
    AscendC::SyncAll(); // want "vector-only"
  }
  if constexpr (!kVecOnly) {
    AscendC::SyncAll();
  }
  if constexpr (kVecOnly) {
    AscendC::SyncAll(); // want "vector-only"
  } else if constexpr (kWithRope) {
    AscendC::SyncAll();
  } else {
    AscendC::SyncAll();
  }
  if constexpr (kRope) {
    AscendC::SyncAll(); // want "under `if constexpr \\(kRope\\)`, which extern-lsp cannot evaluate"
  }
  AscendC::SyncAll(); // NOLINT(EXT004)
  AscendC::SyncAll(); // NOLINT(syncall-aiv-only)
  AscendC::SyncAll(); // NOLINT
  // NOLINTNEXTLINE(EXT004)
  AscendC::SyncAll();
  AscendC::SyncAll(); // NOLINT(EXT005) want "vector-only"
}
