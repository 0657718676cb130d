package main

import (
	"os"
	"runtime/debug"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// largeInput is the size of the largest file from which check trades CPU
// for memory: below it the runtime's defaults hold a few MB at most.
const largeInput = 1 << 20

// largeInputGCPercent is the collector's target on large inputs. The parse
// and facts of one large file are most of the heap while it is analysed,
// and the peak comes when they are all live: the default target lets the
// heap grow to twice that before the next collection, tens of times the
// file. At 10 the headroom is a tenth of what is live: 2-3 MB less at the
// peak of a 1 MB file than at 25, 3-6 MB at 2 MB, for about 15% more CPU
// (the collector's work stays linear in what the run allocates). A soft
// memory limit following the live heap, so that freed pages go back to the
// system before new ones are taken, saved nothing more once no rule grew a
// goroutine stack of megabytes.
const largeInputGCPercent = 10

// memPolicy is how the runtime holds memory during one check.
type memPolicy struct {
	// gcPercent is the collector's target (0: the runtime's).
	gcPercent int
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
	return memPolicy{gcPercent: largeInputGCPercent}
}

// apply sets the policy; undo puts the runtime's settings back.
func (p memPolicy) apply() (undo func()) {
	if p.gcPercent <= 0 {
		return func() {}
	}
	prev := debug.SetGCPercent(p.gcPercent)
	return func() { debug.SetGCPercent(prev) }
}
