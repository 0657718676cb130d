#pragma once
// A raw FFTS wrapper: the mode and the id arrive as template and call
// arguments.
template <pipe_t pipe, uint8_t mode>
__aicore__ inline void FftsCrossCoreSync(uint64_t flagId) {
  uint64_t config = 1 | (mode << 4) | (flagId << 8);
  ffts_cross_core_sync(pipe, config);
}

template <uint8_t MODE, pipe_t PIPE>
__aicore__ inline void Notify(uint16_t id) {
  AscendC::CrossCoreSetFlag<MODE, PIPE>(id);
}

struct CrossCoreFlag {
  uint16_t id;
};

template <uint8_t MODE, pipe_t PIPE>
__aicore__ inline void NotifyFlag(CrossCoreFlag &flag) {
  AscendC::CrossCoreSetFlag<MODE, PIPE>(flag.id);
}

constexpr uint16_t id = 5; // unrelated: `flag.id` above is not this constant
