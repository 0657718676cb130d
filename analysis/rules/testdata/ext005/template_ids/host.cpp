// The host side: its launch makes stage_rows a standalone kernel.
#include "acl/acl.h"

extern "C" void stage_rows(uint8_t *x, uint8_t *y);

void run_stage(uint8_t *x, uint8_t *y, void *stream) {
  stage_rows<<<8, nullptr, stream>>>(x, y);
}
