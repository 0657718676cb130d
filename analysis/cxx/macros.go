package cxx

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// This file reads a file's #defines once (the macro table, a file fact) and
// parses the bodies that are statements as functions of a shadow file, so
// a macro used in statement position is judged by what its body does:
//
//   - Exits: the cores on which the use leaves the enclosing function
//     (`#define REGISTER_X(p) if ASCEND_IS_AIC { return; }` makes the rest
//     of the function vector-only);
//   - the calls of its body (a barrier, a drain, a dcci or dsb, a flag set
//     or wait): the shadow's functions are indexed with the unit's, so a
//     call `DRAIN_ALL(pipe)` reaches its body like a helper's, with the
//     arguments standing for the parameters.
//
// The shadow file has the path and the length of the file it comes from,
// and each body sits at the offsets of the #define's body, so a position
// the analysis finds inside a body is the position of the macro's text.

// Macro is one #define.
type Macro struct {
	Name string
	// Params are a function-like macro's parameter names ("__VA_ARGS__"
	// for `...`); FuncLike is set even when there are none.
	Params   []string
	FuncLike bool
	// Body is the replacement text, continuations folded.
	Body string
	// At is the offset of the directive in its file, BodyStart of the body.
	At, BodyStart uint32
	// Cores are the device compiles that see the definition (its #if
	// guards).
	Cores grammar.Cores
	// Def is the body parsed as a function of the shadow file, nil when
	// the body is not a statement (a type, a constant, text pasted with #
	// or ##).
	Def *grammar.Node
	// Exits are the cores on which a use leaves the enclosing function:
	// a return that only core-type conditions stand in front of, on the
	// compiles that see this definition.
	Exits grammar.Cores
	// Uses are the macros the body uses in statement position.
	Uses []string
	// Opaque is set for a body that calls something or leaves the
	// function but does not parse as statements: the analysis cannot
	// tell what a use does.
	Opaque bool
	// DropsArgs: a function-like macro whose body names none of its
	// parameters (`#define LOG(fmt, ...)`): a use's arguments are never
	// evaluated.
	DropsArgs bool
	// File is the file holding the #define.
	File *grammar.File
	// Pasted are the parameters the body pastes (`a##b`) or quotes
	// (`#a`), by index: a use is read with those arguments put in
	// (PastedShadows).
	Pasted []int
	// instances are the last instances parsed of the pasting macros of
	// File (shared by them).
	instances *pastedInstances
}

// Macros is a file's macro table.
type Macros struct {
	// Shadows hold the statement bodies as functions, at the offsets of
	// the file (none when no body is a statement).
	Shadows []*grammar.File
	ByName  map[string][]*Macro
}

// ScanMacros reads the #defines of f: a pure function of the file.
func ScanMacros(ctx context.Context, f *grammar.File) *Macros {
	out := &Macros{ByName: map[string][]*Macro{}}
	if f == nil || f.Lang != grammar.CPP || f.Guards == nil {
		return out
	}
	src := f.Src
	var shadows shadowSet
	instances := &pastedInstances{}
	for _, d := range f.Guards.Directives {
		if d.Kind != "define" {
			continue
		}
		m := parseDefine(src, d)
		if m == nil {
			continue
		}
		m.Cores, m.File, m.instances = f.Guards.CoresAt(d.Start), f, instances
		out.ByName[m.Name] = append(out.ByName[m.Name], m)
		if m.Cores == grammar.None || !statementLike(m.Body) {
			continue
		}
		m.Opaque = true
		if strings.Contains(m.Body, "#") {
			// # and ## build text the tree cannot read: the unit parses
			// such a body once per pasted argument list its code uses
			// (PastedShadows).
			continue
		}
		end := d.End
		for end > m.BodyStart && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r' || src[end-1] == '\\') {
			end--
		}
		body := make([]byte, end-m.BodyStart)
		for i := range body {
			b := src[int(m.BodyStart)+i]
			if b == '\\' && (int(m.BodyStart)+i+1 < len(src) && (src[int(m.BodyStart)+i+1] == '\n' || src[int(m.BodyStart)+i+1] == '\r')) {
				b = ' '
			}
			body[i] = b
		}
		if sh := shadows.place(src, m.BodyStart, m.header(m.Name), body, maxShadows); sh != nil {
			sh.pending = append(sh.pending, m)
		}
	}
	for _, sh := range shadows.list {
		if ctx.Err() != nil {
			break
		}
		sf := sh.parse(ctx, f)
		if sf == nil {
			continue
		}
		out.Shadows = append(out.Shadows, sf)
		defs := shadowDefs(sf)
		for _, m := range sh.pending {
			def := defs[m.BodyStart]
			if def == nil || FunctionName(def) != m.Name || hasError(def) {
				continue
			}
			m.Def, m.Opaque = def, false
			body := def.ChildByField("body")
			body.Walk(func(n *grammar.Node) bool {
				switch n.Kind() {
				case "lambda_expression":
					return false
				case "return_statement":
					if OnlyCoreGuarded(n, body) {
						m.Exits |= sf.CoresOf(n)
					}
				case "expression_statement":
					if name := StatementMacro(n); name != "" {
						m.Uses = append(m.Uses, name)
					}
				}
				return true
			})
			m.Exits &= m.Cores
		}
	}
	return out
}

// shadowSet is the shadows of one file: blank copies of its text holding
// function heads and bodies at the offsets of #define bodies.
type shadowSet struct {
	list []*shadow
}

type shadow struct {
	text    []byte
	used    uint32 // the shadow is free from here on
	pending []*Macro
	ranges  [][2]uint32 // where the heads and bodies are
}

// place writes `header body;}` so that body starts at offset at of src,
// in the first shadow with room for the head before it (consecutive
// #defines alternate), a new one when none has and fewer than most are
// made; nil when it cannot.
func (s *shadowSet) place(src []byte, at uint32, header string, body []byte, most int) *shadow {
	if at < uint32(len(header)) {
		return nil
	}
	var sh *shadow
	for _, x := range s.list {
		if x.used+uint32(len(header)) <= at {
			sh = x
			break
		}
	}
	if sh == nil {
		if len(s.list) == most {
			return nil
		}
		sh = &shadow{text: blankCopy(src)}
		s.list = append(s.list, sh)
	}
	copy(sh.text[at-uint32(len(header)):], header)
	// A body longer than the #define's (a pasted argument longer than its
	// parameter) runs on over the blank bytes after it.
	end := at + uint32(len(body))
	for len(sh.text) < int(end) {
		sh.text = append(sh.text, ' ')
	}
	copy(sh.text[at:], body)
	// `;}` closes the body on the bytes after it (the end of the
	// directive's line and the next line's first byte).
	for i, b := range []byte(";}") {
		if p := int(end) + i; p < len(sh.text) {
			sh.text[p] = b
		} else {
			sh.text = append(sh.text, b)
		}
	}
	sh.used = end + 2
	sh.ranges = append(sh.ranges, [2]uint32{at - uint32(len(header)), min(end+2, uint32(len(sh.text)))})
	return sh
}

// parse parses the shadow as a file of f's, whose offsets and lines are
// f's (the heads and closing braces overwrite line ends of the shadow).
func (sh *shadow) parse(ctx context.Context, f *grammar.File) *grammar.File {
	sf, err := grammar.ParseSparse(ctx, f.Path, sh.text, sh.ranges)
	if err != nil {
		return nil
	}
	sf.Tree.Close()
	sf.MacroOf, sf.Lines = f, f.Lines
	return sf
}

// shadowDefs are a shadow's functions by the offset their body's text
// starts at.
func shadowDefs(sf *grammar.File) map[uint32]*grammar.Node {
	defs := map[uint32]*grammar.Node{}
	for i := range sf.Tree.Nodes {
		n := &sf.Tree.Nodes[i]
		if n.Kind() == "function_definition" {
			if b := n.ChildByField("body"); b != nil {
				defs[b.Start+1] = n
			}
		}
	}
	return defs
}

// blankCopy is src with every byte but its newlines made a space (with
// room for two more bytes).
func blankCopy(src []byte) []byte {
	out := make([]byte, len(src), len(src)+2)
	if len(out) > 0 {
		out[0] = ' '
		for n := 1; n < len(out); n *= 2 {
			copy(out[n:], out[:n])
		}
	}
	for at := 0; ; {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			return out
		}
		at += i
		out[at] = '\n'
		at++
	}
}

// maxShadows bounds the shadows of one file: past them, a body is left
// unread (opaque).
const maxShadows = 4

func hasError(n *grammar.Node) bool {
	bad := false
	n.Walk(func(c *grammar.Node) bool {
		if c.IsError() || c.IsMissing() {
			bad = true
		}
		return !bad
	})
	return bad
}

// header is the function head written before the body in a shadow:
// `void NAME(auto a,auto b){`, named name.
func (m *Macro) header(name string) string {
	var b strings.Builder
	b.WriteString("void ")
	b.WriteString(name)
	b.WriteByte('(')
	for i, p := range m.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("auto ")
		b.WriteString(p)
	}
	b.WriteString("){")
	return b.String()
}

// parseDefine takes a #define directive apart.
func parseDefine(src []byte, d grammar.Directive) *Macro {
	i, end := d.CondStart, d.End
	j := i
	for j < end && isIdentByte(src[j]) {
		j++
	}
	if j == i {
		return nil
	}
	m := &Macro{Name: string(src[i:j]), At: d.Start}
	if j < end && src[j] == '(' {
		m.FuncLike = true
		k := j + 1
		for k < end && src[k] != ')' {
			k++
		}
		if k >= end {
			return nil
		}
		for _, p := range strings.Split(string(src[j+1:k]), ",") {
			p = strings.TrimSpace(strings.ReplaceAll(p, "\\", ""))
			switch {
			case p == "":
				continue
			case p == "...":
				p = "__VA_ARGS__"
			case strings.HasSuffix(p, "..."):
				p = strings.TrimSpace(strings.TrimSuffix(p, "..."))
			}
			m.Params = append(m.Params, p)
		}
		j = k + 1
	}
	for j < end && (src[j] == ' ' || src[j] == '\t' || src[j] == '\\' || src[j] == '\r' || src[j] == '\n') {
		j++
	}
	m.BodyStart = j
	body := strings.ReplaceAll(string(src[j:end]), "\\\r\n", " ")
	m.Body = strings.TrimSpace(strings.ReplaceAll(body, "\\\n", " "))
	if m.FuncLike && strings.Contains(m.Body, "#") {
		toks := ppTokens(m.Body)
		for i, t := range toks {
			k := slices.Index(m.Params, t.text)
			if k < 0 || slices.Contains(m.Pasted, k) {
				continue
			}
			if i > 0 && (toks[i-1].text == "##" || toks[i-1].text == "#") || i+1 < len(toks) && toks[i+1].text == "##" {
				m.Pasted = append(m.Pasted, k)
			}
		}
		slices.Sort(m.Pasted)
	}
	if m.FuncLike {
		m.DropsArgs = true
		for _, t := range grammar.TokenizeExpr(m.Body, false) {
			if slices.Contains(m.Params, t) || t == "__VA_OPT__" {
				m.DropsArgs = false
			}
		}
	}
	return m
}

// statementLike reports whether a macro body can be statements that matter
// to the analysis: it calls something or leaves the function.
func statementLike(body string) bool {
	toks := grammar.TokenizeExpr(body, true)
	for i, t := range toks {
		switch t {
		case "return", "goto", "break", "continue":
			return true
		}
		// `f(`, and `f<...>(` of a template.
		if i+1 < len(toks) && toks[i+1] == "(" && (t == ">" || isIdentByte(t[0]) && !(t[0] >= '0' && t[0] <= '9')) {
			return true
		}
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// StatementMacro returns the name a statement uses when it may be a macro
// use: `NAME(args);` or `NAME;` with a plain (unscoped, untemplated)
// name. Whether it is a macro is the macro tables' to say.
func StatementMacro(stmt *grammar.Node) string {
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return ""
	}
	e := stmt.NamedChildren()
	if len(e) == 0 {
		return ""
	}
	x := e[0]
	if x.Kind() == "call_expression" {
		x = x.ChildByField("function")
	}
	if x == nil || x.Kind() != "identifier" {
		return ""
	}
	return x.Text()
}

// OnlyCoreGuarded reports whether nothing but blocks, preprocessor
// branches, core-type ifs and `do { } while (0)` stands between n and its
// ancestor top.
func OnlyCoreGuarded(n, top *grammar.Node) bool {
	for c, p := n, n.Parent(); c != top && p != nil; c, p = p, p.Parent() {
		switch {
		case p.Kind() == "compound_statement" || IsPreprocBranch(p.Kind()):
		case p.Kind() == "if_statement":
			if c.Field() == "condition" {
				return false
			}
			if _, ok := grammar.CoreCondition(p.ChildByField("condition")); !ok {
				return false
			}
		case p.Kind() == "else_clause":
		case p.Kind() == "do_statement":
			if c.Field() == "condition" || !onceLoop(p) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ExitsIn returns the cores that leave the enclosing function in stmt, a
// statement of a block, without anything but core guards in front of the
// exit: a return (`if ASCEND_IS_AIC { cube(); return; }`, `#ifdef
// __DAV_C220_CUBE__ ... return; #endif`) or a use of a macro whose body
// returns (`REGISTER_X(pipe);`). The C++ guard compiles on both cores, but
// the core that left never runs what follows. macroExits gives the cores a
// statement use of a name leaves on (nil: no macros known).
func ExitsIn(f *grammar.File, stmt *grammar.Node, macroExits func(name string) grammar.Cores) grammar.Cores {
	exited := grammar.None
	// Only blocks, preprocessor branches, core-type ifs and `do { }
	// while (0)` are descended: an exit under any other statement is
	// conditional.
	stmt.Walk(func(d *grammar.Node) bool {
		switch d.Kind() {
		case "return_statement":
			exited |= f.CoresOf(d)
		case "expression_statement":
			if macroExits != nil {
				if name := StatementMacro(d); name != "" {
					exited |= macroExits(name) & f.CoresOf(d)
				}
			}
		case "compound_statement", "else_clause":
			return true
		case "if_statement":
			_, ok := grammar.CoreCondition(d.ChildByField("condition"))
			return ok
		case "do_statement":
			return onceLoop(d)
		default:
			return IsPreprocBranch(d.Kind())
		}
		return false
	})
	return exited
}

// onceLoop reports whether a do statement runs its body once: `do { }
// while (0)`, the statement-macro idiom.
// OnceLoopOf returns the `do { } while (0)` a break statement leaves, nil
// when the break leaves another loop or a switch.
func OnceLoopOf(brk *grammar.Node) *grammar.Node {
	for p := brk.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "do_statement":
			if onceLoop(p) {
				return p
			}
			return nil
		case "for_statement", "while_statement", "for_range_loop", "switch_statement", "function_definition", "lambda_expression":
			return nil
		}
	}
	return nil
}

func onceLoop(d *grammar.Node) bool {
	cond := Unparen(d.ChildByField("condition"))
	if cond == nil {
		return false
	}
	t := strings.TrimSpace(cond.Text())
	return t == "0" || t == "false"
}

// IsPreprocBranch reports whether a node kind is a branch of a
// preprocessor conditional inside code.
func IsPreprocBranch(kind string) bool {
	switch kind {
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		return true
	}
	return false
}

// TemplateParamNames are the names of the template parameters in scope in
// fn: its own and those of the class templates around it.
func TemplateParamNames(fn *grammar.Node) []string {
	var out []string
	for t := fn.Parent(); t != nil; t = t.Parent() {
		if t.Kind() != "template_declaration" {
			continue
		}
		pl := t.ChildByField("parameters")
		if pl == nil {
			continue
		}
		for _, p := range pl.NamedChildren() {
			name := ""
			if d := p.ChildByField("declarator"); d != nil {
				name = DeclaredName(d)
			} else if n := p.ChildByField("name"); n != nil {
				name = n.Text()
			} else {
				// `typename T` / `class T`: the name is the only child.
				for _, c := range p.NamedChildren() {
					if c.Kind() == "type_identifier" {
						name = c.Text()
					}
				}
			}
			if name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}
