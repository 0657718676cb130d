package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// CrossFlagWaitUnset flags a cross-core wait on a flag counter that no set
// of the unit signals, while the unit does signal that core type on other
// ids: the two sides of one handshake name different ids.
var CrossFlagWaitUnset = register(&analysis.Analyzer{
	Code:     "EXT018",
	Name:     "crossflag-wait-unset",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "a cross-core wait on a flag id no set of the extern unit signals: the waiting core never returns",
		What: "Collects the unit's cross-core flag calls as EXT014 does (`CrossCoreSetFlag<mode, pipe>(id)`, " +
			"`CrossCoreWaitFlag(id)`, `NotifyEvent`/`WaitEvent`, raw `ffts_cross_core_sync` / `wait_flag_dev`, wrappers " +
			"taking the id or mode as a parameter, the project's macros), each set signalling one core family (mode 0 the " +
			"setter's own type, mode 1 the vectors, mode 2 the other type of the cluster). Flags a wait of a constant id on a " +
			"core type when no set of the unit signals that type's counter of that id, but sets of the unit do signal that " +
			"type on other ids: the handshake exists and its two sides disagree on the id (a cube that sets " +
			"`kScoreReady = 4` from one header while the vectors wait on `kScoreReady = 6` from another). Related " +
			"information lists those sets. Ids are resolved as EXT014 resolves them; a name defined in several namespaces " +
			"takes the definition the use sees (`vec::kReady`, a `using namespace vec;` before it, the namespace around it). " +
			"Silent when any set of the unit has an id or mode that is not a constant, when the unit calls a function it does " +
			"not define whose name says it may signal (`notify_peer()`, `ffts_signal(...)`: its set is out of sight), in a unit " +
			"with Ascend 950 mode-4 flags (their ids map per vector lane, `id` and `id + 16`), for ids 11–14 beside a hardware " +
			"`SyncAll` (the barrier's own), and for waits no kernel of the unit reaches.",
		Why: "`CrossCoreWaitFlag(id)` blocks the core until its counter for that id has a count, and only a set " +
			"signalling that core's family with that id gives one. With the ids mismatched, the consumer waits forever " +
			"and the kernel hangs (507018), or, if another synchronisation happens to use the id, wakes on the wrong event.",
		Example: "// cube_flags.h\nconstexpr uint16_t kReady = 4;\nAscendC::CrossCoreSetFlag<2, PIPE_FIX>(kReady);\n" +
			"// vec_flags.h\nconstexpr uint16_t kReady = 6;\nAscendC::CrossCoreWaitFlag(kReady);   // nothing sets 6",
		UseInstead: "// flags.h, included by both sides\nconstexpr uint16_t kReady = 4;",
		Guide:      "§5",
	},
	Run: runCrossFlagWaitUnset,
})

func runCrossFlagWaitUnset(pass *analysis.Pass) {
	files := append(append([]*grammar.File(nil), pass.Reach().Headers()...), pass.File)
	if !mentionsFlags(files) || !bytesContainWait(pass.File) {
		return
	}
	sites := reachFlagSites(pass, files, pass.Reach().Consts())
	if !slices.ContainsFunc(sites, func(s cxx.FlagSite) bool { return s.Kind == cxx.FlagWait && s.File == pass.File }) || unseenSignal(pass) {
		return
	}
	kind := kindCores(pass)
	dead := deadConstexprs(pass.Consts)

	// A helper's set or wait runs on the cores that call it.
	callers := &coresMemo{pass: pass}
	// signalled holds, per receiving core family, the ids its sets give.
	signalled := map[grammar.Cores]map[int64][]*cxx.FlagSite{grammar.AIC: {}, grammar.AIV: {}}
	var syncAll bool
	for i := range sites {
		s := &sites[i]
		if s.Kind != cxx.FlagSet {
			continue
		}
		cores := s.Cores() & kind
		if by := cores & callers.fnCores(cxx.EnclosingFunction(s.Node), 0); by != grammar.None {
			// Narrowed by its callers' guards; when they seem to
			// reach it on no core, the set still counts.
			cores = by
		}
		if cores == grammar.None || dead.Of(s.Node) {
			continue
		}
		if s.Mode == 4 {
			return // Ascend 950's intra-block ids map per lane (id, id+16): not modelled
		}
		if !s.ModeKnown || len(s.Flags) != 1 || s.IDInCfg {
			return // a set whose id or mode is not known may be the one
		}
		for _, c := range []grammar.Cores{grammar.AIC, grammar.AIV} {
			if cores&c == 0 {
				continue
			}
			t := flagTarget(c, s.Mode)
			for _, to := range []grammar.Cores{grammar.AIC, grammar.AIV} {
				if t&to != 0 {
					signalled[to][s.Flags[0]] = append(signalled[to][s.Flags[0]], s)
				}
			}
		}
	}
	syncAll = pass.Reach().Sync().Barrier != nil
	reported := map[*grammar.Node]bool{}
	for i := range sites {
		if pass.Stopped() {
			return
		}
		s := &sites[i]
		if s.Kind != cxx.FlagWait || s.File != pass.File || len(s.Flags) != 1 || reported[s.Node] {
			continue
		}
		id := s.Flags[0]
		if s.ModeKnown && s.Mode == 4 {
			continue
		}
		cores := s.Cores() & kind & callers.fnCores(cxx.EnclosingFunction(s.Node), 0)
		if cores == grammar.None || dead.Of(s.Node) || syncAll && id >= 11 && id <= 14 {
			continue
		}
		if !pass.ReachedAt(s.File.Path, s.Node.Start) {
			continue
		}
		// Every core that runs the wait must lack the id, on a counter
		// the unit does signal.
		missing := grammar.None
		for _, c := range []grammar.Cores{grammar.AIC, grammar.AIV} {
			if cores&c == 0 {
				continue
			}
			if len(signalled[c][id]) > 0 || len(signalled[c]) == 0 {
				missing = grammar.None
				break
			}
			missing |= c
		}
		if missing == grammar.None {
			continue
		}
		reported[s.Node] = true
		pass.Report(unsetDiagnostic(pass, s, missing, id, signalled))
	}
}

// unseenSignal reports whether the unit calls a function it does not
// define whose name says it may signal another core (`notify_peer()`,
// `ffts_signal(...)`, `cross_core_sync(...)`): its set is out of sight.
func unseenSignal(pass *analysis.Pass) bool {
	funcs := pass.Reach().FuncIndex()
	for _, def := range funcs.All() {
		for _, n := range funcs.Calls(def.Node) {
			c, ok := cxx.AsCall(n)
			if !ok || !cxx.MaybeProjectCall(c) || len(funcs.Callees(c)) > 0 {
				continue
			}
			l := strings.ToLower(c.Name)
			for _, w := range []string{"notify", "signal", "crosscore", "cross_core", "ffts", "sync"} {
				if strings.Contains(l, w) {
					return true
				}
			}
		}
	}
	return false
}

// bytesContainWait is a cheap text test: the file holds a wait.
func bytesContainWait(f *grammar.File) bool {
	return bytes.Contains(f.Src, []byte("Wait")) || bytes.Contains(f.Src, []byte("wait_flag_dev"))
}

func unsetDiagnostic(pass *analysis.Pass, s *cxx.FlagSite, c grammar.Cores, id int64, signalled map[grammar.Cores]map[int64][]*cxx.FlagSite) analysis.Diagnostic {
	others := map[int64]*cxx.FlagSite{}
	for _, k := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		if c&k == 0 {
			continue
		}
		for id, sets := range signalled[k] {
			if o := others[id]; o == nil || sets[0].File == o.File && sets[0].Node.Start < o.Node.Start {
				others[id] = sets[0]
			}
		}
	}
	ids := make([]int64, 0, len(others))
	for k := range others {
		ids = append(ids, k)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var list []string
	var related []analysis.Related
	for _, k := range ids {
		set := others[k]
		line, _ := set.File.Lines.Position(set.Node.Start)
		list = append(list, fmt.Sprintf("%d (%s:%d)", k, filepath.Base(set.File.Path), line+1))
		if len(related) < 4 {
			related = append(related, analysis.RelatedAt(set.File, set.Node, fmt.Sprintf("signals the %s core's flag %d", coreWord(c), k)))
		}
	}
	return analysis.Diagnostic{
		Start: s.Node.Start,
		End:   s.Node.End,
		Message: fmt.Sprintf("`%s` waits on the %s core's flag %d, but no set of this unit signals it: the sets that signal the %s "+
			"core use %s; the waiting core never returns%s. Make both sides of the handshake use one id",
			shortText(s.Node), coreWord(c), id, coreWord(c), strings.Join(list, ", "), hangCode(pass, s.Node.Start)),
		Related: related,
	}
}

func coreWord(c grammar.Cores) string {
	switch c {
	case grammar.AIC:
		return "cube"
	case grammar.AIV:
		return "vector"
	}
	return "cube and vector"
}
