#include <cstdint>

#define NO_GLOBAL_ENTRY
#include "body.cce"
#undef NO_GLOBAL_ENTRY
#include "body_entry.cce"

extern "C" __global__ __aicore__ void wrapped(__gm__ int64_t *args) {
  body(reinterpret_cast<__gm__ uint8_t *>(args[0]), get_block_idx(args), get_block_num(args));
  body_global_twin(reinterpret_cast<__gm__ uint8_t *>(args[0]));
#ifdef __CPU_SIM
  // The simulator build reads its own debug slot: not device code.
  int64_t debug_slot = args[40];
  uint32_t sim_block = get_block_idx();
  (void)debug_slot; (void)sim_block;
#endif
  int64_t past = args[4]; // want "EXT102.*args\\[4\\] is past the end for extern `wrapped`"
  (void)past;
}
