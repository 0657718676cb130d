#include "decode_body.hpp"

extern "C" __global__ __aicore__ void decode_rope(__gm__ int64_t *args) {
  decode_body<true>(args);
}
