#pragma once
// Per-core result slots of the reduction extern.
constexpr uint32_t kFlagStride = 4;   // int32 flags: 16 bytes apart
constexpr uint32_t kSlotBytes = 512;
constexpr uint32_t kSlotElems = kSlotBytes / 4;

struct Slot {
  int32_t count;
  float sum;
};

struct alignas(64) PaddedSlot {
  float sum;
};

struct ManualPad {
  float sum;
  char pad[60];
};

__aicore__ inline uint32_t CoreId() { return AscendC::GetBlockIdx() * 2 + AscendC::GetSubBlockIdx(); }
