// A body shared by a native kernel and an extern. Only the native launch
// passes a real FFTS base; the extern passes nullptr, and its includer
// compiles the native entry out.
#pragma once

class AttnCube {
 public:
  __aicore__ inline void Init(__gm__ uint8_t *sync, __gm__ uint8_t *q, uint32_t blocks) {
    if (sync != nullptr) {
      set_ffts_base_addr((uint64_t)sync);  // every Init of the extern gets the body's nullptr
    }
    q_ = q;
    blocks_ = blocks;
  }

 private:
  __gm__ uint8_t *q_;
  uint32_t blocks_;
};

static __aicore__ inline void attn_body(__gm__ uint8_t *sync, __gm__ uint8_t *q, uint32_t blocks) {
  if (sync != nullptr) {
    set_ffts_base_addr((unsigned long)sync);
  }
  if (!sync) {
    pipe_barrier(PIPE_ALL);
  } else {
    AscendC::SetSyncBaseAddr((uint64_t)sync);
  }
  AttnCube cube;
  cube.Init(sync, q, blocks);
}

#ifndef ATTN_NO_GLOBAL_ENTRY
extern "C" __global__ __aicore__ void attn_native(__gm__ uint8_t *sync, __gm__ uint8_t *q) {
  attn_body(sync, q, get_block_num());
}
#endif
