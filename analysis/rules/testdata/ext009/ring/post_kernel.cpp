// A work queue whose entries a helper fills and the poster writes out line
// by line; the line size is a constant of a header not in the tree.
#include "kernel_operator.h"
#include "queue_layout.h" // not in the tree: kLineBytes

struct QueueCtx {
  uint64_t ring;
  uint32_t depth;
};

struct Entry {
  uint32_t opcode;
  uint32_t length;
  uint64_t address;
};

// Every line of [addr, addr + bytes): the aligned start is the same
// memory whatever kLineBytes is.
__aicore__ inline void WriteLines(__gm__ uint8_t *addr, uint64_t bytes) {
  __gm__ uint8_t *first = (__gm__ uint8_t *)((uint64_t)addr / kLineBytes * kLineBytes);
  __gm__ uint8_t *last = (__gm__ uint8_t *)(((uint64_t)addr + bytes) / kLineBytes * kLineBytes);
  for (uint64_t off = 0; off <= static_cast<uint64_t>(last - first); off += kLineBytes) {
    dcci((__gm__ void *)(first + off), cache_line_t::SINGLE_CACHE_LINE);
  }
}

__aicore__ inline void FillEntry(__gm__ Entry *e, uint32_t op, uint64_t where) {
  e->opcode = op;
  e->address = where;
}

__aicore__ inline void FillEntryLate(__gm__ Entry *e, uint32_t op) {
  e->opcode = op; // want "info: EXT009 .*`e->opcode = op`.*every caller writes it out after the call, but no `dsb\\(DSB_DDR\\)` follows there"
}

// Filled, written out, then the dsb.
__aicore__ inline void Post(__gm__ QueueCtx *q, uint32_t slot, uint32_t op) {
  __gm__ uint8_t *at = (__gm__ uint8_t *)(q->ring + sizeof(Entry) * (slot % q->depth));
  FillEntry((__gm__ Entry *)at, op, 0);
  __gm__ Entry *tail = (__gm__ Entry *)at;
  tail->length = 8;
  WriteLines(at, sizeof(Entry));
  dsb(DSB_DDR);
}

// Written out, but the dsb is left out.
__aicore__ inline void PostNoWait(__gm__ QueueCtx *q, uint32_t slot, uint32_t op) {
  __gm__ uint8_t *at = (__gm__ uint8_t *)(q->ring + sizeof(Entry) * (slot % q->depth));
  FillEntryLate((__gm__ Entry *)at, op);
  WriteLines(at, sizeof(Entry));
}

extern "C" __global__ __aicore__ void post_kernel(GM_ADDR queue, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    Post((__gm__ QueueCtx *)queue, i, 1);
    PostNoWait((__gm__ QueueCtx *)queue, i, 2);
  }
}
