package rules

import (
	"context"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TPipeOutsideVec flags an AscendC TPipe that the cube core of a mixed
// extern constructs.
var TPipeOutsideVec = register(&analysis.Analyzer{
	Code:     "EXT002",
	Name:     "tpipe-outside-vec",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "in a mixed extern, create an `AscendC::TPipe` under a vector guard: its constructor on the cube core can hang it",
		What: "Flags an `AscendC::TPipe` object — `AscendC::TPipe pipe;`, an unqualified `TPipe` under `using namespace " +
			"AscendC` / `using AscendC::TPipe` or through an alias, `new AscendC::TPipe`, or an object of a class that " +
			"holds a TPipe member — created in a mixed extern where the cube core compiles it (no core guard, or a " +
			"cube guard). Silent under a vector-only guard, in AIV-only externs, for `pto::TPipe`, and for the " +
			"create-then-`Destroy()` idiom (`TPipe pipe; pipe.Destroy();`, also a class member destroyed in the constructor). " +
			"A function whose every call in the extern's files sits under a vector guard, and code after a cube-only " +
			"`return` (`if ASCEND_IS_AIC { ...; return; }`), count as vector-only.",
		Why: "The TPipe constructor on the cube core pre-sets the `M_MTE1` events 0–2; a kernel that manages those " +
			"events itself (the cube attention of a fused extern) then waits on events that never arrive, and the cube " +
			"hangs (507018). A pure-vector phase such as RoPE must keep its TPipe and UB setup vector-only, created under " +
			"`#ifdef __DAV_C220_VEC__`; do not create it on the cube \"to be symmetric\". `Destroy()` waits on those " +
			"events and adds a `PIPE_ALL` barrier, so creating a pipe and destroying it at once (catlass " +
			"`Arch::Resource`) is deliberate and fine.",
		Example: "AscendC::TPipe pipe;                 // mixed extern, no guard: the cube builds it too\n" +
			"pipe.InitBuffer(ropeBuf, kUbBytes);",
		UseInstead: "#ifdef __DAV_C220_VEC__\n" +
			"AscendC::TPipe pipe;\n" +
			"pipe.InitBuffer(ropeBuf, kUbBytes);\n" +
			"#endif",
		FixSafety: "Unsafe: wraps the declaration and the statements after it in the same block that use the pipe (or " +
			"names declared alongside it) in `#ifdef __DAV_C220_VEC__` … `#endif` (`__DAV_VEC__` when the file uses " +
			"pto's macro family only). Cube-side work among those statements would no longer run on the cube: check " +
			"the range.",
		Guide: "§3",
	},
	Run: runTPipeOutsideVec,
})

func runTPipeOutsideVec(pass *analysis.Pass) {
	if !pass.Mixed() {
		return
	}
	m := tpipesOf(pass)
	cores := &coresMemo{pass: pass}
	for _, s := range m.sites {
		if pass.Stopped() {
			return
		}
		if s.idiom || s.cores&cores.fnCores(s.fn, 0)&grammar.AIC == 0 {
			continue
		}
		what := "`AscendC::TPipe` `" + s.name + "`"
		if s.class != "" {
			what = "`" + s.name + "` (a `" + s.class + "`, whose member `" + s.member.Text() + "` is an `AscendC::TPipe`)"
		} else if s.name == "" {
			what = "`new AscendC::TPipe`"
		}
		msg := what + " is created where the cube core of this mixed extern compiles it: the TPipe constructor " +
			"pre-sets the cube's M_MTE1 events and can hang the cube; create it under a vector guard"
		if s.destroy != nil {
			msg += " (it is used before its `Destroy()`, so this is not the create-then-destroy idiom)"
		}
		d := analysis.Diagnostic{Start: s.node.Start, End: s.node.End, Message: msg}
		if s.member != nil && s.memberFile != nil {
			d.Related = append(d.Related, analysis.RelatedAt(s.memberFile, s.member, "the TPipe member"))
		}
		if edits, ok := vecGuardEdits(pass, s); ok {
			d.Fixes = []analysis.Fix{{
				Title:         "Wrap in `#ifdef " + vecMacro(pass.File) + "` … `#endif`",
				Applicability: analysis.Unsafe,
				Edits:         edits,
			}}
		}
		pass.Report(d)
	}
}

// tpipeSite is one place a TPipe comes to life.
type tpipeSite struct {
	node  *grammar.Node // the declaration or new-expression
	name  string        // the variable ("" for a bare new)
	decl  *grammar.Node // the declared identifier
	scope *grammar.Node // the block it lives in (nil at file scope)
	fn    *grammar.Node
	stmt  *grammar.Node // the statement in its block
	// cores run the creation: the guard model, minus the cores that
	// already returned (`if ASCEND_IS_AIC { ...; return; }` before it).
	cores grammar.Cores
	// class and member are set when the TPipe is a member of the object
	// created here.
	class      string
	member     *grammar.Node
	memberFile *grammar.File
	// destroy is the first `Destroy()` on it after its creation, in its
	// function; idiom is set when nothing else used it before that.
	destroy *grammar.Node
	idiom   bool
}

// tpipeModel is a unit's TPipe creation sites; shared by the passes on
// the unit (concurrently in the server), it never changes once built.
type tpipeModel struct {
	sites []*tpipeSite
}

type fileCall struct {
	f *grammar.File
	n *grammar.Node
}

// coresMemo answers fnCores for one pass. The calls of a function depend on
// the pass (a header's come from the files that include it, which change
// while the header's closure, and so its shared model, stays), so they are
// not part of the model.
type coresMemo struct {
	pass *analysis.Pass
	// callers maps a function name to the calls of it in the extern's
	// files (built on first use).
	callers map[string][]fileCall
	cores   map[*grammar.Node]grammar.Cores
}

// fnCores returns the cores that can run fn: both for the extern entry, a
// function nobody in the extern's files calls (it may be called from
// elsewhere) and file scope; otherwise the union, over its calls, of the
// cores that compile the call and run its caller. A TPipe in a helper only
// called under a vector guard is never constructed on the cube.
func (m *coresMemo) fnCores(fn *grammar.Node, depth int) grammar.Cores {
	pass := m.pass
	if fn == nil || depth > 6 {
		return grammar.Both
	}
	if fn.Kind() == "lambda_expression" {
		return m.fnCores(cxx.EnclosingFunction(fn), depth+1)
	}
	if c, ok := m.cores[fn]; ok {
		return c
	}
	if cxx.IsExternC(fn) {
		return grammar.Both
	}
	if m.callers == nil {
		m.callers = map[string][]fileCall{}
		for _, n := range pass.Nodes("call_expression") {
			name := cxx.CallName(n)
			m.callers[name] = append(m.callers[name], fileCall{pass.File, n})
		}
		// An entry's own functions are called from the entry; a header's
		// from the files that include it.
		if !isUnitEntry(pass) {
			for _, f := range pass.Reach().Headers() {
				for i := range f.Tree.Nodes {
					if n := &f.Tree.Nodes[i]; n.Kind() == "call_expression" {
						name := cxx.CallName(n)
						m.callers[name] = append(m.callers[name], fileCall{f, n})
					}
				}
			}
		}
		m.cores = map[*grammar.Node]grammar.Cores{}
	}
	calls := m.callers[cxx.FunctionName(fn)]
	if len(calls) == 0 {
		return grammar.Both
	}
	m.cores[fn] = grammar.None // a recursive call adds nothing
	c := grammar.None
	for _, call := range calls {
		c |= call.f.CoresOf(call.n) & m.fnCores(cxx.EnclosingFunction(call.n), depth+1)
	}
	m.cores[fn] = c
	return c
}

type pipeClass struct {
	member    *grammar.Node // field_identifier of the TPipe member
	file      *grammar.File
	destroyed bool // the constructor destroys it
}

// tpipesOf finds the file's TPipe creation sites once for EXT002 and EXT003.
func tpipesOf(pass *analysis.Pass) *tpipeModel {
	return unit.Fact(pass.Closure(), tpipesKey)
}

var tpipesKey = &unit.UnitKey[*tpipeModel]{
	Name:    "rules.tpipes",
	Compute: func(_ context.Context, u *unit.Unit) *tpipeModel { return buildTPipes(u) },
}

func buildTPipes(u *unit.Unit) *tpipeModel {
	file := u.Files[0]
	type fileNode struct {
		f *grammar.File
		n *grammar.Node
	}
	// The included files' nodes of the kinds needed below, from each
	// file's node index (built once per parse).
	collect := func(kinds ...string) []fileNode {
		var out []fileNode
		for _, k := range kinds {
			for _, inc := range u.Headers() {
				for _, n := range u.Nodes(inc, k) {
					out = append(out, fileNode{inc, n})
				}
			}
		}
		for _, n := range u.Nodes(file, kinds...) {
			out = append(out, fileNode{file, n})
		}
		return out
	}
	// How unqualified names resolve: using-directives and aliases.
	usingAscendC, aliases := false, map[string]bool{}
	decls := collect("using_declaration", "alias_declaration", "type_definition")
	for round := 0; round < 2; round++ {
		for _, d := range decls {
			switch d.n.Kind() {
			case "using_declaration":
				text := strings.Join(strings.Fields(d.n.Text()), " ")
				if text == "using namespace AscendC;" || text == "using namespace ::AscendC;" ||
					strings.HasSuffix(text, "AscendC::TPipe;") {
					usingAscendC = true
				}
			case "alias_declaration":
				if t := d.n.ChildByField("type"); t != nil && isAscendTPipe(t.ChildByField("type"), usingAscendC, aliases) {
					if name := d.n.ChildByField("name"); name != nil {
						aliases[name.Text()] = true
					}
				}
			case "type_definition":
				if isAscendTPipe(d.n.ChildByField("type"), usingAscendC, aliases) {
					if name := d.n.ChildByField("declarator"); name != nil && name.Kind() == "type_identifier" {
						aliases[name.Text()] = true
					}
				}
			}
		}
	}
	isPipe := func(t *grammar.Node) bool {
		if isAscendTPipe(t, usingAscendC, aliases) {
			return true
		}
		// Inside `namespace AscendC { ... }` the plain name is AscendC's.
		return t != nil && t.Kind() == "type_identifier" && t.Text() == "TPipe" && inNamespace(t, "AscendC")
	}

	// Classes holding a TPipe member, and whether a constructor destroys it.
	classes := map[string]*pipeClass{}
	for _, fd := range collect("field_declaration") {
		if !isPipe(fd.n.ChildByField("type")) {
			continue
		}
		d := fd.n.ChildByField("declarator")
		if d == nil || d.Kind() != "field_identifier" {
			continue
		}
		cls := fd.n.Ancestor("struct_specifier", "class_specifier")
		if cls == nil || cls.ChildByField("name") == nil {
			continue
		}
		classes[cxx.BaseTypeName(cls.ChildByField("name"))] = &pipeClass{member: d, file: fd.f}
	}
	if len(classes) > 0 {
		for _, c := range collect("call_expression") {
			if cxx.CallName(c.n) != "Destroy" {
				continue
			}
			call, ok := cxx.AsCall(c.n)
			if !ok || call.Name != "Destroy" || call.Receiver == nil {
				continue
			}
			fn := c.n.Ancestor("function_definition")
			if fn == nil {
				continue
			}
			ctor := cxx.FunctionName(fn)
			pc := classes[ctor]
			if pc == nil || cxx.Root(call.Receiver) != pc.member.Text() {
				continue
			}
			pc.destroyed = true
		}
	}

	m := &tpipeModel{}
	destroys := map[*grammar.Node][]cxx.Call{} // function -> Destroy() calls
	for _, n := range u.Nodes(file, "call_expression") {
		if cxx.CallName(n) != "Destroy" {
			continue
		}
		if call, ok := cxx.AsCall(n); ok && call.Name == "Destroy" && call.Receiver != nil {
			fn := cxx.EnclosingFunction(n)
			destroys[fn] = append(destroys[fn], call)
		}
	}
	addSite := func(s *tpipeSite) {
		s.fn = cxx.EnclosingFunction(s.node)
		s.cores = file.CoresOf(s.node) &^ u.ExitedBefore(file, s.node)
		if p := s.node.Parent(); p != nil && p.Kind() != "translation_unit" && p.Kind() != "declaration_list" {
			s.scope = scopeBlock(s.node)
			s.stmt = cxx.BlockStatementOf(s.node)
		}
		if s.name != "" {
			for _, c := range destroys[s.fn] {
				if c.Node.Start > s.node.End && cxx.Root(c.Receiver) == s.name {
					s.destroy = c.Node
					break
				}
			}
			if s.destroy != nil && s.class == "" {
				s.idiom = !usedBetween(u.Nodes(file, "identifier"), s.name, s.node.End, s.destroy.Start)
			}
		}
		m.sites = append(m.sites, s)
	}
	for _, n := range u.Nodes(file, "declaration", "new_expression") {
		if n.Kind() == "new_expression" {
			if !isPipe(n.ChildByField("type")) {
				continue
			}
			// `p = new TPipe` with a pointer variable is reported at the
			// declaration when there is one.
			if id := n.Ancestor("init_declarator"); id != nil {
				continue
			}
			addSite(&tpipeSite{node: n})
			continue
		}
		t := n.ChildByField("type")
		if t == nil {
			continue
		}
		pipe := isPipe(t)
		var pc *pipeClass
		if !pipe {
			pc = classes[cxx.BaseTypeName(t)]
			if pc == nil || pc.destroyed {
				continue
			}
		}
		for _, d := range n.ChildrenByField("declarator") {
			name, ptr, ref, init := declName(d)
			if name == nil || ref {
				continue
			}
			if ptr {
				// A pointer creates nothing unless initialized with new.
				if init == nil || init.Kind() != "new_expression" || !pipe {
					continue
				}
			}
			s := &tpipeSite{node: n, name: name.Text(), decl: name}
			if pc != nil {
				s.class, s.member, s.memberFile = cxx.BaseTypeName(t), pc.member, pc.file
			}
			addSite(s)
		}
	}
	return m
}

// isUnitEntry reports whether the file is an extern entry that no other
// entry includes: nothing outside it calls its functions.
func isUnitEntry(pass *analysis.Pass) bool {
	return pass.Ctx == nil || len(pass.Ctx.Units) == 1 && pass.Ctx.Units[0] == pass.File.Path
}

// isAscendTPipe reports whether a type node names AscendC::TPipe: written
// qualified, unqualified under a using-directive, or through an alias.
func isAscendTPipe(t *grammar.Node, usingAscendC bool, aliases map[string]bool) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case "qualified_identifier":
		scope := t.ChildByField("scope")
		name := t.ChildByField("name")
		if scope == nil || name == nil || name.Kind() != "type_identifier" {
			return false
		}
		return strings.TrimPrefix(scope.Text(), "::") == "AscendC" && name.Text() == "TPipe"
	case "type_identifier":
		if aliases[t.Text()] {
			return true
		}
		return t.Text() == "TPipe" && usingAscendC
	}
	// template_type: pto::TPipe<...> and friends are not AscendC's.
	return false
}

func inNamespace(n *grammar.Node, ns string) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "namespace_definition" {
			if name := p.ChildByField("name"); name != nil && name.Text() == ns {
				return true
			}
		}
	}
	return false
}

// declName peels a declarator.
func declName(d *grammar.Node) (name *grammar.Node, ptr, ref bool, init *grammar.Node) {
	for d != nil {
		switch d.Kind() {
		case "init_declarator":
			init = d.ChildByField("value")
			d = d.ChildByField("declarator")
			continue
		case "pointer_declarator":
			ptr = true
			d = d.ChildByField("declarator")
			continue
		case "reference_declarator":
			ref = true
			return nil, ptr, ref, init
		case "array_declarator":
			d = d.ChildByField("declarator")
			continue
		case "identifier":
			return d, ptr, ref, init
		}
		return nil, ptr, ref, init
	}
	return nil, ptr, ref, init
}

// scopeBlock is the block a declaration lives in.
func scopeBlock(n *grammar.Node) *grammar.Node {
	return n.Ancestor("compound_statement", "for_statement", "for_range_loop", "translation_unit")
}

// usedBetween reports whether identifier name occurs in [from, to).
func usedBetween(ids []*grammar.Node, name string, from, to uint32) bool {
	for _, id := range ids {
		if id.Start >= to {
			break
		}
		if id.Start >= from && id.Text() == name {
			return true
		}
	}
	return false
}

// vecMacro is the vector guard macro the fix writes: pto's `__DAV_VEC__`
// when the file keys on that family only, else the C220 one extern code
// uses.
func vecMacro(f *grammar.File) string {
	c220, pto := false, false
	for _, d := range f.Guards.Directives {
		for _, m := range d.Macros {
			switch m.Name {
			case "__DAV_C220_VEC__", "__DAV_C220_CUBE__":
				c220 = true
			case "__DAV_VEC__", "__DAV_CUBE__":
				pto = true
			}
		}
	}
	if pto && !c220 {
		return "__DAV_VEC__"
	}
	return "__DAV_C220_VEC__"
}

// vecGuardEdits wraps the site's statement, and the statements after it in
// the same block that use what it declares, in a vector guard.
func vecGuardEdits(pass *analysis.Pass, s *tpipeSite) ([]analysis.TextEdit, bool) {
	if s.stmt == nil || s.scope == nil {
		return nil, false
	}
	block := s.stmt.Parent()
	if block == nil {
		return nil, false
	}
	var stmts []*grammar.Node
	for _, c := range block.NamedChildren() {
		if c.Start >= s.stmt.Start && c.Kind() != "comment" {
			stmts = append(stmts, c)
		}
	}
	if len(stmts) == 0 {
		return nil, false
	}
	names := map[string]bool{}
	declared := func(st *grammar.Node) {
		ds := st.Descendants()
		for i := range ds {
			if ds[i].Kind() == "identifier" && isDeclaratorOf(&ds[i]) {
				names[ds[i].Text()] = true
			}
		}
	}
	if s.name != "" {
		names[s.name] = true
	}
	declared(stmts[0])
	last := 0
	for changed := true; changed; {
		changed = false
		for i := last + 1; i < len(stmts); i++ {
			if mentions(stmts[i], names) {
				for j := last + 1; j <= i; j++ {
					declared(stmts[j])
				}
				last = i
				changed = true
			}
		}
	}
	first, end := stmts[0], stmts[last]
	src := pass.File.Src
	indent, alone := cxx.LineIndent(src, first.Start)
	macro := vecMacro(pass.File)
	var edits []analysis.TextEdit
	if alone {
		ls := cxx.LineStart(src, first.Start)
		edits = append(edits, analysis.TextEdit{Start: ls, End: ls, NewText: indent + "#ifdef " + macro + "\n"})
	} else {
		edits = append(edits, analysis.TextEdit{Start: first.Start, End: first.Start, NewText: "\n" + indent + "#ifdef " + macro + "\n" + indent})
	}
	le := cxx.LineEnd(src, end.End) // just past the newline
	if onlyCommentOrSpace(string(src[end.End:le])) {
		if le > 0 && src[le-1] == '\n' {
			edits = append(edits, analysis.TextEdit{Start: le, End: le, NewText: indent + "#endif\n"})
		} else {
			edits = append(edits, analysis.TextEdit{Start: le, End: le, NewText: "\n" + indent + "#endif\n"})
		}
	} else {
		edits = append(edits, analysis.TextEdit{Start: end.End, End: end.End, NewText: "\n" + indent + "#endif\n" + indent})
	}
	return edits, true
}

// isDeclaratorOf reports whether an identifier is the name a declaration
// declares.
func isDeclaratorOf(id *grammar.Node) bool {
	for c, p := id, id.Parent(); p != nil; c, p = p, p.Parent() {
		switch p.Kind() {
		case "init_declarator", "pointer_declarator", "reference_declarator", "array_declarator":
			if c.Field() != "declarator" {
				return false
			}
			continue
		case "declaration":
			return c.Field() == "declarator"
		}
		return false
	}
	return false
}

func mentions(st *grammar.Node, names map[string]bool) bool {
	ds := st.Descendants()
	for i := range ds {
		if ds[i].Kind() == "identifier" && names[ds[i].Text()] {
			return true
		}
	}
	return false
}
