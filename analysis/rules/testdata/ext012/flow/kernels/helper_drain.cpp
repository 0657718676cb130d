// The drain is in a helper of an included header, split by
// core with #if/#elif/#else: every compile drains.
#include "exit_drain.h"

template <int TILE>
static __aicore__ void tile_body(__gm__ float *out) {
  TSTORE(outGlobal, outTile);
  exit_drain();
}

extern "C" __aicore__ void helper_drain(__gm__ int64_t *args) {
  switch (args[1]) {
  case 16:
    tile_body<16>(reinterpret_cast<__gm__ float *>(args[0]));
    break;
  default:
    tile_body<32>(reinterpret_cast<__gm__ float *>(args[0]));
    break;
  }
}

// The twin: the helper drains only what the vector core stored (the
// vector work makes this a mixed extern, both cores followed).
extern "C" __aicore__ void helper_half_drain(__gm__ int64_t *args) {
  pipe_barrier(PIPE_V);
  TSTORE(outGlobal, outTile); // want "EXT012.*`TSTORE\\(outGlobal, outTile\\)` leaves its store in flight when the extern returns on the cube core"
  vec_only_drain();
}
