// A scratch window carved into regions at constant offsets, exchanged with
// peers through pto::comm signals and puts.
#include "meta_util.h"

constexpr int kCounts = 64;
constexpr int kOffCounts = 0;
constexpr int kOffRows = kOffCounts + kCounts * 4;
constexpr int kOffDone = kOffRows + 4096;

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ uint8_t *scratch = input_data<uint8_t>(args, 0);
  __gm__ int32_t *counts = reinterpret_cast<__gm__ int32_t *>(scratch + kOffCounts);
  __gm__ float *rows = reinterpret_cast<__gm__ float *>(scratch + kOffRows);
  __gm__ int32_t *done = reinterpret_cast<__gm__ int32_t *>(scratch + kOffDone);
  __gm__ float *src = input_data<float>(args, 1);

  for (int i = 0; i < kCounts; ++i) {
    // Another region of the window is put to below: this read is not
    // after a write to its own region.
    int n = counts[i]; // want "info: EXT001 .*counts\\[i\\]"
    pto::comm::TPUT(GlobalTensor<float>(rows + i * 16), GlobalTensor<float>(src), tile);
  }
  // Nothing cached rows' lines before the puts: the load misses (once
  // the puts have landed).
  pipe_barrier(PIPE_ALL);
  float r0 = rows[0]; // want "info: EXT001 .*rows\\[0\\].*own DMA write `pto::comm::TPUT.*nothing this core does in this task before that"

  // Publish into the counts region (of this rank's window and, in real
  // kernels, a peer's), then meet at the done signal.
  pto::comm::Signal add(counts + 3);
  pto::comm::TNOTIFY(add, 5, pto::comm::NotifyOp::AtomicAdd);
  pto::comm::Signal sig(done);
  pto::comm::TNOTIFY(sig, 1, pto::comm::NotifyOp::AtomicAdd);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  // Peers add into the counts region before their notify.
  int total = counts[0]; // want "warning: EXT001 .*counts\\[0\\].*read after `pto::comm::TWAIT"
  dcci(counts, SINGLE_CACHE_LINE);
  int fresh = counts[1];
}
