// A package's kernel helpers: the idle-core guard returns from the
// function that uses it.
#pragma once

#define RETURN_IF_IDLE(usedCores)                  \
  do {                                             \
    if (AscendC::GetBlockIdx() >= (usedCores)) {   \
      return;                                      \
    }                                              \
  } while (0)

#define RETURN_IF_NULL(ptr) \
  do {                      \
    if ((ptr) == nullptr) { \
      return;               \
    }                       \
  } while (0)

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// Declares the block's share of the rows and leaves when it is empty.
#define RANGE_OR_RETURN(rng, total)   \
  Range rng = SplitRows((total));     \
  if ((rng).count == 0) {             \
    return;                           \
  }

// Runs an operator whose Init says whether this core has rows.
#define RUN_IF_ROWS(Op, rows)      \
  do {                             \
    Op op;                         \
    if (!op.Init((rows))) {        \
      break;                       \
    }                              \
    op.Process();                  \
  } while (0)
