// A CPU tracing build prints each intrinsic; the device build calls it.
// The tracing switch blanks the CCE qualifiers: it is a host build, so a
// device compile takes the #else definitions.
#pragma once
#include "iostream"

#ifdef ENABLE_CPU_TRACE
#define __gm__
#define __aicore__
#define TO_STRING(NAME) #NAME
#define INTRINSIC(NAME, ...) printIntrinsic(TO_STRING(NAME), __VA_ARGS__)
#define INTRINSIC_NO_ARGS(NAME) printIntrinsic(TO_STRING(NAME))
#else
#define INTRINSIC(NAME, ...) NAME(__VA_ARGS__)
#define INTRINSIC_NO_ARGS(NAME) NAME()
#endif

// Forwarding through a forwarding macro, and a macro whose callee is its
// own with the arguments passed on whole.
#define CALL_NAMED(f, ...) INTRINSIC(f, __VA_ARGS__)
#define BARRIER_ALL(...) AscendC::SyncAll<false>(__VA_ARGS__)

// A switch the build defines that blanks nothing: which definition the
// device compile takes is unknown, so a use is read as neither.
#ifdef USE_TRACE_CALLS
#define TRACED(NAME, ...) trace_call(#NAME, __VA_ARGS__)
#else
#define TRACED(NAME, ...) NAME(__VA_ARGS__)
#endif
