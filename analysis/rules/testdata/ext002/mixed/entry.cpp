// A mixed extern: cube attention plus a vector RoPE phase in one file.
#include "resource.h"

__aicore__ inline void cube_phase() {
  Arch::Resource<int> resource;
  AscendC::Mmad(c, a, b, params);
}

// Only ever called under a vector guard: the cube never constructs it.
__aicore__ inline void rope_phase(GM_ADDR x) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ropeBuf;
  pipe.InitBuffer(ropeBuf, 8192);
  AscendC::LocalTensor<half> t = ropeBuf.GetWithOffset<half>(128, 0);
  AscendC::PipeBarrier<PIPE_V>();
}

// Called with no guard: the cube builds this pipe.
__aicore__ inline void norm_phase() {
  AscendC::TPipe normPipe; // want `EXT002 tpipe-outside-vec: .AscendC::TPipe. .normPipe. is created where the cube core`
  normPipe.InitBuffer(normBuf, 1024);
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::TPipe p0; // want `.AscendC::TPipe. .p0. is created where the cube core`
  p0.InitBuffer(q0, 2, 1024);
  AscendC::TPipe idiom;
  idiom.Destroy();
  AscendC::TPipe usedFirst; // want `.usedFirst. .*used before its .Destroy\(\).`
  usedFirst.InitBuffer(q1, 2, 1024);
  usedFirst.Destroy();
  VecPipe aliased; // want `.aliased. is created`
  PipeT typedefed; // want `.typedefed. is created`
  pto::TPipe<0, 1> ptoPipe;
  RopeOp rope; // want `.rope. \(a .RopeOp., whose member .pipe_. is an .AscendC::TPipe.\)`
  rope.Init((GM_ADDR)args[0]);
  rope.Process();
  AscendC::TPipe *heap = new AscendC::TPipe(); // want `.heap. is created`
  AscendC::TPipe *borrowed = GetTPipePtr();
  AscendC::TPipe &ref = *borrowed;
  norm_phase();
  cube_phase();
#ifdef __DAV_C220_VEC__
  AscendC::TPipe v1;
  rope_phase((GM_ADDR)args[0]);
  RopeOp rope2;
#endif
#if defined(__DAV_C220_VEC__)
  AscendC::TPipe v2;
#endif
#ifndef __DAV_C220_CUBE__
  AscendC::TPipe v3;
#endif
#if defined(__DAV_C220_CUBE__)
  AscendC::TPipe c1; // want `.c1. is created`
#else
  AscendC::TPipe v4;
#endif
#if defined(__DAV_C220_CUBE__) && !defined(__CPU_SIM)
  Arch::Resource<int> res;
#elif defined(__DAV_C220_VEC__)
  AscendC::TPipe v5;
#endif
#if defined(__DAV_VEC__) || defined(__DAV_C220_VEC__)
  AscendC::TPipe v6;
#endif
#if !defined(__DAV_C220_CUBE__)
  AscendC::TPipe v7;
#endif
#ifdef __CPU_SIM
  AscendC::TPipe sim;
#endif
  if ASCEND_IS_AIV {
    AscendC::TPipe v8;
  }
  if ASCEND_IS_AIC {
    AscendC::TPipe c2; // want `.c2. is created`
  } else {
    AscendC::TPipe v9;
  }
  if (g_coreType == AscendC::AIV) {
    AscendC::TPipe v10;
  }
  if constexpr (g_coreType == AscendC::AIV) {
    AscendC::TPipe v11;
  }
  AscendC::TPipe n1; // NOLINT(EXT002)
  AscendC::TPipe n2; // NOLINT(tpipe-outside-vec)
  AscendC::TPipe n3; // NOLINT
  // NOLINTNEXTLINE(EXT002)
  AscendC::TPipe n4;
  AscendC::TPipe n5; // NOLINT(EXT003) want `.n5. is created`
}
