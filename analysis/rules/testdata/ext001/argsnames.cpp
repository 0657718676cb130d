// The args pointer under other names: a helper's parameter the runtime
// getters are handed (`get_block_idx(a)`), and a member named for it.
// Reading its slots is no scalar-cache hazard.
#include "kernel_operator.h"

struct Views {
  int64_t x, y, n;
  uint32_t blk;
};

__aicore__ inline Views Bind(__gm__ int64_t *a) {
  Views v;
  v.x = a[0];
  v.y = a[1];
  v.n = a[2];
  v.blk = get_block_idx(a);
  return v;
}

class Runner {
public:
  __aicore__ inline explicit Runner(__gm__ int64_t *args) : args_(args) {}
  __aicore__ inline int64_t Count() const { return args_[2]; }

private:
  __gm__ int64_t *args_;
};

// A helper every call hands the args pointer, and a member set from a
// constructor's parameter the object's declaration hands it.
__aicore__ inline int64_t Unpack(__gm__ int64_t *p, int32_t i) {
  return p[i];
}

class ArgPack {
public:
  __aicore__ inline explicit ArgPack(__gm__ int64_t *a) : a_(a) {}
  __aicore__ inline int64_t I64(int32_t i) const { return a_[i]; }
  __gm__ int64_t *a_;
};

// A helper's int64 pointer no getter is handed is data: its reads are.
__aicore__ inline int64_t Total(__gm__ int64_t *counts) {
  return counts[0] + counts[1]; // want "info: EXT001 .*`counts`"
}

extern "C" __global__ __aicore__ void bind_entry(__gm__ int64_t *args) {
  Views v = Bind(args);
  Runner r(args);
  int64_t n = r.Count() + v.n;
  __gm__ int64_t *counts = reinterpret_cast<__gm__ int64_t *>(v.x);
  int64_t t = Total(counts) + Unpack(args, 1);
  ArgPack ap(args);
  t += ap.I64(2);
  (void)n;
  (void)t;
}
