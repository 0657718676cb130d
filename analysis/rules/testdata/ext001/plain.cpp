// Not an extern source (no args entry, not included by one): no findings.
__aicore__ inline int32_t peek(__gm__ int32_t *p) { return p[0]; }
