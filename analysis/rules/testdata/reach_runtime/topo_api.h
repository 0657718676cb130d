#pragma once
#include "kernel_operator.h"

struct Span {
  uint32_t first;
  uint32_t count;
};

// Called by the kernel: judged as its code.
__aicore__ inline Span RowSpan(int64_t rows) {
  Span s;
  uint32_t per = static_cast<uint32_t>(rows) / AscendC::GetBlockNum(); // want "GetBlockNum... reads the persistent launch grid"
  s.first = per * AscendC::GetBlockIdx(); // want "GetBlockIdx... reads the persistent launch grid"
  s.count = per;
  return s;
}

// For standalone launches of the same library; no kernel here calls it.
__aicore__ inline Span LaunchSpan(uint32_t rows) {
  Span s;
  s.count = rows / AscendC::GetBlockNum();
  s.first = s.count * AscendC::GetBlockIdx();
  return s;
}
