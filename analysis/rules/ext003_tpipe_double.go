package rules

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TPipeDouble flags a second TPipe created while another is live.
var TPipeDouble = register(&analysis.Analyzer{
	Code:     "EXT003",
	Name:     "tpipe-double",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "two live `AscendC::TPipe`s on one core: destroy the first before creating another, or share one",
		What: "Flags an `AscendC::TPipe` (a local, `new AscendC::TPipe`, or an object of a class holding a TPipe " +
			"member, also one built from variables, `Stage st(sub, n);`, which parses like a function declaration) created while an earlier one in the same function is still live on a core that compiles both: " +
			"its block has not ended and no `Destroy()` was called on it before. A TPipe destroyed by the " +
			"create-then-`Destroy()` idiom, or a class member destroyed in the constructor (catlass " +
			"`Arch::Resource`), is not live; an object's pipe ends where its function calls a method that destroys the member " +
			"in its own body, not under a test (`a.Done();` with `void Done() { pipe_.Destroy(); SyncAll(); }`). Pipes under disjoint core guards never meet, nor do pipes declared " +
			"together and used one after another: each `Destroy()`ed before the next is first used, read in the " +
			"function and in the bodies of the macros it calls (`TPipe a; TPipe b; RUN(a); a.Destroy(); RUN(b);`), where no cube " +
			"core of a mixed kernel constructs both (there each constructor presets the events `Destroy()` waits on). An " +
			"object whose class holds a TPipe and that is handed the live pipe (`op.Init(x, &pipe)`, or by value, in its own block: " +
			"an `op` of another branch is another object) works " +
			"with that pipe: one pipe, not two, unless the class calls its own member too (`scratch.InitBuffer(tmp, n)` beside " +
			"`pipe_->InitBuffer(buf, n)`). Pipes no one run reaches both of never meet: other branches of an `#if`, the " +
			"two sides of an `if`, or two `if`s testing one condition each way that the function never changes. A helper's own " +
			"TPipe (a local it creates, `TPipe scratch;` in `RowScale(row)`) is flagged when a caller, up to three calls up, " +
			"makes the call while a TPipe of its own is live (not yet `Destroy()`ed, its block not ended); a helper that first " +
			"`Destroy()`s a pipe it was handed (`tpipe.Destroy(); TPipe pipe;`), or a call made after a method destroyed its " +
			"object's member (`pipe_.Destroy(); Gather();`), is silent, and so, off the cube, is a caller's pipe used only in " +
			"other branches than the call (`if (TILING_KEY_IS(0)) { Queued(&pipe); } else { OwnPipe(); }`): it hands out " +
			"nothing there.",
		Why: "A TPipe owns the core's UB allocation and its pipe events; its constructor initializes them and " +
			"`Destroy()` (or the destructor) waits on them and releases them. Two live TPipes on one core hand out " +
			"overlapping UB and event ids, so buffers alias and waits never complete: wrong data or a hang. When you " +
			"interleave your own phase with a vendored kernel that has its own pipe, do not keep two live TPipes at once.",
		Example: "AscendC::TPipe ropePipe;\n" +
			"ropePipe.InitBuffer(ropeBuf, kRopeBytes);\n" +
			"AscendC::TPipe attnPipe;   // ropePipe is still live",
		UseInstead: "{\n" +
			"  AscendC::TPipe ropePipe;\n" +
			"  ropePipe.InitBuffer(ropeBuf, kRopeBytes);\n" +
			"  ...\n" +
			"}                          // or ropePipe.Destroy();\n" +
			"AscendC::TPipe attnPipe;",
		FixSafety: "No automatic fix: whether to end the first pipe's phase, call `Destroy()`, or share one pipe " +
			"depends on the buffers both phases still use.",
		Guide: "§3",
	},
	Run: runTPipeDouble,
})

func runTPipeDouble(pass *analysis.Pass) {
	sites := pass.Closure().TPipes()
	defer livePipesInCallers(pass, sites)
	heldTogether(pass, sites)
	for i, second := range sites {
		if pass.Stopped() {
			return
		}
		if second.Idiom {
			continue
		}
		c2 := second.Cores
		if c2 == grammar.None {
			continue
		}
		for _, first := range sites[:i] {
			if first.Fn != second.Fn || first.Fn == nil || first.Idiom {
				continue
			}
			common := first.Cores & c2
			if common == grammar.None {
				continue
			}
			if first.Scope == nil || !first.Scope.Contains(second.Node) {
				continue
			}
			if first.Destroy != nil && first.Destroy.End <= second.Node.Start {
				continue
			}
			if unit.ApartInRun(first.Node, second.Node, first.Fn) != unit.Together {
				continue
			}
			// On the cube each constructor presets the M_MTE1 events a
			// Destroy() waits on: two constructed pipes clash there
			// however they are used. Elsewhere only pipes handing out UB
			// and events at once do.
			if (!pass.Mixed() || common&grammar.AIC == 0) && (usedAfterDestroy(pass, first, second) || handedTo(pass, first, second)) {
				continue
			}
			line, _ := pass.File.Lines.Position(first.Node.Start)
			where := common
			if k := kindCores(pass); !pass.Mixed() && where&k != 0 {
				// A vector-only (or cube-only) kernel runs the code on
				// its one core type.
				where &= k
			}
			pass.Report(analysis.Diagnostic{
				Start: second.Node.Start,
				End:   second.Node.End,
				Message: "second TPipe " + tpipeLabel(second) + " created while " + tpipeLabel(first) +
					" (line " + strconv.Itoa(line+1) + ") is still live on the " + coreWords(where) +
					": two live TPipes hand out the same UB and pipe events; `Destroy()` the first or end its block first",
				Related: []analysis.Related{analysis.RelatedAt(pass.File, first.Node, "the first TPipe, still live")},
			})
			break
		}
	}
}

// heldTogether flags an object whose class holds two TPipes at once: its
// own member and a base's, or a member object's (`params_` of a class
// whose own `ubPipe_` is a TPipe). The report sits on the member that
// brings in the second pipe when the file declares it, else on the
// object.
func heldTogether(pass *analysis.Pass, sites []*unit.TPipe) {
	seen := map[*grammar.Node]bool{}
	for _, s := range sites {
		if len(s.Held) < 2 || s.Idiom || s.Cores == grammar.None || pass.Stopped() {
			continue
		}
		first, second := s.Held[0], s.Held[1]
		if !pass.Mixed() && heldDestroyed(pass, s.Held) {
			// One pipe is released before the other serves (`pipe.Destroy();`
			// then `pipeCopyCast.InitBuffer(...)`): off the cube, whose
			// constructors preset the same events, they take turns.
			continue
		}
		at, file := s.Node, pass.File
		if second.Field != nil && second.FieldFile == pass.File && second.Field.Parent() != nil {
			at = second.Field.Parent()
		}
		if seen[at] {
			continue
		}
		seen[at] = true
		pass.Report(analysis.Diagnostic{
			Start: at.Start,
			End:   at.End,
			Message: "`" + s.Name + "` (a `" + s.Class + "`) holds two TPipes at once: `" + first.Path + "` (declared in `" + first.Via +
				"`) and `" + second.Path + "` (declared in `" + second.Via + "`): two live TPipes hand out the same UB and pipe events; " +
				"keep one pipe and hand it to the other part",
			Related: []analysis.Related{
				analysis.RelatedAt(first.File, first.Member, "the first TPipe"),
				analysis.RelatedAt(second.File, second.Member, "the second TPipe"),
				analysis.RelatedAt(file, s.Node, "the object"),
			},
		})
	}
}

// heldDestroyed reports whether some code of the unit calls Destroy() on
// one of the held pipes' members (`this->pipe.Destroy()`).
func heldDestroyed(pass *analysis.Pass, held []unit.HeldPipe) bool {
	names := map[string]bool{}
	for _, h := range held {
		names[h.Member.Text()] = true
	}
	for _, f := range pass.Reach().Files {
		for _, n := range pass.Reach().Calls(f).Named("Destroy") {
			c, ok := cxx.AsCall(n)
			if !ok || c.Receiver == nil {
				continue
			}
			r := cxx.Unparen(c.Receiver)
			if r.Kind() == "field_expression" {
				r = r.ChildByField("field")
			}
			if r != nil && names[r.Text()] {
				return true
			}
		}
	}
	return false
}

// livePipesInCallers flags a helper's own TPipe (a local the helper
// creates and uses) when a caller, a few calls up, calls it while a TPipe
// of its own is live: `InvRms(row)` building `TPipe scratch;` under the
// entry's `TPipe pipe;`. The callers' pipes are those of the file itself
// and of the entries of the units compiling it.
func livePipesInCallers(pass *analysis.Pass, own []*unit.TPipe) {
	var helpers []*unit.TPipe
	for _, s := range own {
		if !s.Idiom && s.Class == "" && s.Name != "" && s.Fn != nil && s.Cores != grammar.None && !cxx.IsExternC(s.Fn) && !unit.IsKernelFunc(pass.File, s.Fn) {
			helpers = append(helpers, s)
		}
	}
	if len(helpers) == 0 || pass.Stopped() {
		return
	}
	pipesOf := map[*grammar.File][]*unit.TPipe{pass.File: own}
	for _, u := range pass.Units() {
		if len(u.Files) > 0 {
			if _, ok := pipesOf[u.Files[0]]; !ok {
				pipesOf[u.Files[0]] = u.TPipes()
			}
		}
	}
	funcs := pass.Reach().FuncIndex()
	memo := &callersFlushMemo{}
	type liveAt struct {
		pipe *unit.TPipe
		file *grammar.File
		call *grammar.Node
		via  string
	}
	var find func(fn *grammar.Node, cores grammar.Cores, depth int, seen map[*grammar.Node]bool) *liveAt
	find = func(fn *grammar.Node, cores grammar.Cores, depth int, seen map[*grammar.Node]bool) *liveAt {
		if depth > 3 || seen[fn] {
			return nil
		}
		seen[fn] = true
		for def, call := range memo.callers(funcs, fn) {
			if !callsDef(funcs, call, fn) {
				continue
			}
			at := cores & def.File.CoresOf(call)
			if at == grammar.None {
				continue
			}
			for _, p := range pipesOf[def.File] {
				if p.Fn != def.Node || p.Idiom || p.Scope == nil || !p.Scope.Contains(call) || p.Node.End > call.Start ||
					p.Cores&at == grammar.None || p.Destroy != nil && p.Destroy.End <= call.Start ||
					unit.ApartInRun(p.Node, call, def.Node) != unit.Together {
					continue
				}
				if (!pass.Mixed() || p.Cores&at&grammar.AIC == 0) && idleAt(def.File, p, call, def.Node) {
					// The pipe hands out nothing on the call's path (used only
					// in other branches): off the cube, whose constructors
					// preset the same events, the two do not meet.
					continue
				}
				return &liveAt{pipe: p, file: def.File, call: call, via: cxx.FunctionName(def.Node)}
			}
			if destroysParam(funcs, def.Node, call.Start) {
				continue
			}
			if l := find(def.Node, at, depth+1, seen); l != nil {
				return l
			}
		}
		return nil
	}
	for _, s := range helpers {
		if destroysParam(funcs, s.Fn, s.Node.Start) {
			continue // the pipe it was handed ends here first
		}
		l := find(s.Fn, s.Cores, 0, map[*grammar.Node]bool{})
		if l == nil {
			continue
		}
		line, _ := l.file.Lines.Position(l.pipe.Node.Start)
		callLine, _ := l.file.Lines.Position(l.call.Start)
		pass.Report(analysis.Diagnostic{
			Start: s.Node.Start,
			End:   s.Node.End,
			Message: fmt.Sprintf("second TPipe %s created in `%s` while %s (%s:%d) is still live: `%s` calls `%s` (line %d) "+
				"with it live, and that call reaches this one: two live TPipes hand out the same UB and pipe events; pass "+
				"the caller's pipe in, or `Destroy()` this one before the caller's pipe hands out buffers again", tpipeLabel(s),
				cxx.FunctionName(s.Fn), tpipeLabel(l.pipe), filepath.Base(l.file.Path), line+1, l.via, shortText(l.call), callLine+1),
			Related: []analysis.Related{
				analysis.RelatedAt(l.file, l.pipe.Node, "the caller's TPipe, still live"),
				analysis.RelatedAt(l.file, l.call, "the call made while it is live"),
			},
		})
	}
}

// idleAt reports whether pipe p is used after its creation only where
// no run through call goes: every use of its name in fn sits in another
// branch than the call (`if (TILING_KEY_IS(0)) { Queued(&pipe); } else
// if (TILING_KEY_IS(1)) { OwnPipe(); }`).
func idleAt(f *grammar.File, p *unit.TPipe, call, fn *grammar.Node) bool {
	if p.Name == "" || p.Class != "" {
		return false // an object's pipe is used by its methods
	}
	for _, id := range fn.Inside(f.Tree.OfKind("identifier")) {
		if id.Start < p.Node.End || id.Text() != p.Name {
			continue
		}
		if unit.ApartInRun(id, call, fn) == unit.Together {
			return false
		}
	}
	return true
}

// destroysParam reports whether fn calls `Destroy()`, before off, on a
// pipe it did not create: a parameter (the caller's pipe, handed in:
// `tpipe.Destroy(); TPipe pipe;`) or a member of its object (`pipe_.Destroy();
// Gather();` in a method of the class whose object the caller holds).
func destroysParam(funcs *cxx.Funcs, fn *grammar.Node, off uint32) bool {
	for _, n := range funcs.OwnCalls(fn) {
		if n.Start >= off {
			break
		}
		if c, ok := cxx.AsCall(n); ok && c.Name == "Destroy" && c.Receiver != nil {
			if root := cxx.Root(c.Receiver); root != "" {
				if d, _ := cxx.LocalDecl(root, n, fn); d == nil {
					return true
				}
			}
		}
	}
	return false
}

func tpipeLabel(s *unit.TPipe) string {
	switch {
	case s.Class != "":
		return "`" + s.Name + "` (a `" + s.Class + "` holding a TPipe)"
	case s.Name == "":
		return "`new AscendC::TPipe`"
	}
	return "`" + s.Name + "`"
}

func coreWords(c grammar.Cores) string {
	switch c {
	case grammar.AIC:
		return "cube core"
	case grammar.AIV:
		return "vector core"
	}
	return "cube and vector cores"
}

// usedAfterDestroy reports whether the second pipe is first used after the
// first is destroyed, reading fn's text after the second's declaration in
// order and the body of each macro it calls where it is called: pipes
// declared together and handed to one phase after another
// (`#define RUN_ALL() do { A op; op.Init(&a); op.Process(); a.Destroy();
// B op2; op2.Init(&b); ... } while (0)`). Both hand out UB and events
// only once used.
func usedAfterDestroy(pass *analysis.Pass, first, second *unit.TPipe) bool {
	if first.Name == "" || second.Name == "" || first.Class != "" || second.Class != "" || first.Fn == nil {
		return false
	}
	macros := pass.Closure().Macros()
	destroyed := false
	for _, id := range identsAfter(pass, first.Fn, second.Node.End) {
		if id.Start <= second.Node.End || !first.Fn.Contains(id) {
			continue
		}
		switch name := id.Text(); {
		case name == second.Name:
			return destroyed
		case name == first.Name:
			if fe := id.Parent(); fe == nil || fe.Parent() == nil {
				continue
			}
			if c, ok := cxx.AsCall(id.Parent().Parent()); ok && c.Name == "Destroy" && c.Receiver != nil && cxx.Root(c.Receiver) == first.Name {
				destroyed = true
			}
		default:
			p := id.Parent()
			if p == nil || p.Kind() != "call_expression" || p.ChildByField("function") != id {
				continue
			}
			for _, m := range macros.ByName[name] {
				if !m.FuncLike {
					continue
				}
				d, u := wordIndex(m.Body, first.Name+".Destroy"), wordIndex(m.Body, second.Name)
				if u >= 0 {
					return destroyed || d >= 0 && d < u
				}
				destroyed = destroyed || d >= 0
			}
		}
	}
	return false
}

// handedTo reports whether the object second, of a class holding a TPipe,
// is handed the pipe first (`op.Init(x, y, &pipe)`, `op.Init(x, pipe)`):
// the object works with that pipe (its own member is unused or a copy of
// it), so one pipe hands out UB and events, not two.
func handedTo(pass *analysis.Pass, first, second *unit.TPipe) bool {
	if first.Name == "" || first.Class != "" || second.Class == "" || second.Name == "" || first.Fn == nil {
		return false
	}
	if memberHandsOut(second) {
		// Its own member hands out buffers too (`scratch_.InitBuffer(...)`
		// beside `pipe_->InitBuffer(...)` of the pipe it was handed):
		// two pipes at once.
		return false
	}
	// The object's own scope: an `op` of another branch is another object.
	scope := second.Node.Ancestor("compound_statement")
	for _, id := range identsAfter(pass, first.Fn, second.Node.End) {
		if id.Start <= second.Node.End || !first.Fn.Contains(id) || id.Text() != first.Name || scope != nil && !scope.Contains(id) {
			continue
		}
		arg := id
		if p := arg.Parent(); p != nil && p.Kind() == "pointer_expression" {
			arg = p
		}
		list := arg.Parent()
		if list == nil || list.Kind() != "argument_list" {
			continue
		}
		if c, ok := cxx.AsCall(list.Parent()); ok && c.Receiver != nil && cxx.Root(c.Receiver) == second.Name {
			return true
		}
	}
	return false
}

// memberHandsOut reports whether the class of the object p creates
// calls a method on its TPipe member in its own body (`scratch_.InitBuffer(buf,
// n)`): a member in use, not one left idle.
func memberHandsOut(p *unit.TPipe) bool {
	if p.Member == nil {
		return false
	}
	cls := p.Member.Ancestor("field_declaration_list")
	if cls == nil {
		return false
	}
	name := p.Member.Text()
	for _, c := range cls.Inside(cls.Tree().OfKind("call_expression")) {
		if call, ok := cxx.AsCall(c); ok && call.Receiver != nil && cxx.Root(call.Receiver) == name {
			return true
		}
	}
	return false
}

// identsAfter lists the file's identifiers that start after off and
// before fn ends: found by binary search, where a scan from the file's
// start per pair of pipes was quadratic in a function holding many (a
// pipe per phase: 8% of check on a 4 MB function, 13% at 8 MB).
func identsAfter(pass *analysis.Pass, fn *grammar.Node, off uint32) []*grammar.Node {
	ids := pass.Nodes("identifier")
	lo := sort.Search(len(ids), func(k int) bool { return ids[k].Start > off })
	hi := len(ids)
	if fn.Tree() == pass.File.Tree {
		hi = lo + sort.Search(len(ids)-lo, func(k int) bool { return ids[lo+k].Start >= fn.End })
	}
	return ids[lo:hi]
}

// wordIndex is the offset of the first occurrence of w in s that starts
// and ends on a word boundary (blanks around the dot of a member call
// dropped), -1 when there is none.
func wordIndex(s, w string) int {
	s = strings.ReplaceAll(strings.ReplaceAll(s, " .", "."), ". ", ".")
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return i
		}
		off = i + 1
	}
}
