// Where a condition around a cluster handshake comes from: both vector
// lanes of a cluster agree on tiling fields, args scalars, core counts,
// template arguments, constants and the block id; they differ on the lane
// id and on what each lane reads at its own address.
#include "flags.h"

struct PairTiling {
  uint32_t tiles;
  uint32_t usedBlocks;
};

constexpr bool kPublish = true;

__aicore__ inline uint32_t tile_count(__gm__ int64_t *args) {
  return static_cast<uint32_t>(args[2]);
}

__aicore__ inline uint32_t cluster_of(__gm__ int64_t *args) {
  return static_cast<uint32_t>(get_block_idx(args));
}

__aicore__ inline uint32_t lane_of(__gm__ int64_t *args) {
  return static_cast<uint32_t>(get_sub_block_id(args));
}

template <bool kTwoStage>
__aicore__ inline void handshake(__gm__ PairTiling *tiling, __gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  if (tiling->tiles > 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
  }
  uint32_t tiles = 0;
  tiles = tile_count(args);
  if (tiles > 1 && static_cast<uint32_t>(args[3]) != 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kPvReady);
  }
  if (get_block_num(args) > 1 && kPublish) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
  }
  if constexpr (kTwoStage) {
    AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(LANE_SYNC_FLAG);
  }
  // The block id: the cube and both lanes of the cluster agree.
  uint32_t cluster = cluster_of(args);
  if (cluster < tiling->usedBlocks) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);
  }
  __gm__ int32_t *work = reinterpret_cast<__gm__ int32_t *>(args[1]);
  if (work[cluster] != 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);
  }
#endif
}

extern "C" __global__ __aicore__ void uniform_handshake(__gm__ int64_t *args) {
  handshake<true>(reinterpret_cast<__gm__ PairTiling *>(args[0]), args);
}

// The twins: each condition reads the lane id.
__aicore__ inline void lane_signal(uint32_t lane) {
#ifdef __DAV_C220_VEC__
  if (lane == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady); // want "EXT010.*only runs on the vector lane that passes `if \\(lane == 0\\)`"
  }
#endif
}

extern "C" __global__ __aicore__ void lane_handshake(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  uint32_t mine = lane_of(args);
  if (mine == 1) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady); // want "EXT010.*passes `if \\(mine == 1\\)`"
  }
  lane_signal(lane_of(args));
  bool leader = false;
  if (get_sub_block_id(args) == 0) {
    leader = true;
  }
  if (leader) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kPvReady); // want "EXT010.*passes `if \\(leader\\)`"
  }
  __gm__ int32_t *work = reinterpret_cast<__gm__ int32_t *>(args[1]);
  uint32_t slot = get_block_idx(args) * 2 + mine;
  if (work[slot] != 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kPvReady); // want "EXT010.*passes `if \\(work\\[slot\\] != 0\\)`"
  }
#endif
}
