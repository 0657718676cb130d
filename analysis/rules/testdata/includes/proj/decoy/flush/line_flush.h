// A second line_flush.h that flushes nothing: with two files ending with
// "line_flush.h", only the build's folders say which one a kernel means.
#pragma once

__aicore__ inline void flush_line(__gm__ int32_t *p) {
  (void)p;
}
