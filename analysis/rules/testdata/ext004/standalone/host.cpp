// The host side: its launches make every kernel of this folder standalone
// (each owns its launch and sets its own FFTS base).
#include "acl/acl.h"

extern "C" void mm_act(uint8_t *a, uint8_t *ws, uint8_t *ffts);
extern "C" void mm_norm(uint8_t *a, uint8_t *ws, uint8_t *ffts);
extern "C" void mm_split(uint8_t *a, uint8_t *ws, uint8_t *ffts);
extern "C" void mm_scale(uint8_t *a, uint8_t *ws, uint8_t *ffts);
extern "C" void dequant_mm(uint8_t *a, uint8_t *ws, uint8_t *ffts);
extern "C" void row_stats(uint8_t *a, uint8_t *ws, uint8_t *ffts);

void run_all(uint8_t *a, uint8_t *ws, uint8_t *ffts, void *stream) {
  mm_act<<<24, nullptr, stream>>>(a, ws, ffts);
  mm_norm<<<24, nullptr, stream>>>(a, ws, ffts);
  mm_split<<<24, nullptr, stream>>>(a, ws, ffts);
  mm_scale<<<24, nullptr, stream>>>(a, ws, ffts);
  dequant_mm<<<24, nullptr, stream>>>(a, ws, ffts);
  row_stats<<<24, nullptr, stream>>>(a, ws, ffts);
}
