// Each core builds its own pipe under the chip's core macros. The cube's
// create-then-destroy leaves the vector's pipe alone: the vector's pipe
// lives to the return and its destructor drains the store.
#include "store_helpers.h"

__aicore__ inline void StoreRow(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(args[0]));
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::DataCopy(outGm[64], outUb, 64);
}

extern "C" __global__ __aicore__ void branch_pipes(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  AscendC::TPipe pipe;
  pipe.Destroy();
  AscendC::Mmad(c, a, b, params);
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  StoreRow(args);
#endif
}

// The vector destroys its own pipe too: nothing drains its store.
extern "C" __global__ __aicore__ void branch_pipes_destroyed(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  AscendC::TPipe pipe;
  pipe.Destroy();
  AscendC::Mmad(c, a, b, params);
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  pipe.Destroy();
  StoreRow(args); // want "EXT012 missing-pipe-drain: `StoreRow\\(args\\)` leaves `AscendC::DataCopy\\(outGm\\[64\\], outUb, 64\\)` \\(branch_pipes.cpp:11\\) in flight when the extern returns on the vector core"
#endif
}
