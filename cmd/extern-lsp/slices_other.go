//go:build !linux

package main

// shortSlices does nothing where the kernel has no per-thread time slice
// request (sched_setattr's sched_runtime is Linux's).
func shortSlices() {}
