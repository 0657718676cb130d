// A rank-barrier helper whose callers the analysis cannot see: the phases
// that call it are behind an #include that names no file of the tree.
#include "kernel_operator.h"
#include "team_phases.h" // not in the tree: RunTeamPhases calls AdvanceRankEpoch

// Every core advances the epoch alike; whether its callers leave the word
// to the kernel's end or tell another core to read it after the call is
// theirs to say, and none of them is in the files found: the finding says
// less.
__aicore__ inline void AdvanceRankEpoch(__gm__ int32_t *window, uint32_t index) {
  __gm__ int32_t *epoch = window + index;
  const int32_t next = *epoch + 1;
  pipe_barrier(PIPE_ALL);
  *epoch = next; // want "info: EXT009 .*`\\*epoch = next`.*stays in this core's data cache.*; unless the callers of `AdvanceRankEpoch` write it back or tell no other core to read it: none is in the files the analysis found, and `#include \"team_phases.h\"` \\(line 4\\) did not resolve"
}

extern "C" __global__ __aicore__ void team_kernel(__gm__ int32_t *window) {
  RunTeamPhases(window);
}

// A runtime task entry: the runtime calls it from outside the unit, so no
// include hides its caller, and its store stays a warning.
extern "C" __aicore__ void task_entry(__gm__ int64_t *args) {
  __gm__ int32_t *out = reinterpret_cast<__gm__ int32_t *>(args[0]);
  out[0] = 1; // want "warning: EXT009 .*`out\\[0\\] = 1`.*stays in this core's data cache"
}
