package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// CrossFlagIDCollision flags one FFTS flag id shared by synchronisations of
// different modes that signal the same cores.
var CrossFlagIDCollision = register(&analysis.Analyzer{
	Code:     "EXT014",
	Name:     "crossflag-id-collision",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "one FFTS flag id used by two synchronisations of different modes on the same cores: each consumes the other's counts",
		What: "Collects every cross-core flag set of the extern unit (the entry and everything it includes): " +
			"`CrossCoreSetFlag<mode, pipe>(id)`, `NotifyEvent<pipe>(id)`, raw `ffts_cross_core_sync(pipe, cfg)`, and " +
			"calls of wrappers whose flag call takes its mode or id from the wrapper's template parameters or arguments " +
			"(`FftsCrossCoreSync<PIPE_MTE3, 2>(kFlag)`, `notify<2>(kFlag)`) and of the project's macros " +
			"(`#define SIGNAL(id) AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(id)`, judged at each use; one that forwards its arguments, " +
			"`INTRINSIC(ffts_cross_core_sync, PIPE_MTE3, cfg)`, is the call it expands to), with ids and modes resolved through " +
			"literals, constants, enums, `#define`s and locals initialised once (`int id = 3;`). Each set signals one core family: mode 0 the setter's own type " +
			"(all cubes or all vectors), mode 1 the vectors, mode 2 the other type of the cluster (cube→vector or " +
			"vector→cube). Flags a set whose id another set with a different mode also signals on the same family; " +
			"related information points at the other synchronisation. A set the file compiles for both core types in " +
			"a mixed extern (the direction of its mode is unknown) is not judged, nor are ids that are not constant, " +
			"nor two sets of the same mode (the same handshake written twice, or phases the analysis cannot tell apart), " +
			"nor two sets no launch runs together (in two kernels of a file, on the two sides of a compile-time choice, " +
			"or in two cases of the kernel entry's `switch` or `if` on a value every core reads alike, such as a tiling key), " +
			"nor a set in a library function no kernel of the unit calls (a barrier helper the kernels stopped using), " +
			"nor a mode-0 barrier (a set its own wait of the id follows, `SyncAllImpl`'s cube-only `GetffstMsg(0x0, 11)`) beside a " +
			"handshake on the same counter whose sets and waits pair off in every phase (the model EXT005 shares: in one function, each " +
			"set with a wait in the same place, the same loops and tests written alike around both, as many barrier-reaching calls before " +
			"each, no lane test around a vector core's side): every handshake count is taken by its own wait before the next barrier, and " +
			"the barrier's count reaches a core only once every core of the type is in the barrier, so neither wait can take the " +
			"other's. A loop with another trip count on one side, a set under a lane test or a missing wait stays flagged. " +
			"Mode-4 sets (Ascend 950's intra-block handshakes, `set_intra_block`) are not judged: whether they share a " +
			"counter with an FFTS flag of the same id is not documented. Modes 0–2 mean the same on A2/A3 and Ascend 950.",
		Why: "A cross-core flag is a counter per id on each receiving core: `CrossCoreWaitFlag(id)` waits for a count " +
			"and consumes it, whatever synchronisation produced it. A mode-0 barrier on the vectors and a mode-2 " +
			"cube→vector handshake on the same id both count on the vector cores, and nothing orders the cube's set " +
			"against the vectors' barrier: the barrier's wait can take the cube's count and release before the other " +
			"vectors arrived, and the handshake's wait then waits for a count that was already consumed (507018 hang) " +
			"or takes a barrier count and reads data the cube has not written. Give each synchronisation its own id.",
		Example: "constexpr uint16_t kReady = 3;     // cube -> vector handshake\nconstexpr uint16_t kAllVec = 3;    // vector barrier\n" +
			"if ASCEND_IS_AIC { AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kReady); }\n" +
			"if ASCEND_IS_AIV {\n  AscendC::CrossCoreWaitFlag(kReady);\n  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(kAllVec);\n  AscendC::CrossCoreWaitFlag(kAllVec);\n}",
		UseInstead: "constexpr uint16_t kReady = 3;\nconstexpr uint16_t kAllVec = 4;    // an id no other synchronisation uses",
		FixSafety: "Unsafe: when the later set's id is a named constant (or a local initialised once) that the other " +
			"synchronisation does not use, the fix changes the constant's definition (the local's initialiser) to the next id above those the unit's flag calls use (else the " +
			"lowest free one), in 0–10 and not reserved by the project, which moves that synchronisation's set and its waits together. Without such " +
			"a constant no fix is offered: the waits cannot be told apart. Libraries own ids too (Matmul objects " +
			"0..2N-1, catlass barriers 8–10): check the new id against them, or list them in `reserved-flags`.",
		Guide: "§5",
	},
	Run: runCrossFlagIDCollision,
})

// flagUse is one set of a flag id, decoded for one receiving core family.
// It points into the rule's list of sites: a copy of the site per use was
// most of what the rule held on a file of thousands of sets.
type flagUse struct {
	site   *cxx.FlagSite
	id     int64
	mode   int64
	setter grammar.Cores
	target grammar.Cores
	order  int // position in the unit: files in include order, then offset
}

func runCrossFlagIDCollision(pass *analysis.Pass) {
	// A copy: the unit's file list is shared by every pass on the unit.
	files := append(append([]*grammar.File(nil), pass.Reach().Headers()...), pass.File)
	if !mentionsFlags(files) {
		return
	}
	// The reach's constants: its headers, then the file.
	r := pass.Reach().Consts()
	sites := reachFlagSites(pass, files, r)
	kind := kindCores(pass)
	exec := pass.Reach().Exec().Launched(pass.Reach().Variance(pass.Spend))
	fileOrder := map[*grammar.File]int{}
	for i, f := range files {
		fileOrder[f] = i
	}
	groups := map[[2]int64][]flagUse{}
	dead := deadConstexprs(pass.Consts)
	for i := range sites {
		if pass.Stopped() {
			return
		}
		s := &sites[i]
		if s.Kind != cxx.FlagSet || !s.ModeKnown || len(s.Flags) != 1 || s.Flags[0] < 0 || s.Flags[0] > cxx.MaxFlagID {
			continue
		}
		cores := s.Cores() & kind
		if cores == grammar.Both && s.Mode != 1 || cores == grammar.None || dead.Of(s.Node) {
			continue
		}
		if !pass.ReachedAt(s.File.Path, s.Node.Start) {
			continue // in a library function no kernel of the unit calls
		}
		if s.Mode == 1 {
			cores = grammar.AIV
		}
		target := flagTarget(cores, s.Mode)
		if target == grammar.None {
			continue
		}
		u := flagUse{site: s, id: s.Flags[0], mode: s.Mode, setter: cores, target: target,
			order: fileOrder[s.File]<<32 | int(s.Node.Start)}
		key := [2]int64{int64(target), u.id}
		groups[key] = append(groups[key], u)
	}
	var used map[int64]bool
	reported := map[*grammar.Node]bool{}
	keys := make([][2]int64, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		uses := groups[k]
		sort.SliceStable(uses, func(i, j int) bool { return uses[i].order < uses[j].order })
		first := uses[0]
		for i, u := range uses[1:] {
			if u.mode == first.mode || u.site.File != pass.File || reported[u.site.Node] {
				continue
			}
			// The first set before it of another mode that some launch
			// runs with it: sets in two kernels of a file, or in two
			// cases of the entry's `switch (tiling.key)`, never meet.
			other, asked := -1, 0
			for j := 0; j <= i && other < 0; j++ {
				if o := uses[j]; o.mode != u.mode {
					if asked++; asked > maxApartAsks || exec.Apart(u.site.Node, o.site.Node) == unit.Together {
						other = j
					}
				}
			}
			if other < 0 || handshakes(pass).safePair(u, uses[other]) {
				continue
			}
			reported[u.site.Node] = true
			if used == nil {
				used = usedFlagIDs(sites)
			}
			pass.Report(collisionDiagnostic(pass, r, u, uses[other], used))
		}
	}
}

// reachFlagSites are the flag calls of files (the reach's headers, then the
// pass's file), with the uses of the unit's macros whose bodies make one:
// a `#define SIGNAL(id) CrossCoreSetFlag<2, PIPE_MTE3>(id)` sets the flag
// its use names, on the cores that compile the use.
func reachFlagSites(pass *analysis.Pass, files []*grammar.File, r *cxx.Resolver) []cxx.FlagSite {
	sites := cxx.FlagSites(pass.Reach(), files, r)
	bodies := cxx.FlagBodies(pass.Reach(), pass.Reach().Macros().Shadows)
	for _, f := range files {
		sites = append(sites, bodies.FlagSites(pass.Reach(), f, r)...)
	}
	return sites
}

// maxApartAsks bounds the sets one set is compared with: past it the
// next is taken to meet it.
const maxApartAsks = 16

// mentionsFlags is a cheap text test before decoding every call of a unit.
func mentionsFlags(files []*grammar.File) bool {
	for _, f := range files {
		if bytes.Contains(f.Src, []byte("CrossCore")) || bytes.Contains(f.Src, []byte("NotifyEvent")) ||
			bytes.Contains(f.Src, []byte("ffts_cross_core_sync")) {
			return true
		}
	}
	return false
}

// flagTarget is the core family whose flag counter a set on `setter` with
// the given mode increments; None when the pair is not a valid one.
func flagTarget(setter grammar.Cores, mode int64) grammar.Cores {
	switch mode {
	case 0:
		return setter
	case 1:
		return grammar.AIV
	case 2:
		switch setter {
		case grammar.AIC:
			return grammar.AIV
		case grammar.AIV:
			return grammar.AIC
		}
	}
	return grammar.None
}

func usedFlagIDs(sites []cxx.FlagSite) map[int64]bool {
	used := map[int64]bool{}
	for _, s := range sites {
		for _, id := range s.Flags {
			used[id] = true
		}
	}
	return used
}

func modeText(mode int64, setter grammar.Cores) string {
	switch mode {
	case 0:
		return "mode-0 barrier of all " + coreName(setter) + " cores"
	case 1:
		return "mode-1 vector-lane handshake"
	}
	if setter == grammar.AIC {
		return "mode-2 cube→vector handshake"
	}
	return "mode-2 vector→cube handshake"
}

func collisionDiagnostic(pass *analysis.Pass, r *cxx.Resolver, u, other flagUse, used map[int64]bool) analysis.Diagnostic {
	line, _ := other.site.File.Lines.Position(other.site.Node.Start)
	where := fmt.Sprintf("%s:%d", filepath.Base(other.site.File.Path), line+1)
	msg := fmt.Sprintf("`%s` uses FFTS flag %d for a %s, but the %s at %s signals flag %d on the same %s cores: "+
		"a wait on flag %d consumes either's count, so one synchronisation releases early and the other hangs; "+
		"give each its own id", shortText(u.site.Node), u.id, modeText(u.mode, u.setter), modeText(other.mode, other.setter),
		where, u.id, coreName(u.target), u.id)
	d := analysis.Diagnostic{Start: u.site.Node.Start, End: u.site.Node.End, Message: msg,
		Related: []analysis.Related{analysis.RelatedAt(other.site.File, other.site.Node,
			fmt.Sprintf("the %s on flag %d", modeText(other.mode, other.setter), u.id))}}
	if u.site.Inner != nil {
		what := "the wrapper's flag call"
		if u.site.InnerFile.MacroOf != nil {
			what = "the flag call in the macro's body"
		}
		d.Related = append(d.Related, analysis.RelatedAt(u.site.InnerFile, u.site.Inner, what))
	}
	if fix, ok := collisionFix(pass, r, u, other, used); ok {
		d.Fixes = []analysis.Fix{fix}
	}
	return d
}

// collisionFix moves u's synchronisation to a free id by editing the named
// constant its set uses, when the other synchronisation does not use that
// constant: the set and its waits move together.
func collisionFix(pass *analysis.Pass, r *cxx.Resolver, u, other flagUse, used map[int64]bool) (analysis.Fix, bool) {
	if u.site.IDNode == nil || u.site.IDInCfg {
		return analysis.Fix{}, false
	}
	// A local set once (`int vecDone = 3;`) is edited at its initialiser.
	init := cxx.LocalInit(u.site.IDNode)
	def := cxx.NamedConstant(r, u.site.IDNode)
	switch {
	case init != nil:
		if other.site.IDNode != nil && cxx.LocalInit(other.site.IDNode) == init {
			return analysis.Fix{}, false
		}
	case def == nil:
		return analysis.Fix{}, false
	case other.site.IDNode != nil && cxx.NamedConstant(r, other.site.IDNode) == def:
		return analysis.Fix{}, false
	}
	// The next id above those in use keeps clear of EXT005, which moves
	// reserved ids to the lowest free ones.
	to, top := int64(-1), int64(-1)
	for id := int64(0); id <= 10; id++ {
		if used[id] {
			top = id
		}
	}
	for _, from := range []int64{top + 1, 0} {
		for id := from; id <= 10 && to < 0; id++ {
			if !used[id] && !pass.Settings.Reserved(id) {
				to = id
			}
		}
	}
	if to < 0 {
		return analysis.Fix{}, false
	}
	p := *pass
	p.Consts = r
	var edits []analysis.TextEdit
	var ok bool
	var name string
	if init != nil {
		edits, _, ok = idEdits(&p, u.site.File, init, false, to, 0)
		name = cxx.Unparen(u.site.IDNode).Text()
	} else {
		edits, ok = defEdits(&p, def, false, to, 0)
		name = strings.TrimSpace(def.Name)
	}
	if !ok {
		return analysis.Fix{}, false
	}
	return analysis.Fix{
		Title:         fmt.Sprintf("Change `%s` to flag id %d (was %d)", name, to, u.id),
		Applicability: analysis.Unsafe,
		Edits:         edits,
	}, true
}
