#include "../common/body.hpp"
extern "C" __global__ __aicore__ void vec_entry(__gm__ int64_t *args) { run_body<true>(args); }
