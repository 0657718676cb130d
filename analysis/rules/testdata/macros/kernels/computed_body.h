// Reached only through `#include BODY_HEADER`: part of the extern's unit.
#pragma once
#include "kernel_operator.h"

__aicore__ inline void computed_body(__gm__ uint8_t *out) {
  uint32_t b = get_block_idx(); // want "EXT008.*`get_block_idx\\(\\)` reads the persistent launch grid"
  (void)out; (void)b;
}
