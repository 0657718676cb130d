package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// gcTiers are the collector's targets by the size of the largest input,
// largest first: from mediumInput on the runtime's default target (the
// heap grows to twice what is live before the next collection) is most of
// what a file adds to the peak, once its parse no longer keeps a C tree of
// the whole file.
//
//   - From 1 MB (largeInput), 10: the parse and facts of one large file
//     are most of the heap while it is analysed, and the peak comes when
//     they are all live. At 10 the headroom is a tenth of what is live:
//     2-3 MB less at the peak of a 1 MB file than at 25, 3-6 MB at 2 MB,
//     for about 15% more CPU on those inputs (the collector's work stays
//     linear in what the run allocates).
//   - From 128 KB (mediumInput), 25: 3-6 MB less at the peak of a 128-480
//     KB file than the default, as little as at 10; over whole real trees
//     with such files, 15-25% less peak for 0-8% more CPU, where 10 cost
//     4-10%.
//
// A soft memory limit following the live heap, so that freed pages go
// back to the system before new ones are taken, saved nothing more once
// no rule grew a goroutine stack of megabytes.
var gcTiers = []struct{ from, gcPercent int }{
	{largeInput, largeInputGCPercent},
	{mediumInput, mediumInputGCPercent},
}

const (
	largeInput           = 1 << 20
	largeInputGCPercent  = 10
	mediumInput          = 128 << 10
	mediumInputGCPercent = 25
)

// gcPercentFor is the collector's target for a check over files: the
// target of the largest file's tier, 0 (the runtime's own) below them and
// always when the user set GOGC or GOMEMLIMIT (theirs win).
func gcPercentFor(ws *workspace.Workspace, files []string) int {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	largest := 0
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			largest = max(largest, int(fi.Size()))
		} else if src, err := ws.Source(f); err == nil {
			largest = max(largest, len(src))
		}
	}
	for _, t := range gcTiers {
		if largest >= t.from {
			return t.gcPercent
		}
	}
	return 0
}

// setGCPercent sets the collector's target (0: the runtime's stays); undo
// puts the runtime's settings back.
func setGCPercent(p int) (undo func()) {
	if p <= 0 {
		return func() {}
	}
	prev := debug.SetGCPercent(p)
	return func() { debug.SetGCPercent(prev) }
}

// serveHeadroom is the least the server's heap may grow past what is live
// before the collector runs again. Its live heap is small (the open units'
// facts: about 10 MB on the generated realistic unit) and an edit's
// analysis allocates over 1 MB, so at the runtime's default target (grow
// by what is live) it collected every few keystrokes: 15-25% of a
// request's CPU, and on a busy machine a collection's stops wait for its
// threads' time slices inside a request. On that unit's editing session
// (270 requests) the default collects 41 times, 10 MB 32 times, 12 MB 24
// (10-15% less CPU than the default); the peak stays under 50 MB at 10
// (42-45 MB resident, against 44-51 at 12 and 41-42 at the default) for
// a few % more CPU than 12 (24 MB saved about 2% more for 61-67 MB).
const serveHeadroom = 10 << 20

// keepHeadroom keeps, after each collection, the collector's target at
// least headroom past the live heap (the runtime's default above that);
// not when the user set GOGC or GOMEMLIMIT (theirs win). stop puts the
// runtime's target back.
func keepHeadroom(headroom uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// Cleanups may run on any goroutine, and one may be under way when
	// stop is called.
	var mu sync.Mutex
	stopped, set := false, 100
	var arm func()
	arm = func() {
		// Runs after the collection that finds the sentinel unreachable.
		runtime.AddCleanup(&[16]byte{}, func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if stopped {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				if p := headroomPercent(sample[0].Value.Uint64(), headroom); p != set {
					set = p
					debug.SetGCPercent(p)
				}
			}
			arm()
		}, struct{}{})
	}
	arm()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if set != 100 {
			debug.SetGCPercent(100)
		}
	}
}

// headroomPercent is the GOGC that lets a heap of live bytes grow by at
// least headroom: the default 100 once live is headroom or more.
func headroomPercent(live, headroom uint64) int {
	if live == 0 || live >= headroom {
		return 100
	}
	return int(min(headroom*100/live, 10000))
}
