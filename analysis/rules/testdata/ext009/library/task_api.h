// A runtime API header: kernels include it and call its functions; none
// of them is called here. Its flush function writes the slot table back,
// so a store in an uncalled API function leaves that to its callers.
#pragma once

struct SlotTable {
  __gm__ int64_t *slots;
  __gm__ int32_t *count;
};

inline __aicore__ SlotTable slot_table(__gm__ int64_t *args) {
  SlotTable t;
  t.slots = reinterpret_cast<__gm__ int64_t *>(args[0]);
  t.count = reinterpret_cast<__gm__ int32_t *>(args[1]);
  return t;
}

inline __aicore__ void flush_slots(SlotTable &t) {
  dcci(t.slots, ENTIRE_DATA_CACHE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

inline __aicore__ void record_slot(SlotTable &t, int64_t value) {
  t.slots[0] = value;
}

// A kernel of this file calls it, and nothing after the call writes the
// count back.
inline __aicore__ void record_count(SlotTable &t, int32_t n) {
  t.count[0] = n; // want "EXT009 gm-scalar-write: scalar store `t.count\\[0\\] = n`"
}

// Uncalled itself: its own store is its callers' to write back.
inline __aicore__ void record_both(SlotTable &t, int64_t value) {
  record_count(t, 1);
  t.slots[1] = value;
}

// An API entry point calls the API's writer: both are left to the callers
// of the entry point.
inline __aicore__ void write_slot(SlotTable &t, int64_t value) {
  t.slots[2] = value;
}

inline __aicore__ void submit(SlotTable &t, int64_t value) {
  write_slot(t, value);
}

extern "C" __aicore__ void count_entry(__gm__ int64_t *args) {
  SlotTable t = slot_table(args);
  record_count(t, 1);
}
