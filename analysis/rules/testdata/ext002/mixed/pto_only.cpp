// A mixed entry on pto-isa: its TPipe is pto's, not AscendC's.
#include "pto/pto-inst.hpp"
using namespace pto;

__aicore__ inline void mm() { AscendC::Mmad(c, a, b, params); AscendC::PipeBarrier<PIPE_V>(); }

extern "C" __global__ __aicore__ void pto_entry(__gm__ int64_t *args) {
  TPipe<0, Direction::DIR_C2V, 1024, 2> pipe;
  TPipe plain;
  mm();
}
