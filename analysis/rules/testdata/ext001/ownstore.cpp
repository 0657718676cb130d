// Entries this core fills with scalar stores: reading back a word it has
// just stored returns the stored value (the line is in its cache, and
// nothing between wrote or dropped it); after its own DMA rewrote the
// entry, the cached line is stale.
#include "kernel_operator.h"

struct Entry { uint32_t key; uint32_t count; uint64_t pad[7]; };

extern "C" __global__ __aicore__ void fill_entries(GM_ADDR out, GM_ADDR src, GM_ADDR keys)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __gm__ uint8_t *base = reinterpret_cast<__gm__ uint8_t *>(out);
    __gm__ uint32_t *keyTable = reinterpret_cast<__gm__ uint32_t *>(keys);
    AscendC::GlobalTensor<uint8_t> in, payload;
    in.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(src));
    for (uint32_t i = 0; i < 4; ++i) {
        __gm__ Entry *e = reinterpret_cast<__gm__ Entry *>(base + i * 1024u);
        e->key = keyTable[i];
        e->count = i;
        uint32_t k = e->key;
        base[i * 1024u + 64u] = static_cast<uint8_t>(k);
        payload.SetGlobalBuffer(base + i * 1024u); // the DMA rewrites the entry itself
        AscendC::DataCopy(ub, in, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(payload, ub, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
        uint32_t c = e->count; // want "scalar read `e->count` of `__gm__` pointer `e`, read after this core's own DMA write"
        base[i * 1024u + 128u] = static_cast<uint8_t>(c);
    }
    dcci(reinterpret_cast<__gm__ uint64_t *>(base), ENTIRE_DATA_CACHE, CACHELINE_OUT);
    dsb(DSB_DDR);
}
