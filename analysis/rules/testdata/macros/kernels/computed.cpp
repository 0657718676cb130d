// A computed include: the body header is named by a macro, switched per
// build. The analysis follows it like the include it expands to.
#include <cstdint>

#define BODY_HEADER "computed_body.h"
#include BODY_HEADER
#undef BODY_HEADER

extern "C" __global__ __aicore__ void computed(__gm__ int64_t *args) {
  computed_body(reinterpret_cast<__gm__ uint8_t *>(args[0]));
}
