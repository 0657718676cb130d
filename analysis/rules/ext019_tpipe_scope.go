package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TPipeScope flags a TPipe that is a local of a method and hands out
// buffers to members of the method's object that other methods use after
// the method returned: the pipe's destructor freed them.
var TPipeScope = register(&analysis.Analyzer{
	Code:     "EXT019",
	Name:     "tpipe-scope",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "a TPipe local to one method gives its buffers to members that other methods use after it is destroyed",
		What: "Flags an `AscendC::TPipe` declared as a local of a method (`Init`) whose `InitBuffer` calls hand queue buffers " +
			"to members of the method's object (`pipe.InitBuffer(inQ_, 2, n)` with `TQue<...> inQ_;`), when another method of the " +
			"class uses such a queue (`inQ_.AllocTensor<float>()` in `Process`), some code calls that method, and the first method " +
			"does not call it, directly or a few calls down, while the pipe lives: it runs after the method returned and the pipe " +
			"was destroyed. A pipe handed in (`Init(..., TPipe *pipe)`), a member pipe, and buffers that are locals or parameters " +
			"are not judged. A `TBuf` member is not either: it keeps a UB address alone, which stays usable while no other pipe " +
			"hands that memory out again (a pipe made only to carve UB, like the create-then-`Destroy()` idiom).",
		Why: "A TPipe owns the memory its `InitBuffer` gives to queues and buffers: the documentation of `InitBuffer` says " +
			"its destructor releases that memory (and `Destroy()` waits on the pipe's events and releases them, see the " +
			"facts on TPipe). A queue used after its pipe went out of scope allocates, enqueues and dequeues on memory and " +
			"events no pipe owns any more: a later pipe or buffer reuses them and overwrites the data, and `EnQue`/`DeQue` " +
			"wait on events nobody sets (a hang).",
		Example: "class Norm {\n  __aicore__ inline void Init(GM_ADDR x) {\n    AscendC::TPipe pipe;          // destroyed as Init returns\n" +
			"    pipe.InitBuffer(inQ_, 2, kBytes);\n  }\n  __aicore__ inline void Process() {\n" +
			"    AscendC::LocalTensor<float> t = inQ_.AllocTensor<float>();   // freed memory\n  }\n};",
		UseInstead: "extern \"C\" __global__ __aicore__ void norm(GM_ADDR x) {\n  AscendC::TPipe pipe;   // lives as long as the kernel\n" +
			"  Norm op;\n  op.Init(x, &pipe);   // Init calls pipe->InitBuffer(inQ_, 2, kBytes)\n  op.Process();\n}",
		Guide: "§3",
	},
	Run: runTPipeScope,
})

func runTPipeScope(pass *analysis.Pass) {
	var sites []*unit.TPipe
	for _, s := range pass.Closure().TPipes() {
		if s.Class == "" && s.Name != "" && s.Fn != nil && s.Scope != nil && s.Cores != grammar.None && cxx.ClassOf(s.Fn) != "" {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		return
	}
	funcs := pass.Reach().FuncIndex()
	for _, s := range sites {
		if pass.Stopped() {
			return
		}
		class := cxx.ClassOf(s.Fn)
		given := membersGiven(pass.File, s)
		for name := range given {
			// A TBuf holds a UB address alone, which stays usable while no
			// other pipe hands the memory out again (a pipe made only to
			// carve UB); a queue's EnQue/DeQue and allocation go through
			// the pipe itself.
			if !slices.ContainsFunc(funcs.TypesOf(name), func(t string) bool { return strings.Contains(t, "TQue") }) {
				delete(given, name)
			}
		}
		if len(given) == 0 {
			continue
		}
		during := calledWithin(funcs, s.Fn, 3)
		user, use, member := laterUse(pass, funcs, class, s.Fn, during, given)
		if user == nil {
			continue
		}
		line, _ := user.File.Lines.Position(use.Start)
		pass.Report(analysis.Diagnostic{
			Start: s.Node.Start,
			End:   s.Node.End,
			Message: fmt.Sprintf("TPipe `%s` is a local of `%s`: its destructor frees the buffer it gave `%s` as `%s` returns, "+
				"but `%s` uses `%s` (%s:%d) after that; create the pipe where it outlives its users (the kernel function, "+
				"handing `&pipe` to `%s`) or make it a member", s.Name, cxx.FunctionName(s.Fn), member, cxx.FunctionName(s.Fn),
				user.Name, member, filepath.Base(user.File.Path), line+1, cxx.FunctionName(s.Fn)),
			Related: []analysis.Related{
				analysis.RelatedAt(pass.File, given[member], "the buffer the pipe hands out"),
				analysis.RelatedAt(user.File, use, "used after the pipe was destroyed"),
			},
		})
	}
}

// membersGiven are the members of the method's object the pipe's
// InitBuffer calls hand buffers to, by name, with the call.
func membersGiven(f *grammar.File, s *unit.TPipe) map[string]*grammar.Node {
	out := map[string]*grammar.Node{}
	body := s.Fn.ChildByField("body")
	if body == nil {
		return out
	}
	for _, n := range body.Inside(f.Tree.OfKind("call_expression")) {
		if n.Start < s.Node.End || !s.Scope.Contains(n) {
			continue
		}
		c, ok := cxx.AsCall(n)
		if !ok || c.Name != "InitBuffer" || c.Receiver == nil || cxx.Root(c.Receiver) != s.Name || len(c.Args) == 0 {
			continue
		}
		buf := cxx.Unparen(c.Args[0])
		if buf.Kind() == "field_expression" {
			// `this->inQ_`
			if arg := buf.ChildByField("argument"); arg == nil || arg.Text() != "this" {
				continue
			}
			buf = buf.ChildByField("field")
		}
		if buf == nil || (buf.Kind() != "identifier" && buf.Kind() != "field_identifier") {
			continue
		}
		name := buf.Text()
		if d, _ := cxx.LocalDecl(name, n, s.Fn); d != nil || isParam(s.Fn, name) {
			continue
		}
		if _, ok := out[name]; !ok {
			out[name] = n
		}
	}
	return out
}

func isParam(fn *grammar.Node, name string) bool {
	for _, p := range cxx.Params(fn) {
		if p.Name == name {
			return true
		}
	}
	return false
}

// calledWithin are the definitions fn calls, up to depth calls down.
func calledWithin(funcs *cxx.Funcs, fn *grammar.Node, depth int) map[*grammar.Node]bool {
	out := map[*grammar.Node]bool{fn: true}
	frontier := []*grammar.Node{fn}
	for d := 0; d < depth && len(frontier) > 0; d++ {
		var next []*grammar.Node
		for _, f := range frontier {
			for _, n := range funcs.OwnCalls(f) {
				c, ok := cxx.AsCall(n)
				if !ok {
					continue
				}
				for _, def := range funcs.Callees(c) {
					if !out[def.Node] {
						out[def.Node] = true
						next = append(next, def.Node)
					}
				}
			}
		}
		frontier = next
	}
	return out
}

// laterUse finds a method of class, other than fn and what fn calls while
// its pipe lives, that some code calls and that uses one of the members
// given: the method, the use and the member.
func laterUse(pass *analysis.Pass, funcs *cxx.Funcs, class string, fn *grammar.Node, during map[*grammar.Node]bool, given map[string]*grammar.Node) (*cxx.FuncDef, *grammar.Node, string) {
	memo := &callersFlushMemo{}
	for _, f := range pass.Reach().Files {
		for _, def := range f.Tree.OfKind("function_definition") {
			if during[def] || cxx.ClassOf(def) != class {
				continue
			}
			name := cxx.FunctionName(def)
			if name == class || name == "~"+class || def.ChildByField("body") == nil {
				continue
			}
			var use *grammar.Node
			var member string
			for _, kind := range []string{"field_identifier", "identifier"} {
				for _, id := range def.ChildByField("body").Inside(f.Tree.OfKind(kind)) {
					if _, ok := given[id.Text()]; !ok || use != nil && use.Start < id.Start {
						continue
					}
					if d, _ := cxx.LocalDecl(id.Text(), id, def); d != nil || isParam(def, id.Text()) {
						continue
					}
					use, member = id, id.Text()
					break
				}
			}
			if use == nil {
				continue
			}
			called := false
			for caller, call := range memo.callers(funcs, def) {
				if !during[caller.Node] && callsDef(funcs, call, def) {
					called = true
					break
				}
			}
			if called {
				return &cxx.FuncDef{File: f, Node: def, Name: name}, use, member
			}
		}
	}
	return nil, nil, ""
}
