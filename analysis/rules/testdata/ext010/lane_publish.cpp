// The lane id crosses into a header's helper as an argument.
#include "lane_publish.h"

extern "C" __global__ __aicore__ void lane_publish(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag(6);
    AscendC::CrossCoreWaitFlag(7);
  }
  if ASCEND_IS_AIV {
    uint32_t lane = static_cast<uint32_t>(get_sub_block_id(args));
    publish_tile(lane);
    publish_all(lane);
  }
}
