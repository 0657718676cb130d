// Index constants of attn's args[], in the spellings kernels use.
#pragma once
#include <cstdint>

constexpr int32_t kQueryArg = 0;
constexpr int32_t kValueCacheArg = 1; // want "EXT107 args-slot-name-mismatch: index constant `kValueCacheArg` = 1 is named after `value_cache`, but args\\[1\\] of extern `attn` is `key_cache` and `value_cache` is args\\[2\\]"
#define KEY_CACHE_IDX 2 // want "index constant `KEY_CACHE_IDX` = 2 is named after `key_cache`, but args\\[2\\] of extern `attn` is `value_cache`"
enum AttnSlots { ARG_OUT = 4, ARG_SEQ = 3 }; // want "index constant `ARG_OUT` = 4 is named after `out`, but args\\[4\\] of extern `attn` is `seq_len` and `out` is args\\[3\\]"
constexpr int32_t seq_len_arg = 4;
constexpr int32_t kTileArg = 3; // names no parameter: silent
// Camel-case markers before the name; a word that only starts like one
// (`kArgument`) is a name of its own.
constexpr int32_t kArgQuery = 0;
constexpr int32_t kArgKeyCache = 2; // want "index constant `kArgKeyCache` = 2 is named after `key_cache`, but args\\[2\\] of extern `attn` is `value_cache` and `key_cache` is args\\[1\\]"
constexpr int32_t kArgument = 1;
