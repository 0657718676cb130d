// Entry of the mixed extern scale_add (see ../scale_add.py): tensors first,
// then scalars, in the args[] slots the stub defines.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ Tensor *result = reinterpret_cast<__gm__ Tensor *>(args[0]);
    __gm__ Tensor *lhs = reinterpret_cast<__gm__ Tensor *>(args[1]);
    __gm__ Tensor *rhs = reinterpret_cast<__gm__ Tensor *>(args[2]);
    int32_t elem_count = static_cast<int32_t>(args[3]);
    float alpha = from_u64<float>(args[4]);

#ifdef __DAV_C220_VEC__
    scale_add_vec(result, lhs, rhs, elem_count, alpha);
    AscendC::PipeBarrier<PIPE_V>();
#endif
#ifdef __DAV_C220_CUBE__
    AscendC::PipeBarrier<PIPE_MTE1>();
#endif
    AscendC::SyncAll(); // want "EXT004"
}
