// A device communication library's queue engine: user kernels include it
// and call its functions; no kernel is in this tree. What a caller does
// after a call (a write-back, a signal) is the caller's, judged where
// that caller is.
#pragma once

struct QueueCtx {
  uint64_t doorbell;
  uint32_t head;
  uint32_t tail;
};

// Bookkeeping an API function leaves for its callers.
inline __aicore__ void queue_consumed(uint32_t idx, __gm__ QueueCtx *q) {
  q->tail = idx; // want "info: EXT009 .*`q->tail = idx`.*unless the callers of `queue_consumed` write it back or tell no other core to read it: no code the analysis found calls it"
}

// A helper of the API: its store reaches the end of the API function
// calling it, with nothing after the call.
inline __aicore__ void queue_note_head(uint32_t idx, __gm__ QueueCtx *q) {
  q->head = idx; // want "info: EXT009 .*`q->head = idx`.*unless the callers of `queue_poll` write it back"
}

inline __aicore__ uint32_t queue_poll(__gm__ QueueCtx *q) {
  uint32_t cur = q->head;
  queue_note_head(cur + 1, q);
  return cur;
}

// The API itself tells another core to read what its helper stored:
// that handoff is in the library, whoever calls it.
inline __aicore__ void queue_store_word(__gm__ uint32_t *word, uint32_t v) {
  *word = v; // want "warning: EXT009 .*`\\*word = v`"
}

inline __aicore__ void queue_post(__gm__ uint32_t *word, uint32_t v, __gm__ uint64_t *sig_addr) {
  queue_store_word(word, v);
  ffts_cross_core_sync(PIPE_S, 0x21);
}

// The API's layers run deep: a put posts a work entry, which makes room
// by reaping completions, which retires them. The retire's store is the
// put's callers' to write back, however many layers lie between.
inline __aicore__ void queue_retire(uint32_t idx, __gm__ QueueCtx *q) {
  q->tail = idx; // want "info: EXT009 .*`q->tail = idx`.*unless the callers of `queue_put` write it back"
}

inline __aicore__ void queue_reap(uint32_t upto, __gm__ QueueCtx *q) {
  queue_retire(upto, q);
}

inline __aicore__ void queue_make_room(uint32_t want, __gm__ QueueCtx *q) {
  if (want > 8) {
    queue_reap(want - 8, q);
  }
}

inline __aicore__ void queue_post_entry(uint32_t n, __gm__ QueueCtx *q) {
  queue_make_room(n, q);
}

inline __aicore__ void queue_write(uint32_t n, __gm__ QueueCtx *q) {
  queue_post_entry(n + 1, q);
}

inline __aicore__ void queue_put_nbi(uint32_t n, __gm__ QueueCtx *q) {
  queue_write(n, q);
}

inline __aicore__ void queue_put(uint32_t n, __gm__ QueueCtx *q) {
  queue_put_nbi(n, q);
}

// Overloads of one name forwarding to each other: by name each wide one
// is the other's caller. The walk up stops at the recursion: the
// overloads are the API's entries.
inline __aicore__ void queue_send(uint32_t n, __gm__ QueueCtx *q) {
  q->head = n; // want "info: EXT009 .*`q->head = n`.*unless the callers of `queue_send` write it back"
}

inline __aicore__ void queue_send(uint64_t n, __gm__ QueueCtx *q) {
  queue_send(static_cast<uint32_t>(n), q);
}

inline __aicore__ void queue_send(int64_t n, __gm__ QueueCtx *q) {
  queue_send(static_cast<uint64_t>(n), q);
}
