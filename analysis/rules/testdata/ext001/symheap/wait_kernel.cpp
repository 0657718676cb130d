// Waits between cores of a launch, and loops that read GM words without
// waiting for them to change.
#include "kernel_operator.h"
#include "line_ops.h" // not in the tree: line_flush is unseen

using namespace AscendC;

struct Gate {
  uint32_t spin_cap;
  uint32_t count;
  uint32_t pe;
  uint64_t start;
};

struct Entry {
  uint32_t rank;
  uint32_t value;
};

// A back-off helper of the file flushes the polled word through a
// function whose header did not resolve: it may invalidate the line.
__aicore__ inline void BackOff(__gm__ int32_t *word, uint32_t spins) {
  if ((spins & 7u) == 0u) {
    line_flush((__gm__ uint8_t *)word);
  }
}

__aicore__ inline void Pause(uint32_t spins) { (void)spins; }

extern "C" __global__ __aicore__ void gate_wait(__gm__ int32_t *arrived, __gm__ Gate *gate, int32_t gen) {
  uint32_t spins = 0;
  // The cap is compared with the loop's counter: a bound, not the word the
  // loop waits on.
  while (*arrived != gen && spins < gate->spin_cap) { // want "info: EXT001 .*`\\*arrived`.*polling loop.*unless `line_flush\\(\\(__gm__ uint8_t \\*\\)word\\)` invalidates it"
    BackOff(arrived, spins);
    ++spins;
  }
  // A helper the file defines in full, that flushes nothing.
  while (*arrived != gen + 1) { // want "warning: EXT001 .*`\\*arrived`.*polling loop"
    Pause(spins);
  }
}

// Loops that check each entry against a host-written field: the entry
// changes on every pass, the loop waits for nothing.
extern "C" __global__ __aicore__ void check_entries(__gm__ Entry *entries, __gm__ uint32_t *index, __gm__ Gate *gate) {
  for (uint32_t p = 0; p < 8; ++p) {
    if (index[p] >= gate->count) {
      return;
    }
  }
  for (uint32_t p = 0; p < 8; ++p) {
    __gm__ Entry *e = &entries[p];
    if (e->rank != gate->pe) {
      return;
    }
  }
  uint32_t i = 0;
  while (i < gate->count) {
    i += 2;
  }
  while (gate->count != 0) { // want "warning: EXT001 .*`gate->count`.*polling loop"
    Pause(i);
  }
}

// A start deadline: the loop waits for the clock, the word's test only
// guards it.
extern "C" __global__ __aicore__ void start_at(__gm__ Gate *gate, __gm__ uint32_t *flag) {
  while (gate->start != 0 && AscendC::GetSystemCycle() < gate->start) {
  }
  while (*flag != 0 && *flag < 8) { // want "warning: EXT001 .*`\\*flag`.*polling loop"
  }
}

// A counted burst of polls inside a loop that flushes the word before
// each burst: the line is fetched anew every 32 reads.
extern "C" __global__ __aicore__ void credit_wait(__gm__ uint32_t *credit, uint32_t want) {
  while (true) {
    dcci(credit, SINGLE_CACHE_LINE);
    for (uint32_t k = 0; k < 32; ++k) {
      if (*credit == want) {
        return;
      }
    }
  }
}

extern "C" __global__ __aicore__ void credit_wait_stale(__gm__ uint32_t *credit, uint32_t want) {
  dcci(credit, SINGLE_CACHE_LINE);
  while (true) {
    for (uint32_t k = 0; k < 32; ++k) {
      if (*credit == want) { // want "warning: EXT001 .*`\\*credit`.*polling loop"
        return;
      }
    }
  }
}

// Each round waits for the peer's next sequence number. The start value's
// read cached the signal's line, and the loop invalidates it only after
// its first read: a stale value can end the wait.
__aicore__ inline int32_t WaitSeq(__gm__ int32_t *sig, int32_t seq) {
  int32_t got;
  while ((got = *sig) < seq) { // want "warning: EXT001 .*`\\*sig`.*first read of a polling loop whose `dcci` comes after it"
    dcci(sig, SINGLE_CACHE_LINE);
  }
  return got;
}

extern "C" __global__ __aicore__ void seq_rounds(__gm__ int32_t *sig, uint32_t rounds) {
  int32_t start = *sig;
  for (uint32_t r = start + 1; r <= rounds; ++r) {
    WaitSeq(sig, static_cast<int32_t>(r));
  }
}

// The dcci comes first on every pass.
__aicore__ inline int32_t WaitSeqFresh(__gm__ int32_t *sig, int32_t seq) {
  int32_t got;
  do {
    dcci(sig, SINGLE_CACHE_LINE);
    got = *sig;
  } while (got < seq);
  return got;
}

extern "C" __global__ __aicore__ void seq_rounds_fresh(__gm__ int32_t *sig, uint32_t rounds) {
  int32_t start = *sig;
  for (uint32_t r = start + 1; r <= rounds; ++r) {
    WaitSeqFresh(sig, static_cast<int32_t>(r));
  }
}

// Nothing read the signal before the loop: the first read misses.
extern "C" __global__ __aicore__ void seq_once(__gm__ int32_t *sig) {
  int32_t got;
  while ((got = *sig) < 1) {
    dcci(sig, SINGLE_CACHE_LINE);
  }
  (void)got;
}
