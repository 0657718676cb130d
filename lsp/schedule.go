package lsp

import (
	"context"
	"errors"
	"sync"
)

// The focused document first: an analysis a request waits for, or of the
// document being edited, is foreground; re-diagnosing the other open
// documents and workspace diagnostics are background. A foreground run
// never waits behind background ones, nor shares the cores with them: it
// stops every background run under way (they run again once no
// foreground work is left, reusing the facts they finished). Background
// runs use at most bgSlots slots.

// errPreempted is the cause of a background run stopped for foreground
// work.
var errPreempted = errors.New("preempted by foreground work")

type priorityKey struct{}

// background marks ctx's analyses as background work.
func background(ctx context.Context) context.Context {
	return context.WithValue(ctx, priorityKey{}, true)
}

func isBackground(ctx context.Context) bool {
	b, _ := ctx.Value(priorityKey{}).(bool)
	return b
}

// scheduler hands out analysis slots by priority.
type scheduler struct {
	mu      sync.Mutex
	slots   int
	bgSlots int
	running int
	// fg counts the foreground runs waiting or running: background waits
	// while there is any.
	fg int
	// bg are the running background runs' cancels.
	bg map[*bgRun]bool
	// wake is closed (and replaced) whenever a slot frees or fg drops.
	wake chan struct{}
}

type bgRun struct{ cancel context.CancelCauseFunc }

func newScheduler(slots int) *scheduler {
	return &scheduler{slots: slots, bgSlots: max(1, slots/2), bg: map[*bgRun]bool{}, wake: make(chan struct{})}
}

// broadcast wakes every waiter (sc.mu held).
func (sc *scheduler) broadcast() {
	close(sc.wake)
	sc.wake = make(chan struct{})
}

// acquire waits for a slot for a run under ctx and returns the context to
// run it with and the release of the slot. A background run's context is
// cancelled with errPreempted when foreground work needs its slot.
func (sc *scheduler) acquire(ctx context.Context) (context.Context, func(), error) {
	if isBackground(ctx) {
		return sc.acquireBackground(ctx)
	}
	done := sc.foreground()
	sc.mu.Lock()
	for sc.running >= sc.slots {
		wake := sc.wake
		sc.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			done()
			return nil, nil, ctx.Err()
		}
		sc.mu.Lock()
	}
	sc.running++
	sc.mu.Unlock()
	return ctx, func() {
		sc.mu.Lock()
		sc.running--
		sc.mu.Unlock()
		done()
	}, nil
}

// foreground counts foreground work under way until done is called: a
// run in a slot, or the parse before it (most of an open). On a busy
// machine a background run beside it would take CPU from it: background
// runs stop now and start again once no foreground work is left.
func (sc *scheduler) foreground() (done func()) {
	sc.mu.Lock()
	sc.fg++
	for r := range sc.bg {
		r.cancel(errPreempted)
	}
	sc.mu.Unlock()
	return func() {
		sc.mu.Lock()
		sc.fg--
		sc.broadcast()
		sc.mu.Unlock()
	}
}

// idle waits until no foreground work is under way; busy runs once if it
// has to wait.
func (sc *scheduler) idle(ctx context.Context, busy func()) error {
	for first := true; ; first = false {
		sc.mu.Lock()
		fg, wake := sc.fg, sc.wake
		sc.mu.Unlock()
		if fg == 0 {
			return nil
		}
		if first && busy != nil {
			busy()
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (sc *scheduler) acquireBackground(ctx context.Context) (context.Context, func(), error) {
	sc.mu.Lock()
	for sc.fg > 0 || sc.running >= sc.slots || len(sc.bg) >= sc.bgSlots {
		wake := sc.wake
		sc.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		sc.mu.Lock()
	}
	rctx, cancel := context.WithCancelCause(ctx)
	r := &bgRun{cancel: cancel}
	sc.bg[r] = true
	sc.running++
	sc.mu.Unlock()
	return rctx, func() {
		cancel(nil)
		sc.mu.Lock()
		delete(sc.bg, r)
		sc.running--
		sc.broadcast()
		sc.mu.Unlock()
	}, nil
}

// preempted reports whether a run ended because foreground work took its
// slot (and not because its own caller gave up).
func preempted(parent, run context.Context) bool {
	return parent.Err() == nil && errors.Is(context.Cause(run), errPreempted)
}

// focused returns the document last edited or opened.
func (s *Server) focused() *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.focus
}
