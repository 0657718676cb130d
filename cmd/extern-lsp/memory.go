package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// largeInput is the size of the largest file from which check trades CPU
// for memory: below it the runtime's defaults hold a few MB at most.
const largeInput = 1 << 20

// largeInputGCPercent is the collector's target on large inputs. The parse
// and facts of one large file are most of the heap while it is analysed,
// and the peak comes when they are all live: the default target lets the
// heap grow to twice that before the next collection, tens of times the
// file. At 10 the headroom is a tenth of what is live (4-6 MB less at the
// peak of a 1-2 MB file than at 25, for about 15% more CPU; the collector's
// work stays linear in what the run allocates).
const largeInputGCPercent = 10

// memPolicy is how the runtime holds memory during one check.
type memPolicy struct {
	// gcPercent is the collector's target (0: the runtime's).
	gcPercent int
	// followLive keeps a soft memory limit just above what the live heap
	// needs (see startLiveLimit).
	followLive bool
}

// memPolicyFor is the policy of a check over files: the runtime's own
// settings unless one file is large, and always when the user set GOGC or
// GOMEMLIMIT (theirs win).
func memPolicyFor(ws *workspace.Workspace, files []string) memPolicy {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return memPolicy{}
	}
	largest := 0
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			largest = max(largest, int(fi.Size()))
		} else if src, err := ws.Source(f); err == nil {
			largest = max(largest, len(src))
		}
	}
	if largest < largeInput {
		return memPolicy{}
	}
	return memPolicy{gcPercent: largeInputGCPercent, followLive: true}
}

// apply sets the policy; undo puts the runtime's settings back.
func (p memPolicy) apply() (undo func()) {
	var undos []func()
	if p.gcPercent > 0 {
		prev := debug.SetGCPercent(p.gcPercent)
		undos = append(undos, func() { debug.SetGCPercent(prev) })
	}
	if p.followLive {
		undos = append(undos, startLiveLimit(p.gcPercent))
	}
	return func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
}

// liveLimit keeps the runtime's soft memory limit a little above what the
// last collection found live, grown by the GC percent, plus what the
// runtime holds besides heap objects. Pages the collector freed otherwise
// stay resident until the background scavenger (paced at 1% of a CPU)
// returns them: on a large file that is several MB at the peak, more when
// a deep recursion grows a goroutine stack by copying it. Under the limit
// the allocator returns free pages before it takes new ones.
type liveLimit struct {
	percent int
	mu      sync.Mutex
	stopped bool
	prev    int64
	samples []metrics.Sample
}

// The metrics update reads, in this order.
var liveLimitMetrics = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/free:bytes",
}

// limitMargin is the room above the heap goal the limit leaves: the
// runtime keeps 3% of a limit (at least 1 MB) as its own headroom, and the
// sum of these must stay above the goal the GC percent sets, or the limit
// would start collections of its own (each a scan of the live heap).
const limitMargin = 2 << 20

// startLiveLimit follows the live heap after every collection until stop,
// which restores the limit in force before.
func startLiveLimit(percent int) (stop func()) {
	l := &liveLimit{percent: percent, prev: debug.SetMemoryLimit(-1)}
	for _, n := range liveLimitMetrics {
		l.samples = append(l.samples, metrics.Sample{Name: n})
	}
	l.arm()
	return func() {
		l.mu.Lock()
		l.stopped = true
		l.mu.Unlock()
		debug.SetMemoryLimit(l.prev)
	}
}

// gcSentinel is an object only a collection frees: its cleanup runs once a
// cycle has ended. Not tiny (the runtime may batch tiny pointer-free
// objects with live ones, and their cleanups then never run).
type gcSentinel struct {
	_ *int
	_ [2]uintptr
}

func (l *liveLimit) arm() {
	runtime.AddCleanup(new(gcSentinel), (*liveLimit).update, l)
}

func (l *liveLimit) update() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	metrics.Read(l.samples)
	v := func(i int) uint64 { return l.samples[i].Value.Uint64() }
	live, retained := v(0), v(1)-v(2)
	// Metadata, stacks and partly used spans: what the runtime holds
	// beside heap objects and free pages.
	held := retained - min(retained, v(3)+v(4))
	goal := live + live*uint64(l.percent)/100
	limit := (goal + held + limitMargin) / 97 * 100
	debug.SetMemoryLimit(int64(min(limit, math.MaxInt64)))
	l.arm()
}
