// A helper that publishes a tile to the cube on the lane its caller
// names: the lane test is on a parameter the includer fills from the lane
// id, so it is the lane's test all the same.
#pragma once

__aicore__ inline void publish_tile(uint32_t lane) {
  if (lane == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(6); // want "EXT010 .*`AscendC::CrossCoreSetFlag<2, PIPE_MTE3>\\(6\\)` only runs on the vector lane that passes `if \\(lane == 0\\)`"
  }
}

// Every lane publishes: silent.
__aicore__ inline void publish_all(uint32_t lane) {
  (void)lane;
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(7);
}
