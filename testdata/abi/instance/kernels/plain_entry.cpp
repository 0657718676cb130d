#include "body.hpp"

extern "C" __global__ __aicore__ void attn(__gm__ int64_t *args) {
  run_body<false>(args);
}
