// Phases in their own blocks, each block ending in a handshake macro the
// project writes without its ';' (`#define SIGNAL ...;`): the first
// block's pipe ends with its block, before the second pipe is created.
#include "kernel_operator.h"

using namespace AscendC;

#define SIGNAL AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kStage);
#define AWAIT AscendC::CrossCoreWaitFlag(kStage);

constexpr uint16_t kStage = 3;

extern "C" __global__ __aicore__ void split_then_merge(GM_ADDR x, GM_ADDR y) {
  {
    TPipe splitPipe;
    splitPipe.InitBuffer(splitQueue, 2, 1024);
    SplitPhase(x, splitPipe);
    SIGNAL
  }
  AWAIT;
  {
    TPipe mergePipe;
    mergePipe.InitBuffer(mergeQueue, 2, 1024);
    MergePhase(y, mergePipe);
  }
}

// The twin: the first block holds both pipes, the macro still ending it.
extern "C" __global__ __aicore__ void split_and_merge(GM_ADDR x, GM_ADDR y) {
  {
    TPipe splitPipe;
    splitPipe.InitBuffer(splitQueue, 2, 1024);
    SplitPhase(x, splitPipe);
    TPipe mergePipe; // want "second TPipe `mergePipe` created while `splitPipe`"
    mergePipe.InitBuffer(mergeQueue, 2, 1024);
    MergePhase(y, mergePipe);
    SIGNAL
  }
}
