package rules

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TopologyGetter flags the zero-argument block/lane getters, which read the
// persistent launch grid instead of the task's logical topology.
var TopologyGetter = register(&analysis.Analyzer{
	Code:     "EXT008",
	Name:     "topology-getter",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "zero-argument block/lane getters read the persistent launch grid; use the `(args)` getters",
		What: "Flags `get_block_idx()`, `get_block_num()`, `get_subblockid()`, `get_subblockdim()`, `GetBlockIdx()`, " +
			"`GetBlockNum()` and `GetSubBlockIdx()` called without arguments in an extern (unless the workspace " +
			"defines its own function or macro of that name), and each use of a macro of the unit whose body calls one " +
			"(`#define TASK_BLOCK(a) AscendC::GetBlockIdx()` used as `TASK_BLOCK(args)`; one defined once, not its " +
			"definition).",
		Why: "An extern is not its own launch: the runtime launches one persistent kernel on every core of the die and " +
			"calls your task from its poll loop. The hardware registers behind the zero-argument getters describe that " +
			"persistent grid (the whole die), not the task's `pl.spmd(N)` blocks, and the runtime never programs the " +
			"sub-block register, so `get_subblockid()` returns 0 on both vector lanes: both lanes take the same work and " +
			"the same flags. The runtime writes the task's block index, block count and lane id into the context behind " +
			"args; `get_block_idx(args)`, `get_block_num(args)` and `get_sub_block_id(args)` read them.",
		Example:    "uint32_t lane = get_subblockid();        // 0 on both AIV lanes",
		UseInstead: "uint32_t lane = get_sub_block_id(args);  // the task's lane id, set by the runtime",
		FixSafety: "Unsafe: rewrites the call to its `(args)` form using the args pointer of the enclosing function. " +
			"Offered only when that function takes the `__gm__ int64_t *` args parameter (helpers without it need the " +
			"value passed in), and only in runtime-ABI code (a stub links the extern, or every entry takes that one " +
			"parameter): an ordinary kernel's int64 pointer is data, not the task's args. `get_subblockdim()` has no args form (a c220 cluster has two vector lanes) and gets no fix.",
		Guide: "§1",
	},
	Run: runTopologyGetter,
})

// topologyGetters maps each zero-argument getter to its args form ("" when
// there is none).
var topologyGetters = map[string]string{
	"get_block_idx":   "get_block_idx",
	"get_block_num":   "get_block_num",
	"get_subblockid":  "get_sub_block_id",
	"get_subblockdim": "",
	"GetBlockIdx":     "get_block_idx",
	"GetBlockNum":     "get_block_num",
	"GetSubBlockIdx":  "get_sub_block_id",
}

var topologyNames = slices.Sorted(maps.Keys(topologyGetters))

func runTopologyGetter(pass *analysis.Pass) {
	var defined map[string]bool
	// Whether the file is runtime-ABI code, decided once per file.
	var runtime *bool
	// The findings repeat a handful of messages and fixes: one string each.
	var texts sharedText
	// The getters' calls from the file's call index: taking every call
	// apart was most of the rule's CPU.
	for _, n := range pass.Closure().Calls(pass.File).Named(topologyNames...) {
		if pass.Stopped() {
			return
		}
		call, ok := cxx.AsCall(n)
		if !ok || len(call.Args) != 0 || call.Receiver != nil || call.HasTArgs {
			continue
		}
		repl, ok := topologyGetters[call.Name]
		if !ok || !call.InNamespace("AscendC") || pass.Cores(n) == grammar.None {
			continue
		}
		if defined == nil {
			defined = ownTopologyGetters(pass)
		}
		if defined[call.Name] {
			continue
		}
		d := analysis.Diagnostic{Start: n.Start, End: n.End, Message: texts.get(call.Qualified, func() string {
			msg := "`" + call.Qualified + "()` reads the persistent launch grid, not this task's blocks"
			if repl == "get_sub_block_id" || call.Name == "get_subblockdim" {
				msg = "`" + call.Qualified + "()` reads a lane register the runtime never programs " +
					"(the sub-block id is 0 on both vector lanes)"
			}
			if repl != "" {
				msg += "; use `" + repl + "(args)`"
			}
			return msg
		})}
		if repl != "" && runtime == nil {
			r := runtimeABI(pass)
			runtime = &r
		}
		if repl != "" && *runtime {
			if fn := cxx.EnclosingFunction(n); fn != nil && fn.Kind() == "function_definition" {
				if p, ok := cxx.ArgsParam(pass.File, fn); ok && p.Name != "" {
					text := texts.get(repl+"("+p.Name+")", nil)
					d.Fixes = []analysis.Fix{{
						Title:         texts.get("Replace with `"+text+"`", nil),
						Applicability: analysis.Unsafe,
						Edits:         []analysis.TextEdit{{Start: n.Start, End: n.End, NewText: text}},
					}}
				}
			}
		}
		pass.Report(d)
	}
	reportGetterMacros(pass, &texts)
}

// getterInBody finds a zero-argument topology getter's call in a macro
// body (`AscendC::GetBlockIdx()`).
var getterInBody = regexp.MustCompile(`(?:\bAscendC\s*::\s*|[^:\w]|^)(` + strings.Join(topologyNames, "|") + `)\s*\(\s*\)`)

// reportGetterMacros reports the file's uses of the unit's macros whose
// body calls a zero-argument getter (`#define TASK_BLOCK(a)
// AscendC::GetBlockIdx()`, used as `TASK_BLOCK(args)`): each use reads the
// persistent grid as the call itself would.
func reportGetterMacros(pass *analysis.Pass, texts *sharedText) {
	var defined map[string]bool
	for name, ms := range pass.Reach().Macros().ByName {
		if len(ms) != 1 || !strings.Contains(ms[0].Body, "()") {
			continue
		}
		m := getterInBody.FindStringSubmatch(ms[0].Body)
		if m == nil {
			continue
		}
		if defined == nil {
			defined = ownTopologyGetters(pass)
		}
		getter := m[1]
		if defined[getter] {
			continue
		}
		for _, use := range macroUses(pass, ms[0]) {
			if pass.Cores(use) == grammar.None {
				continue
			}
			msg := texts.get("macro:"+name+getter, func() string {
				msg := "`" + name + "` expands to `" + getter + "()`, which reads the persistent launch grid, not this task's blocks"
				if r := topologyGetters[getter]; r == "get_sub_block_id" || getter == "get_subblockdim" {
					msg = "`" + name + "` expands to `" + getter + "()`, a lane register the runtime never programs " +
						"(the sub-block id is 0 on both vector lanes)"
				}
				if r := topologyGetters[getter]; r != "" {
					msg += "; use `" + r + "(args)`"
				}
				return msg
			})
			pass.Report(analysis.Diagnostic{Start: use.Start, End: use.End, Message: msg})
		}
	}
}

// macroUses are the file's uses of macro m outside directives: calls of
// a function-like one, names of an object-like one.
func macroUses(pass *analysis.Pass, m *cxx.Macro) []*grammar.Node {
	if m.FuncLike {
		return pass.Closure().Calls(pass.File).Named(m.Name)
	}
	if !bytes.Contains(pass.File.Src, []byte(m.Name)) {
		return nil
	}
	var out []*grammar.Node
	for _, id := range pass.File.Tree.OfKind("identifier") {
		if id.Text() == m.Name && id.Ancestor("preproc_def") == nil && id.Ancestor("preproc_function_def") == nil {
			out = append(out, id)
		}
	}
	return out
}

// runtimeABI reports whether the file's externs are called the way the
// pypto runtime calls a task, `kernel(args)` with the task's args table
// (the launch model): only there is `get_block_idx(args)` the
// replacement, and an ordinary kernel's int64 pointer is data, not args.
func runtimeABI(pass *analysis.Pass) bool {
	return pass.Models().RuntimeABI()
}

// ownTopologyGetters returns the getter names the workspace defines itself
// as a function without parameters or as a macro (a lane bridge some
// wrappers install), which the rule leaves alone.
func ownTopologyGetters(pass *analysis.Pass) map[string]bool {
	out := map[string]bool{}
	funcs := pass.Closure().FuncIndex()
	for name := range topologyGetters {
		for _, d := range funcs.Lookup(name) {
			if len(cxx.Params(d.Node)) == 0 {
				out[name] = true
			}
		}
	}
	for _, f := range append([]*grammar.File{pass.File}, pass.Includes...) {
		if f.Guards == nil {
			continue
		}
		for _, dir := range f.Guards.Directives {
			if dir.Kind != "define" {
				continue
			}
			name := dir.Cond
			for i := 0; i < len(name); i++ {
				if c := name[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
					name = name[:i]
					break
				}
			}
			if _, ok := topologyGetters[name]; ok {
				out[name] = true
			}
		}
	}
	return out
}
