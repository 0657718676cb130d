// An AIV extern with a RoPE phase followed by an attention phase.
#include "phases.h"

__aicore__ inline void two_live(GM_ADDR x) {
  AscendC::TPipe ropePipe;
  ropePipe.InitBuffer(ropeBuf, 8192);
  AscendC::TPipe attnPipe; // want `EXT003 tpipe-double: second TPipe .attnPipe. created while .ropePipe. \(line 5\) is still live on the vector core:`
  attnPipe.InitBuffer(attnBuf, 8192);
}

__aicore__ inline void destroyed_first(GM_ADDR x) {
  AscendC::TPipe ropePipe;
  ropePipe.InitBuffer(ropeBuf, 8192);
  ropePipe.Destroy();
  AscendC::TPipe attnPipe;
  attnPipe.InitBuffer(attnBuf, 8192);
}

__aicore__ inline void scoped(GM_ADDR x) {
  {
    AscendC::TPipe ropePipe;
    ropePipe.InitBuffer(ropeBuf, 8192);
  }
  AscendC::TPipe attnPipe;
  for (int i = 0; i < 2; i++) {
    AscendC::TPipe inner; // want `second TPipe .inner. created while .attnPipe. \(line 24\)`
  }
}

__aicore__ inline void with_resource(GM_ADDR x) {
  Arch::Resource<int> resource;
  AscendC::TPipe pipe;
  AscendC::TPipe idiom;
  idiom.Destroy();
  AttnKernel attn; // want `second TPipe .attn. \(a .AttnKernel. holding a TPipe\) created while .pipe. \(line 32\)`
  attn.Init(x);
}

__aicore__ inline void split_by_core(GM_ADDR x) {
#ifdef __DAV_C220_VEC__
  AscendC::TPipe vecPipe;
#else
  AscendC::TPipe cubePipe;
#endif
  if ASCEND_IS_AIV {
    AscendC::TPipe v2; // want `second TPipe .v2. created while .vecPipe. \(line 41\) is still live on the vector core`
  }
  if ASCEND_IS_AIC {
    AttnKernel attn; // want `second TPipe .attn. .* created while .cubePipe. \(line 43\) is still live on the cube core`
  }
#ifdef __CPU_SIM
  AscendC::TPipe simPipe;
#endif
}

__aicore__ inline void branches(GM_ADDR x, int c) {
  if (c) {
    AscendC::TPipe a;
  } else {
    AscendC::TPipe b;
  }
  AscendC::TPipe *heap = new AscendC::TPipe();
  AscendC::TPipe later; // want `second TPipe .later. created while .heap. \(line 62\)`
  AscendC::TPipe n1; // NOLINT(EXT003)
  AscendC::TPipe n2; // NOLINT(tpipe-double)
  // NOLINTNEXTLINE(EXT003)
  AscendC::TPipe n3;
  AscendC::TPipe n4; // NOLINT(EXT002) want `second TPipe .n4.`
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  two_live((GM_ADDR)args[0]);
  destroyed_first((GM_ADDR)args[0]);
  scoped((GM_ADDR)args[0]);
  with_resource((GM_ADDR)args[0]);
  split_by_core((GM_ADDR)args[0]);
  branches((GM_ADDR)args[0], 1);
}
