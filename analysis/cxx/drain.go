package cxx

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// The GM-writing DMA pipes: a store to GM leaves through MTE3 (UB → GM) or
// FIX (L0C → GM) and may still be in flight after the call that issued it.
const (
	PipeMTE3 uint8 = 1 << iota
	PipeFIX
	StorePipes = PipeMTE3 | PipeFIX
)

// WaitKind says how StoreDrain knows a call waits.
type WaitKind uint8

const (
	NotAWait WaitKind = iota
	// Waits: a barrier or wait the analysis decodes.
	Waits
	// NamedWait: an unresolved call named like a wait or a barrier
	// (`runtime_pipe_sync()`); it may drain everything or nothing. A rule
	// that warns on a missing drain hedges on it, one that warns on an
	// early publish takes it as drained.
	NamedWait
)

// StoreDrain reports the store pipes a call waits for, so that what they
// wrote to GM is complete after it, and how it knows. It is the one reading of "this call drains
// the stores" that every rule shares (EXT012's drain at the return,
// EXT016's data before its flag, EXT001's read after its own DMA):
//   - PipeBarrier<PIPE_ALL/PIPE_MTE3/PIPE_FIX>() and pipe_barrier(...);
//   - a wait on an event whose source is a store pipe
//     (WaitFlag<HardEvent::MTE3_S>, wait_flag(PIPE_MTE3, PIPE_S, id));
//   - a helper handed such an event that is not a set alone
//     (SyncFunc<HardEvent::MTE3_S>(), SetWaitFlag<HardEvent::MTE3_V>(id),
//     or an unresolved WaitEvent(HardEvent::MTE3_S));
//   - SyncAll in any form: the hardware barrier and the software one
//     (SyncAll(gm, ub)) start with PipeBarrier<PIPE_ALL>. The cube
//     returns from the software one at once, so its FIX stores are not
//     waited there; taken as drained all the same, to say less;
//   - TPipe's Destroy(), which waits on its events and adds a PIPE_ALL
//     barrier;
//   - an unresolved call named like a wait or a barrier: all of them,
//     as a NamedWait.
func StoreDrain(c Call, funcs *Funcs) (pipes uint8, kind WaitKind) {
	return storeDrain(c, funcs, false)
}

// ScalarDrain is StoreDrain as the scalar unit sees it: the store pipes
// whose writes are complete when the scalar unit runs past the call, so
// that its own later reads, or the return it reaches (the runtime's
// scalar reports the task done), come after them. A wait on an event is
// executed by the pipe it names second: `WaitFlag<HardEvent::MTE3_V>`
// stalls the vector pipe, while the scalar unit runs on and may return
// with the store still queued; only `_S` events stall the scalar unit. A
// barrier on the store pipe itself (`PipeBarrier<PIPE_MTE3>`) is still
// taken as a drain: the documentation says only that it orders that
// pipe, so the rules say less there.
func ScalarDrain(c Call, funcs *Funcs) (pipes uint8, kind WaitKind) {
	return storeDrain(c, funcs, true)
}

func storeDrain(c Call, funcs *Funcs, scalar bool) (pipes uint8, kind WaitKind) {
	switch c.Name {
	case "PipeBarrier", "pipe_barrier":
		return barrierPipes(BarrierPipe(c)), Waits
	case "SyncAll":
		if c.Receiver == nil {
			return StorePipes, Waits
		}
	case "Destroy":
		if c.Receiver != nil && len(c.Args) == 0 {
			return StorePipes, Waits
		}
	}
	if op, ok := decodeEventCall(c, (*grammar.Node).Text); ok {
		if op.Set {
			return 0, Waits
		}
		if scalar && !scalarWaits(op.Pair) {
			return 0, Waits
		}
		return eventSource(op.Pair), Waits
	}
	unresolved := len(funcs.Callees(c)) == 0
	if src, pair := handedEvent(c, unresolved); src != 0 {
		if scalar && !scalarWaits(pair) {
			return 0, Waits
		}
		return src, Waits
	}
	if unresolved {
		l := strings.ToLower(c.Name)
		for _, k := range []string{"barrier", "sync", "wait", "fence", "drain"} {
			if strings.Contains(l, k) {
				return StorePipes, NamedWait
			}
		}
	}
	return 0, NotAWait
}

// BarrierPipe is the pipe a barrier call names as written:
// `PipeBarrier<PIPE_ALL>()`'s template argument, `pipe_barrier(PIPE_MTE3)`'s
// argument; "" for none.
func BarrierPipe(c Call) string {
	if len(c.TArgs) > 0 {
		return c.TArgs[0].Text()
	}
	if len(c.Args) > 0 {
		return c.Args[0].Text()
	}
	return ""
}

// barrierPipes are the store pipes a pipe barrier's pipe argument covers.
func barrierPipes(pipe string) uint8 {
	switch name := pipeName(pipe); name {
	case "ALL":
		return StorePipes
	case "MTE3":
		return PipeMTE3
	case "FIX":
		return PipeFIX
	}
	return 0
}

// handedEvent is the store pipe of an event a helper is handed, when the
// helper does not only set it: as a template argument (its own WaitFlag
// names only its parameter), or as an argument of a wait or of a project
// helper (which passes it on to a wait the walk cannot decode). An
// unresolved call handed the event as a value is not taken to wait for it.
func handedEvent(c Call, unresolved bool) (uint8, string) {
	if strings.HasSuffix(c.Name, "EventID") || strings.Contains(c.Name, "Set") && !strings.Contains(c.Name, "Wait") {
		return 0, ""
	}
	args := c.TArgs
	if !unresolved || strings.Contains(c.Name, "Wait") {
		args = append(append([]*grammar.Node(nil), c.TArgs...), c.Args...)
	}
	for _, a := range args {
		pair := lastSegment(a.Text())
		if src := eventSource(pair); src != 0 {
			return src, pair
		}
	}
	return 0, ""
}

// scalarWaits reports whether a wait on the event pair ("MTE3_S",
// "FIX_V") stalls the scalar unit: the pipe named second waits.
func scalarWaits(pair string) bool {
	i := strings.IndexByte(pair, '_')
	if i < 0 {
		return false
	}
	switch pair[i+1:] {
	case "S", "ALL":
		return true
	}
	return false
}

func lastSegment(s string) string {
	return strings.TrimSpace(s[strings.LastIndex(s, ":")+1:])
}

// eventSource is the store pipe an event pair ("MTE3_S") waits for.
func eventSource(pair string) uint8 {
	switch {
	case strings.HasPrefix(pair, "MTE3_"):
		return PipeMTE3
	case strings.HasPrefix(pair, "FIX_"):
		return PipeFIX
	}
	return 0
}
