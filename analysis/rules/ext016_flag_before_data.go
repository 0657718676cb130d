package rules

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// FlagBeforeData flags a ready flag published while the DMA write of the
// data before it may still be in flight.
var FlagBeforeData = register(&analysis.Analyzer{
	Code:     "EXT016",
	Name:     "flag-before-data",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "a flag published right after a DMA write to GM can reach the waiting core before the data: wait for the DMA's pipe first",
		What: "Finds the flag publishes of a file that also polls a GM word by DMA (a loop copying GM into UB and leaving " +
			"only on a value read back from it: `while (true) { DataCopy(ub, flagGm, 8); ...; if (ub.GetValue(0) == tag) break; }`; " +
			"a flag protocol's set and wait are written side by side): " +
			"a DMA to GM, of a size written as constants, of a UB word the function set by scalar (`flag.SetValue(0, tag); ...; " +
			"DataCopy(flagGm, flag, 8)`; not a value moved inside UB, `ub.SetValue(i, ub.GetValue(j))`, nor a table copied with a " +
			"run-time size), directly or through a flag helper (a function whose only work on GM or flags is such publishes, as " +
			"`Record(tag)`). In each function it follows the DMA writes to GM before them (`DataCopy`/`DataCopyPad` to a " +
			"`GlobalTensor` or `__gm__` memory, `copy_ubuf_to_gm`, `Fixpipe`, also a helper whose last work is one, as a " +
			"GM-to-GM copy through UB) and flags the publish when a path reaches it from the data write with no wait for " +
			"the write's pipe between: `PipeBarrier<PIPE_MTE3>` or `<PIPE_ALL>` (`pipe_barrier`), a wait on an event from " +
			"that pipe (`WaitFlag<HardEvent::MTE3_S>`, `wait_flag(PIPE_MTE3, …)`, a wrapper given the event, " +
			"`SyncFunc<HardEvent::MTE3_S>()`), a `SyncAll`, `TPipe::Destroy()`, or an unresolved call named like a barrier " +
			"or a wait (EXT012 counts the same drains; it only hedges on the unresolved one). A wait on " +
			"another core (a poll, `CrossCoreWaitFlag`) between them ends the relation: the flag after it answers the wait. " +
			"Branches join; loops are followed round twice (a copy of one iteration meets the next iteration's publish), " +
			"and a loop that waits for the pipe on some path is taken to wait before it is left. A cross-core set " +
			"(`CrossCoreSetFlag<mode, pipe>`, `NotifyEvent<pipe>`, `ffts_cross_core_sync(pipe, cfg)`) issued on a DMA pipe " +
			"leaves behind that pipe's work, and the pipe says what it announces (a set on PIPE_MTE2 after the output's copy " +
			"frees an input buffer, not the output): it is not judged. One issued on the scalar pipe (`PIPE_S`, written or " +
			"the default of a helper's template parameter the call leaves: `template <pipe_t P = PIPE_S> void Post(id)` " +
			"called as `Post(kReady)`) leaves at once and is judged like a publish, when every wait of the unit on its " +
			"flag id whose next DMA is known reads GM (the cube pulls the tile the lanes stored) and at least one does; a " +
			"waiter that writes first was handed a free buffer, not data. Where it applies: every device " +
			"kernel; the helpers' bodies must be in the unit (an unresolved `#include` hides them), and the waits of a " +
			"set must be in the unit to judge it (a cube kernel in another source is not).",
		Why: "A DMA runs asynchronously to the scalar unit that issued it: the scalar unit goes on as soon as the " +
			"copy is queued, and two copies queued on one pipe overlap (instructions of one pipe that depend on each " +
			"other need `PipeBarrier` between them). The flag word, a few bytes, can land before the data, many: the core " +
			"or rank waiting on the flag then reads the data buffer before it is written (or, for a \"taken\" flag, the " +
			"producer overwrites what is still being copied). The compiler's automatic synchronisation does not help: " +
			"the flag and the data are different addresses, so nothing ties them.",
		Example: "DataCopy(dataGm[off], outLocal, n);          // MTE3, asynchronous\n" +
			"flagLocal.SetValue(0, tag);\nSetFlag<HardEvent::S_MTE3>(EVENT_ID0);\nWaitFlag<HardEvent::S_MTE3>(EVENT_ID0);\n" +
			"DataCopy(flagGm, flagLocal, 8);              // the flag: can land first",
		UseInstead: "DataCopy(dataGm[off], outLocal, n);\nPipeBarrier<PIPE_MTE3>();                    // the data has landed\n" +
			"flagLocal.SetValue(0, tag);\n...\nDataCopy(flagGm, flagLocal, 8);",
		FixSafety: "No fix: where the wait goes (before the publish, or inside the helper that writes the flag) is the author's call.",
		Guide:     "facts: How an extern is built and run (pipe handoffs are explicit), Cross-core flags",
	},
	Run: runFlagBeforeData,
})

func runFlagBeforeData(pass *analysis.Pass) {
	fns := pass.Nodes("function_definition")
	if len(fns) == 0 || !mayStoreToGM(pass) {
		return
	}
	u := pass.Reach()
	if !slices.ContainsFunc(u.Files, func(f *grammar.File) bool {
		return unit.DerivedFileFact(u, f, pollsGMKey) || unit.FileFact(pass.Closure(), f, namesScalarPipeKey)
	}) {
		// No file of what the file's compiles see polls a GM word or
		// names the scalar pipe for a cross-core set: no flag is
		// published, and no function needs summarising.
		return
	}
	po := unit.Fact(u, publishOrderKey)
	var handoffs *dataHandoffs
	for _, fn := range fns {
		if pass.Cores(fn) == grammar.None {
			continue
		}
		for _, ep := range po.EarlyPublishes(pass.Context(), fn) {
			if ep.File != pass.File {
				continue
			}
			if _, cross := cxx.AsFlagCall(ep.Publish, pass.Reach().Consts()); cross {
				if handoffs == nil {
					handoffs = newDataHandoffs(po, reachFlagSites(pass, append(append([]*grammar.File(nil), u.Headers()...), pass.File), u.Consts()))
				}
				if handoffs.announces(ep) {
					reportScalarSet(pass, ep)
				}
				continue
			}
			what := "DMA of a flag word set by scalar"
			subject := "this " + what
			rel := []analysis.Related{{File: ep.File.Path, Start: ep.DMA.Start, End: ep.DMA.End, Message: "the DMA write that may still be in flight"}}
			if ep.Publish != ep.At {
				subject = "`" + shortText(ep.At) + "` (a " + what + ", `" + shortText(ep.Publish) + "`" + fileLine(pass, ep.PublishFile, ep.Publish) + ")"
				rel = append(rel, analysis.Related{File: ep.PublishFile.Path, Start: ep.Publish.Start, End: ep.Publish.End, Message: "the flag published"})
			}
			pass.Report(analysis.Diagnostic{
				Start: ep.At.Start,
				End:   ep.At.End,
				Message: subject + " publishes a flag while the DMA write `" + shortText(ep.DMA) + "`" + fileLine(pass, ep.File, ep.DMA) +
					" may still be in flight: the waiting core can see the flag before the data; wait for the DMA's pipe first " +
					"(`PipeBarrier<PIPE_MTE3>()`, or `PIPE_ALL`)",
				Related: rel,
			})
		}
	}
}

// dataHandoffs tells, per flag id, whether the unit's waits on it are
// handed data to read: each wait whose next DMA is known reads GM (the
// cube pulls the tile the lanes stored), and one does. A waiter that
// writes first was handed a free buffer, which a set from the scalar
// pipe after an unrelated store may well announce.
type dataHandoffs struct {
	po     *cxx.PublishOrder
	setIDs map[*grammar.Node][]int64 // a set's ids, by its node
	waits  map[int64][]*grammar.Node
	memo   map[int64]bool
}

func newDataHandoffs(po *cxx.PublishOrder, sites []cxx.FlagSite) *dataHandoffs {
	h := &dataHandoffs{po: po, setIDs: map[*grammar.Node][]int64{}, waits: map[int64][]*grammar.Node{}, memo: map[int64]bool{}}
	for _, s := range sites {
		switch s.Kind {
		case cxx.FlagSet:
			h.setIDs[s.Node] = append(h.setIDs[s.Node], s.Flags...)
		case cxx.FlagWait:
			for _, id := range s.Flags {
				h.waits[id] = append(h.waits[id], s.Node)
			}
		}
	}
	return h
}

// announces reports whether the cross-core set of ep (its call, or the
// helper's call of it) hands data on every flag id it may set.
func (h *dataHandoffs) announces(ep cxx.EarlyPublish) bool {
	ids := append(append([]int64(nil), h.setIDs[ep.At]...), h.setIDs[ep.Publish]...)
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if !h.dataFor(id) {
			return false
		}
	}
	return true
}

func (h *dataHandoffs) dataFor(id int64) bool {
	if v, ok := h.memo[id]; ok {
		return v
	}
	reads := 0
	for _, w := range h.waits[id] {
		r, known := h.po.ReadsAfterWait(w)
		if known && !r {
			reads = -1
			break
		}
		if known {
			reads++
		}
	}
	h.memo[id] = reads > 0
	return reads > 0
}

// reportScalarSet reports a cross-core set issued on the scalar pipe
// while the DMA write of the data it announces may still be in flight.
func reportScalarSet(pass *analysis.Pass, ep cxx.EarlyPublish) {
	subject := "`" + shortText(ep.At) + "` (a cross-core set on the scalar pipe)"
	rel := []analysis.Related{{File: ep.File.Path, Start: ep.DMA.Start, End: ep.DMA.End, Message: "the DMA write that may still be in flight"}}
	if ep.Publish != ep.At {
		subject = "`" + shortText(ep.At) + "` (a cross-core set on the scalar pipe, `" + shortText(ep.Publish) + "`" + fileLine(pass, ep.PublishFile, ep.Publish) + ")"
		rel = append(rel, analysis.Related{File: ep.PublishFile.Path, Start: ep.Publish.Start, End: ep.Publish.End, Message: "the set, issued on PIPE_S"})
	}
	pass.Report(analysis.Diagnostic{
		Start: ep.At.Start,
		End:   ep.At.End,
		Message: subject + " signals the waiting core while the DMA write `" + shortText(ep.DMA) + "`" + fileLine(pass, ep.File, ep.DMA) +
			" may still be in flight, and the waiter reads that memory first: a set from PIPE_S leaves at once, ahead of the " +
			"DMA; issue it on the write's pipe (`CrossCoreSetFlag<mode, PIPE_MTE3>`, `PIPE_FIX` after a `Fixpipe`) or wait " +
			"for the pipe first (`PipeBarrier<PIPE_MTE3>()`)",
		Related: rel,
	})
}

// fileLine is " (line N)" in the pass's file, " (file.h:N)" elsewhere.
func fileLine(pass *analysis.Pass, f *grammar.File, n *grammar.Node) string {
	line, _ := f.Lines.Position(n.Start)
	if f == pass.File {
		return fmt.Sprintf(" (line %d)", line+1)
	}
	return fmt.Sprintf(" (%s:%d)", filepath.Base(f.Path), line+1)
}

// pollsGMKey says whether a file polls a GM word by DMA (cxx.PollsGM):
// once per parse, not once per unit including it.
var pollsGMKey = &unit.DerivedFileKey[bool]{
	Name:    "rules.ext016.pollsGM",
	Compute: func(u *unit.Unit, f *grammar.File) bool { return cxx.PollsGM(u.Calls(f)) },
}

// namesScalarPipeKey says whether a file names `PIPE_S` (a cross-core
// set on the scalar pipe can only be written so): once per parse.
var namesScalarPipeKey = &unit.FileKey[bool]{
	Name: "rules.ext016.namesScalarPipe",
	Compute: func(_ context.Context, f *grammar.File) bool {
		for rest := f.Src; ; {
			i := bytes.Index(rest, []byte("PIPE_S"))
			if i < 0 {
				return false
			}
			rest = rest[i+len("PIPE_S"):]
			if len(rest) == 0 || !isIdentByte(rest[0]) {
				return true
			}
		}
	},
}

// publishOrderKey is a unit's publish-order analysis: one memo of
// function summaries for every file of the unit.
var publishOrderKey = &unit.UnitKey[*cxx.PublishOrder]{
	Name: "rules.ext016.publishOrder",
	Compute: func(_ context.Context, u *unit.Unit) *cxx.PublishOrder {
		return cxx.NewPublishOrder(u.Summaries(), u)
	},
}
