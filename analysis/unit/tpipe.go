package unit

import (
	"context"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The TPipe model: where a unit's file creates an AscendC::TPipe (EXT002
// asks where the cube compiles one, EXT003 whether two are live at once).

// TPipe is one place a TPipe comes to life.
type TPipe struct {
	Node  *grammar.Node // the declaration or new-expression
	Name  string        // the variable ("" for a bare new)
	Decl  *grammar.Node // the declared identifier
	Scope *grammar.Node // the block it lives in (nil at file scope)
	Fn    *grammar.Node
	Stmt  *grammar.Node // the statement in its block
	// Cores run the creation: the guard model, minus the cores that
	// already returned (`if ASCEND_IS_AIC { ...; return; }` before it).
	Cores grammar.Cores
	// Class and Member are set when the TPipe is a member of the object
	// created here.
	Class      string
	Member     *grammar.Node
	MemberFile *grammar.File
	// Held lists, for an object, every TPipe its class holds: its own
	// members, its bases', and those of its members' classes. Two or
	// more are live together as long as the object.
	Held []HeldPipe
	// Destroy is the first `Destroy()` on it after its creation, in its
	// function; Idiom is set when nothing else used it before that, and
	// SetupOnly when only its InitBuffer calls did (catlass's
	// Arch::Resource: buffers handed out, then the pipe released).
	Destroy   *grammar.Node
	Idiom     bool
	SetupOnly bool
}

// HeldPipe is a TPipe member an object holds: Member (in File) declares
// it, Path names it from the object (`params_.ubPipe_`), Via is the class
// declaring it.
type HeldPipe struct {
	Member *grammar.Node
	File   *grammar.File
	Path   string
	Via    string
	// Field is the outermost member of the object's own class on the path
	// (`params_`), with its file: where a second pipe enters it.
	Field     *grammar.Node
	FieldFile *grammar.File
}

type pipeClass struct {
	member    *grammar.Node // field_identifier of the TPipe member
	file      *grammar.File
	destroyed bool // the constructor destroys it
	// held: every TPipe an object of the class holds (TPipe.Held), as
	// the definition spec says (a name defined again, a template's
	// specialization, is another class whose members are not merged).
	held []HeldPipe
	spec *grammar.Node
	// copied: a constructor initialises the member from another pipe
	// (`: pipe_(pipe)`), which the object then shares rather than builds.
	copied bool
	// enders are the methods that Destroy() the member in their own body
	// (`void Done() { pipe_.Destroy(); SyncAll(); }`): an object's pipe
	// ends where its function calls one.
	enders map[string]bool
}

// TPipes lists the TPipe creation sites of the unit's first file (a
// declaration, a new-expression, an object of a class holding a TPipe
// member), in source order.
func (u *Unit) TPipes() []*TPipe { return Fact(u, tpipesKey).sites }

// HoldsTPipe reports whether an object of the class builds a TPipe: a
// member of its own, of a base, or of a member object's class, not one a
// constructor destroys or copies from another pipe.
func (u *Unit) HoldsTPipe(class string) bool {
	pc := Fact(u, tpipesKey).classes[class]
	return pc != nil && !pc.destroyed && !pc.copied
}

type tpipeModel struct {
	sites   []*TPipe
	classes map[string]*pipeClass
}

var tpipesKey = &UnitKey[tpipeModel]{
	Name:    "unit.tpipes",
	Compute: func(_ context.Context, u *Unit) tpipeModel { return buildTPipes(u) },
}

func buildTPipes(u *Unit) tpipeModel {
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
		name := cxx.BaseTypeName(cls.ChildByField("name"))
		if pc := classes[name]; pc != nil && pc.member.Ancestor("struct_specifier", "class_specifier") == cls {
			// A second TPipe member of the same class (not of another
			// definition of its name, for another chip or build).
			pc.held = append(pc.held, HeldPipe{Member: d, File: fd.f, Path: d.Text(), Via: name, Field: d, FieldFile: fd.f})
			continue
		}
		classes[name] = &pipeClass{member: d, file: fd.f, spec: cls, held: []HeldPipe{{Member: d, File: fd.f, Path: d.Text(), Via: name, Field: d, FieldFile: fd.f}}}
	}
	if len(classes) > 0 {
		for _, fi := range collect("field_initializer") {
			name := fi.n.NamedChildren()
			if len(name) != 2 || (name[1].Kind() != "argument_list" && name[1].Kind() != "initializer_list") || len(name[1].NamedChildren()) != 1 {
				continue
			}
			fn := fi.n.Ancestor("function_definition")
			if fn == nil {
				continue
			}
			if pc := classes[cxx.FunctionName(fn)]; pc != nil && name[0].Text() == pc.member.Text() {
				pc.copied = true
			}
		}
		var specs []*grammar.Node
		for _, sp := range collect("class_specifier", "struct_specifier") {
			specs = append(specs, sp.n)
		}
		inheritPipes(classes, specs)
		var fields []heldField
		for _, fd := range collect("field_declaration") {
			fields = append(fields, heldField{fd.f, fd.n})
		}
		holdPipes(classes, specs, fields)
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
			name := cxx.FunctionName(fn)
			if pc := classes[name]; pc != nil && cxx.Root(call.Receiver) == pc.member.Text() {
				pc.destroyed = true // the constructor
				continue
			}
			if pc := classes[cxx.ClassOf(fn)]; pc != nil && name != "" && !strings.HasPrefix(name, "~") && cxx.Root(call.Receiver) == pc.member.Text() &&
				call.Node.Ancestor("if_statement", "for_statement", "while_statement", "do_statement", "switch_statement", "conditional_expression") == nil {
				if pc.enders == nil {
					pc.enders = map[string]bool{}
				}
				pc.enders[name] = true
			}
		}
	}

	var sites []*TPipe
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
	addSite := func(s *TPipe) {
		s.Fn = cxx.EnclosingFunction(s.Node)
		s.Cores = u.CoresOf(file, s.Node) &^ u.ExitedBefore(file, s.Node)
		if p := s.Node.Parent(); p != nil && p.Kind() != "translation_unit" && p.Kind() != "declaration_list" {
			s.Scope = scopeBlock(s.Node)
			s.Stmt = cxx.BlockStatementOf(s.Node)
		}
		if s.Name != "" {
			for _, c := range destroys[s.Fn] {
				if c.Node.Start > s.Node.End && cxx.Root(c.Receiver) == s.Name {
					s.Destroy = c.Node
					break
				}
			}
			if pc := classes[s.Class]; s.Class != "" && pc != nil && len(pc.enders) > 0 {
				// `a.Done();` where Done destroys the member: the object's
				// pipe ends there, if that comes first.
				for _, n := range u.Nodes(file, "call_expression") {
					if n.Start <= s.Node.End || s.Destroy != nil && n.Start >= s.Destroy.Start || cxx.EnclosingFunction(n) != s.Fn {
						continue
					}
					if c, ok := cxx.AsCall(n); ok && pc.enders[c.Name] && c.Receiver != nil && cxx.Root(c.Receiver) == s.Name {
						s.Destroy = n
						break
					}
				}
			}
			if s.Destroy != nil && s.Class == "" {
				ids := u.Nodes(file, "identifier")
				s.Idiom = !usedBetween(ids, s.Name, s.Node.End, s.Destroy.Start)
				s.SetupOnly = !s.Idiom && onlyInitBuffer(ids, s.Name, s.Node.End, s.Destroy.Start)
			}
		}
		sites = append(sites, s)
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
			addSite(&TPipe{Node: n})
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
			if pc == nil || pc.destroyed || pc.copied {
				continue
			}
		}
		for _, d := range n.ChildrenByField("declarator") {
			name, ptr, ref, _, init := cxx.Declarator(d)
			if name == nil {
				// `Stage st(sub, n);` in a body: an object built from
				// the variables sub and n, not a function declaration.
				name = cxx.VexingObject(d)
			}
			if name == nil || ref {
				continue
			}
			if ptr > 0 {
				// A pointer creates nothing unless initialized with new.
				if init == nil || init.Kind() != "new_expression" || !pipe {
					continue
				}
			}
			s := &TPipe{Node: n, Name: name.Text(), Decl: name}
			if pc != nil {
				s.Class, s.Member, s.MemberFile = cxx.BaseTypeName(t), pc.member, pc.file
				s.Held = pc.held
			}
			addSite(s)
		}
	}
	return tpipeModel{sites: sites, classes: classes}
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

// scopeBlock is the block a declaration lives in.
func scopeBlock(n *grammar.Node) *grammar.Node {
	return n.Ancestor("compound_statement", "for_statement", "for_range_loop", "translation_unit")
}

// usedBetween reports whether identifier name occurs in [from, to).
// baseTypes are the base classes a class or struct names (`: public
// Base`, `: Base<T>`), as type nodes.
func baseTypes(spec *grammar.Node) []*grammar.Node {
	var out []*grammar.Node
	for c := spec.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() != "base_class_clause" {
			continue
		}
		for _, b := range c.NamedChildren() {
			switch b.Kind() {
			case "type_identifier", "qualified_identifier", "template_type":
				out = append(out, b)
			}
		}
	}
	return out
}

// inheritPipes adds to classes those deriving from one of them (`class Op
// : public MixKernelBase`, where the base holds `TPipe pipe_;`), each with
// its own record of what destroys the inherited member.
func inheritPipes(classes map[string]*pipeClass, specs []*grammar.Node) {
	for changed := true; changed; {
		changed = false
		for _, spec := range specs {
			name := spec.ChildByField("name")
			if name == nil || classes[cxx.BaseTypeName(name)] != nil {
				continue
			}
			for _, b := range baseTypes(spec) {
				if base := classes[cxx.BaseTypeName(b)]; base != nil {
					classes[cxx.BaseTypeName(name)] = &pipeClass{member: base.member, file: base.file, copied: base.copied, spec: spec,
						held: append([]HeldPipe(nil), base.held...)}
					changed = true
					break
				}
			}
		}
	}
}

type heldField struct {
	f *grammar.File
	n *grammar.Node
}

// holdPipes adds to each class the TPipes its members' classes hold
// (`ChannelParams<T> params_;` where ChannelParams holds `TPipe
// ubPipe_;`), and to each class deriving from one the pipes its base
// gained so, until nothing changes. A class that holds none of its own
// and gains one becomes a holder too.
func holdPipes(classes map[string]*pipeClass, specs []*grammar.Node, fields []heldField) {
	has := func(pc *pipeClass, m *grammar.Node) bool {
		for _, h := range pc.held {
			if h.Member == m {
				return true
			}
		}
		return false
	}
	for round := 0; round < 4; round++ {
		changed := false
		for _, fd := range fields {
			t := fd.n.ChildByField("type")
			d := fd.n.ChildByField("declarator")
			if t == nil || d == nil || d.Kind() != "field_identifier" {
				continue // a pointer or reference does not own the object
			}
			inner := classes[cxx.BaseTypeName(t)]
			cls := fd.n.Ancestor("struct_specifier", "class_specifier")
			if inner == nil || inner.destroyed || inner.copied || cls == nil || cls.ChildByField("name") == nil {
				continue
			}
			name := cxx.BaseTypeName(cls.ChildByField("name"))
			if name == cxx.BaseTypeName(t) {
				continue
			}
			outer := classes[name]
			if outer == nil {
				outer = &pipeClass{member: inner.member, file: inner.file, copied: inner.copied, spec: cls}
				classes[name] = outer
			} else if outer.spec != cls {
				continue // another definition of the name
			}
			for _, h := range inner.held {
				if has(outer, h.Member) {
					continue
				}
				outer.held = append(outer.held, HeldPipe{Member: h.Member, File: h.File, Path: d.Text() + "." + h.Path, Via: h.Via, Field: d, FieldFile: fd.f})
				changed = true
			}
		}
		for _, spec := range specs {
			name := spec.ChildByField("name")
			if name == nil {
				continue
			}
			pc := classes[cxx.BaseTypeName(name)]
			if pc == nil || pc.spec != spec {
				continue
			}
			for _, b := range baseTypes(spec) {
				base := classes[cxx.BaseTypeName(b)]
				if base == nil || base == pc {
					continue
				}
				for _, h := range base.held {
					if !has(pc, h.Member) {
						pc.held = append(pc.held, h)
						changed = true
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// onlyInitBuffer reports whether every use of name between from and to is
// a call of its InitBuffer (`pipe.InitBuffer(buf, size)`).
func onlyInitBuffer(ids []*grammar.Node, name string, from, to uint32) bool {
	for _, id := range ids {
		if id.Start >= to {
			break
		}
		if id.Start < from || id.Text() != name {
			continue
		}
		fe := id.Parent()
		if fe == nil || fe.Kind() != "field_expression" || id.Field() != "argument" {
			return false
		}
		call := fe.Parent()
		if f := fe.ChildByField("field"); f == nil || f.Text() != "InitBuffer" || call == nil || call.Kind() != "call_expression" || fe.Field() != "function" {
			return false
		}
	}
	return true
}

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
