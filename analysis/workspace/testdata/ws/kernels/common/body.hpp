#pragma once
#include "tiles.hpp"
#include "kernel_operator.h"
template <bool WithRope>
__aicore__ inline void run_body(__gm__ int64_t *args) {
  AscendC::PipeBarrier<PIPE_V>();
}
