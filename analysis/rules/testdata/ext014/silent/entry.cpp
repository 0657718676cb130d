// Near-misses: nothing here shares a counter between two modes.
constexpr uint16_t kQk = 1;
constexpr uint16_t kBack = 1;
constexpr uint16_t kAll = 2;

__aicore__ inline void Helper(uint16_t id) {
  // Compiled for both cores and not a wrapper call site: direction unknown.
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(id);
}

extern "C" __global__ __aicore__ void mixed(__gm__ int64_t *args) {
  uint16_t runtimeId = static_cast<uint16_t>(args[3]);
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kQk);       // counts on the vectors
    AscendC::CrossCoreWaitFlag(kBack);
    AscendC::CrossCoreSetFlag<0, PIPE_FIX>(kAll);      // counts on the cubes
    AscendC::CrossCoreWaitFlag(kAll);
    AscendC::CrossCoreSetFlag<0, PIPE_FIX>(runtimeId); // not constant
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kQk);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kBack);    // counts on the cube
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kBack);    // same handshake twice
    AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(kAll);     // vectors; kAll's mode 0 counts on the cubes
    AscendC::CrossCoreWaitFlag(kAll);
  }
  // Both cores compile this one in a mixed extern: not judged.
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(kQk);
  Helper(kQk);
  if constexpr (false) {
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(kQk);
  }
}
