// A library class no file includes: its methods take flag addresses in GM,
// one of them alone, but no entry of the runtime's `kernel(args)` shape is
// here. Its callers are ordinary kernels, where the block getters are the
// launch's own: silent.
#include "kernel_operator.h"

class BlockFlags {
public:
    __aicore__ inline void Init(GM_ADDR base) {
        own = (__gm__ int64_t *)base + AscendC::GetBlockIdx() * 8;
        count = AscendC::GetBlockNum();
    }
    __aicore__ inline int64_t Read(__gm__ int64_t *addr) { return addr[0]; }
    __aicore__ inline void Write(__gm__ int64_t *addr, int64_t v) { addr[0] = v; }

private:
    __gm__ int64_t *own;
    int64_t count;
};
