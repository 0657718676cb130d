#include "decode_body.hpp"

extern "C" __global__ __aicore__ void decode(__gm__ int64_t *args) {
  decode_body<false>(args);
}
