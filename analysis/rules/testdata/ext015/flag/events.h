#pragma once
// Event ids of the staged vector kernel.
constexpr int32_t kPing = 0;
constexpr int32_t kPong = 1;
enum StageEvents { EV_IN = 2, EV_OUT };

// Loads a tile and signals the vector pipe.
__aicore__ inline void CopyIn(AscendC::LocalTensor<float> &ub, AscendC::GlobalTensor<float> &gm) {
  AscendC::DataCopy(ub, gm, 256);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EV_IN);
}

// Waits for the tile CopyIn signalled.
__aicore__ inline void Compute(AscendC::LocalTensor<float> &ub) {
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EV_IN);
  AscendC::Muls(ub, ub, 2.0f, 256);
}
