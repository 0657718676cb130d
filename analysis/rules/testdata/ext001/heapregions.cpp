// One heap, regions at offsets a descriptor names: a DMA into one region
// leaves the lines of another alone, also when the offsets are first held
// in const locals.
#include "kernel_operator.h"

struct Layout { uint64_t lut_off; uint64_t out_off; };

extern "C" __global__ __aicore__ void heap_regions(GM_ADDR heap, GM_ADDR layout)
{
    __gm__ Layout *l = reinterpret_cast<__gm__ Layout *>(layout);
    const uint64_t lutOff = l->lut_off;
    const uint64_t outOff = l->out_off;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __gm__ uint8_t *sym = reinterpret_cast<__gm__ uint8_t *>(heap);
    __gm__ uint32_t *lut = reinterpret_cast<__gm__ uint32_t *>(sym + lutOff);
    AscendC::GlobalTensor<uint8_t> out;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; ++i) {
        acc += lut[i];
        out.SetGlobalBuffer(sym + outOff + i * 256u);
        AscendC::DataCopy(out, ub, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    ub.SetValue(0, static_cast<uint8_t>(acc));
}

// Here the DMA rewrites the table's own region: the cached lines go stale.
extern "C" __global__ __aicore__ void heap_regions_overlap(GM_ADDR heap, GM_ADDR layout)
{
    __gm__ Layout *l = reinterpret_cast<__gm__ Layout *>(layout);
    const uint64_t lutOff = l->lut_off;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __gm__ uint8_t *sym = reinterpret_cast<__gm__ uint8_t *>(heap);
    __gm__ uint32_t *lut = reinterpret_cast<__gm__ uint32_t *>(sym + lutOff);
    AscendC::GlobalTensor<uint8_t> out;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; ++i) {
        acc += lut[i]; // want "scalar read `lut\\[i\\]` of `__gm__` pointer `lut`, read after this core's own DMA write"
        out.SetGlobalBuffer(sym + lutOff + i * 256u);
        AscendC::DataCopy(out, ub, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    ub.SetValue(0, static_cast<uint8_t>(acc));
}

struct Layout2 { uint64_t lut_off; uint64_t dense_off; uint64_t sparse_off; };

// The DMA goes to one of two regions a condition picks, neither the
// table's.
extern "C" __global__ __aicore__ void heap_regions_either(GM_ADDR heap, GM_ADDR layout, uint32_t dense)
{
    __gm__ Layout2 *l = reinterpret_cast<__gm__ Layout2 *>(layout);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __gm__ uint8_t *sym = reinterpret_cast<__gm__ uint8_t *>(heap);
    __gm__ uint32_t *lut = reinterpret_cast<__gm__ uint32_t *>(sym + l->lut_off);
    AscendC::GlobalTensor<uint8_t> out;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; ++i) {
        acc += lut[i];
        out.SetGlobalBuffer(sym + (dense != 0 ? l->dense_off : l->sparse_off) + i * 256u);
        AscendC::DataCopy(out, ub, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    ub.SetValue(0, static_cast<uint8_t>(acc));
}

// One of the two is the table's region.
extern "C" __global__ __aicore__ void heap_regions_either_overlap(GM_ADDR heap, GM_ADDR layout, uint32_t dense)
{
    __gm__ Layout2 *l = reinterpret_cast<__gm__ Layout2 *>(layout);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __gm__ uint8_t *sym = reinterpret_cast<__gm__ uint8_t *>(heap);
    __gm__ uint32_t *lut = reinterpret_cast<__gm__ uint32_t *>(sym + l->lut_off);
    AscendC::GlobalTensor<uint8_t> out;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 8; ++i) {
        acc += lut[i]; // want "scalar read `lut\\[i\\]` of `__gm__` pointer `lut`, read after this core's own DMA write"
        out.SetGlobalBuffer(sym + (dense != 0 ? l->dense_off : l->lut_off) + i * 256u);
        AscendC::DataCopy(out, ub, 256);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
    ub.SetValue(0, static_cast<uint8_t>(acc));
}
