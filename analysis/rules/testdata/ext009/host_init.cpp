// A queue header both sides include: the host fills the queue before the
// launch (a plain function, no `__aicore__`), the kernel pushes to it.
#include "gm_util.h"

struct TileQueue {
  int32_t count;
  int32_t slots[15];
};

inline __gm__ int32_t *QueueSlot(TileQueue *queue, int i) { return reinterpret_cast<__gm__ int32_t *>(&queue->slots[i]); }

inline void QueueInit(TileQueue *queue) {
  for (int i = 0; i < 15; i++) {
    *QueueSlot(queue, i) = -1;
  }
}

__aicore__ inline void QueuePush(__gm__ TileQueue *queue, int32_t tile) {
  queue->slots[0] = tile; // want "EXT009 .*`queue->slots\\[0\\] = tile`"
}

extern "C" __global__ __aicore__ void push_tiles(__gm__ int64_t *args) {
  __gm__ TileQueue *queue = reinterpret_cast<__gm__ TileQueue *>(args[0]);
  QueuePush(queue, 3);
  AscendC::SyncAll<false>();
}
