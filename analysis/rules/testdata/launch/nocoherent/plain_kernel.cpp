__global__ __aicore__ void plain_end(__gm__ int32_t *out, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    out[i] = i;
  }
}

// The store before the barrier is read by other cores before the end.
__global__ __aicore__ void plain_shared(__gm__ int32_t *out) {
  out[0] = 1; // want "EXT009 gm-scalar-write"
  AscendC::SyncAll<false>();
}
