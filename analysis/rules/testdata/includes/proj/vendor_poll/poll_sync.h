// The one file of the tree whose path ends with "vendor_poll/poll_sync.h".
#pragma once

__aicore__ inline void refresh_flag(__gm__ int32_t *p) {
  dcci(p, SINGLE_CACHE_LINE);
}
