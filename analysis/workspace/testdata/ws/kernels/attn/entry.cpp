#include "../common/body.hpp"
extern "C" __global__ __aicore__ void attn_entry(__gm__ int64_t *args) {
  AscendC::Mmad(c, a, b, p);
  run_body<false>(args);
}
