#pragma once

// A helper without the args pointer: flagged, but no fix (the value must be
// passed in).
__aicore__ inline void phase(uint32_t blk) {
  uint32_t lane = AscendC::GetSubBlockIdx(); // want "GetSubBlockIdx"
  uint32_t mine = tiling.get_block_idx(); // a member of some other object
}

// A helper that takes args under another name gets the fix with that name.
__aicore__ inline uint32_t lane_of(__gm__ int64_t *a) {
  return get_subblockid(); // want "get_subblockid"
}

// A library helper no kernel of the unit calls: not judged.
__aicore__ inline uint32_t lane_unused(__gm__ int64_t *a) {
  return get_subblockid();
}
