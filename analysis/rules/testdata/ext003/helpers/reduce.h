// Row helpers: one builds a scratch pipe of its own, one ends the pipe it
// is handed before building its own.
#pragma once
#include "kernel_operator.h"

__aicore__ inline float RowScale(const AscendC::LocalTensor<float> &row) {
  AscendC::TPipe scratch; // want "EXT003 tpipe-double: second TPipe `scratch` created in `RowScale` while `pipe` \\(kernel.cpp:20\\) is still live: `norm_rows` calls `op.Run\\(\\)` \\(line 24\\) with it live, and that call reaches this one"
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  scratch.InitBuffer(tmp, 4096);
  AscendC::LocalTensor<float> work = tmp.Get<float>();
  AscendC::ReduceSum(work, row, work, 2048);
  return work.GetValue(0);
}

__aicore__ inline void ScaleAfter(AscendC::TPipe &handed) {
  handed.Destroy();
  AscendC::TPipe own;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  own.InitBuffer(tmp, 4096);
}

// Helpers called where the caller's pipe has ended or is idle.
__aicore__ inline float RowMax(const AscendC::LocalTensor<float> &row) {
  AscendC::TPipe scratch;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  scratch.InitBuffer(tmp, 4096);
  AscendC::LocalTensor<float> work = tmp.Get<float>();
  AscendC::ReduceMax(work, row, work, 2048);
  return work.GetValue(0);
}

__aicore__ inline void FillRows(GM_ADDR y) {
  AscendC::TPipe own;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  own.InitBuffer(tmp, 4096);
  (void)y;
}

__aicore__ inline void ClearRows(GM_ADDR y) {
  AscendC::TPipe own; // want "second TPipe `own` created in `ClearRows` while `pipe` \\(kernel.cpp:[0-9]+\\) is still live: `clear_then_queue` calls `ClearRows\\(y\\)`"
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
  own.InitBuffer(tmp, 4096);
  (void)y;
}
