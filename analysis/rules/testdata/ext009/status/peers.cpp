// A kernel that reaches its peers' windows fills a table of their
// addresses first. The table is an array of GM pointers the caller keeps
// on its stack: filling it stores pointers into local memory, not GM.
#include "kernel_operator.h"

constexpr int kMaxRanks = 8;

__aicore__ inline void FillPeers(GM_ADDR window, int ranks, uint64_t stride, __gm__ float *peers[kMaxRanks]) {
  for (int i = 0; i < ranks; ++i) {
    peers[i] = reinterpret_cast<__gm__ float *>(window + i * stride + AscendC::GetBlockIdx() * 64);
  }
}

// A table of addresses kept in GM is GM: each core's row is a store
// through the scalar cache the barrier hands to the others.
__aicore__ inline void PublishPeers(GM_ADDR window, int ranks, uint64_t stride, __gm__ uint64_t *table) {
  for (int i = 0; i < ranks; ++i) {
    table[AscendC::GetBlockIdx() * kMaxRanks + i] = reinterpret_cast<uint64_t>(window + i * stride); // want "warning: EXT009 .*`table\\[AscendC::GetBlockIdx\\(\\) \\* kMaxRanks \\+ i\\] = .*stays in this core's data cache"
  }
}

extern "C" __global__ __aicore__ void gather_peers(GM_ADDR window, GM_ADDR table, GM_ADDR out, int ranks,
                                                   uint64_t stride) {
  __gm__ float *peers[kMaxRanks] = {};
  FillPeers(window, ranks, stride, peers);
  PublishPeers(window, ranks, stride, reinterpret_cast<__gm__ uint64_t *>(table));
  AscendC::SyncAll();
  AscendC::GlobalTensor<float> outGm;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
  AscendC::LocalTensor<float> ub;
  AscendC::DataCopy(ub, outGm, 8);
}
