package abi

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// env evaluates the small static subset of Python that stubs use to build
// source paths: string literals, __file__, Path(...), `/`, .parent,
// os.path.join/dirname, str(...) and module-level constants. Nothing is ever
// executed.
type env struct {
	f      *grammar.File
	al     map[string]string
	consts map[string]*grammar.Node // module-level NAME = expr (last wins)
	funcs  map[string]*grammar.Node // module-level def NAME(...)
	active map[string]bool          // cycle guard
	// locals are the assignments of the helper functions being
	// evaluated, innermost last; a name resolves in the innermost, then
	// at module level.
	locals []map[string]*grammar.Node
}

func newEnv(f *grammar.File) *env {
	e := &env{f: f, al: aliases(f), consts: map[string]*grammar.Node{}, funcs: map[string]*grammar.Node{}, active: map[string]bool{}}
	for _, st := range f.Tree.Root().NamedChildren() {
		e.collect(st)
	}
	return e
}

// collect records module-level assignments, also inside top-level
// if/try blocks (platform switches).
func (e *env) collect(st *grammar.Node) {
	switch st.Kind() {
	case "function_definition":
		if name := st.ChildByField("name"); name != nil {
			e.funcs[name.Text()] = st
		}
	case "decorated_definition":
		if d := st.ChildByField("definition"); d != nil && d.Kind() == "function_definition" {
			if name := d.ChildByField("name"); name != nil {
				e.funcs[name.Text()] = d
			}
		}
	case "expression_statement":
		for _, a := range st.NamedChildren() {
			if a.Kind() != "assignment" {
				continue
			}
			l, r := a.ChildByField("left"), a.ChildByField("right")
			if l != nil && r != nil && l.Kind() == "identifier" {
				if _, seen := e.consts[l.Text()]; seen {
					// Reassigned: two candidate values, not a constant.
					e.consts[l.Text()] = nil
					continue
				}
				e.consts[l.Text()] = r
			}
		}
	}
}

type evalErr string

func fail(format string, args ...any) (string, evalErr) {
	return "", evalErr(fmt.Sprintf(format, args...))
}

// value evaluates n to a string (a path or text) or says why it cannot.
func (e *env) value(n *grammar.Node, depth int) (string, evalErr) {
	if n == nil {
		return fail("empty expression")
	}
	if depth > 24 {
		return fail("expression too deep")
	}
	switch n.Kind() {
	case "parenthesized_expression":
		if c := firstNamed(n); c != nil {
			return e.value(c, depth+1)
		}
	case "string":
		return e.stringLit(n, depth)
	case "concatenated_string":
		var b strings.Builder
		for _, c := range n.NamedChildren() {
			if c.Kind() == "comment" {
				continue
			}
			v, err := e.value(c, depth+1)
			if err != "" {
				return "", err
			}
			b.WriteString(v)
		}
		return b.String(), ""
	case "identifier":
		name := n.Text()
		if name == "__file__" {
			return e.f.Path, ""
		}
		def, level, ok := e.lookup(name)
		if !ok {
			return fail("`%s` is not a module-level constant of this file", name)
		}
		if def == nil {
			return fail("`%s` is assigned more than once", name)
		}
		key := fmt.Sprint(level, name)
		if e.active[key] {
			return fail("`%s` refers to itself", name)
		}
		e.active[key] = true
		defer delete(e.active, key)
		defer e.enter(level)()
		return e.value(def, depth+1)
	case "binary_operator":
		op := n.ChildByField("operator")
		l, err := e.value(n.ChildByField("left"), depth+1)
		if err != "" {
			return "", err
		}
		r, err := e.value(n.ChildByField("right"), depth+1)
		if err != "" {
			return "", err
		}
		if op == nil {
			return fail("unknown operator")
		}
		switch op.Text() {
		case "/":
			return join(l, r), ""
		case "+":
			return l + r, ""
		}
		return fail("operator `%s` on paths", op.Text())
	case "attribute":
		obj, attr := n.ChildByField("object"), n.ChildByField("attribute")
		if obj == nil || attr == nil {
			break
		}
		switch attr.Text() {
		case "parent":
			v, err := e.value(obj, depth+1)
			if err != "" {
				return "", err
			}
			return filepath.Dir(v), ""
		case "name":
			v, err := e.value(obj, depth+1)
			if err != "" {
				return "", err
			}
			return filepath.Base(v), ""
		}
		return fail("`%s` is not a path expression extern-lsp evaluates", n.Text())
	case "subscript":
		// Path(__file__).parents[1]
		val := n.ChildByField("value")
		sub := n.ChildByField("subscript")
		if val != nil && sub != nil && val.Kind() == "attribute" && sub.Kind() == "integer" {
			if a := val.ChildByField("attribute"); a != nil && a.Text() == "parents" {
				k, err := strconv.Atoi(sub.Text())
				if err == nil && k >= 0 {
					v, verr := e.value(val.ChildByField("object"), depth+1)
					if verr != "" {
						return "", verr
					}
					for i := 0; i <= k; i++ {
						v = filepath.Dir(v)
					}
					return v, ""
				}
			}
		}
	case "call":
		return e.call(n, depth)
	}
	return fail("`%s` is not a static path expression", clip(n.Text()))
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func join(a, b string) string {
	if filepath.IsAbs(b) {
		return b
	}
	return filepath.Join(a, b)
}

func (e *env) call(n *grammar.Node, depth int) (string, evalErr) {
	fn := n.ChildByField("function")
	al := n.ChildByField("arguments")
	if fn == nil || al == nil {
		return fail("incomplete call")
	}
	var args []*grammar.Node
	for _, a := range al.NamedChildren() {
		if a.Kind() == "comment" {
			continue
		}
		if a.Kind() == "keyword_argument" || a.Kind() == "list_splat" || a.Kind() == "dictionary_splat" {
			return fail("`%s` has keyword or starred arguments", clip(n.Text()))
		}
		args = append(args, a)
	}
	vals := func() ([]string, evalErr) {
		out := make([]string, 0, len(args))
		for _, a := range args {
			v, err := e.value(a, depth+1)
			if err != "" {
				return nil, err
			}
			out = append(out, v)
		}
		return out, ""
	}
	// Method calls on a path: X.resolve(), X.joinpath(...), ...
	if fn.Kind() == "attribute" {
		obj, attr := fn.ChildByField("object"), fn.ChildByField("attribute")
		d := canonical(e.al, dotted(fn))
		switch {
		case d == "os.path.join" || d == "posixpath.join":
			vs, err := vals()
			if err != "" || len(vs) == 0 {
				return "", orErr(err, "os.path.join() with no arguments")
			}
			p := vs[0]
			for _, v := range vs[1:] {
				p = join(p, v)
			}
			return p, ""
		case pathFuncs[d] != nil:
			vs, err := vals()
			if err != "" || len(vs) != 1 {
				return "", orErr(err, d+"() takes one argument")
			}
			return pathFuncs[d](vs[0]), ""
		case d == "pathlib.Path" || d == "pathlib.PurePath" || d == "pathlib.PosixPath":
			return e.pathCtor(n, vals)
		case d == "os.environ.get" || d == "os.getenv":
			v := "?"
			if len(args) > 0 {
				v = clip(args[0].Text())
			}
			return fail("`%s` reads the environment variable %s at run time", clip(n.Text()), v)
		}
		if obj != nil && attr != nil {
			switch attr.Text() {
			case "resolve", "absolute", "as_posix", "expanduser", "__str__":
				if len(args) == 0 {
					return e.value(obj, depth+1)
				}
			case "joinpath", "with_name", "with_suffix":
				base, err := e.value(obj, depth+1)
				if err != "" {
					return "", err
				}
				vs, err := vals()
				switch {
				case err != "":
					return "", err
				case attr.Text() == "joinpath":
					for _, v := range vs {
						base = join(base, v)
					}
					return base, ""
				case len(vs) != 1:
					return fail("%s() takes one argument", attr.Text())
				case attr.Text() == "with_name":
					return filepath.Join(filepath.Dir(base), vs[0]), ""
				}
				return strings.TrimSuffix(base, filepath.Ext(base)) + vs[0], ""
			case "format", "replace", "strip", "lower", "upper":
				return fail("`%s` computes a path at run time", clip(n.Text()))
			}
		}
		return fail("`%s` is a call extern-lsp does not evaluate", clip(n.Text()))
	}
	name := canonical(e.al, dotted(fn))
	if def, ok := e.funcs[dotted(fn)]; ok && fn.Kind() == "identifier" {
		if e.seqFunc(def, depth) {
			return fail("`%s` returns a sequence, not one path", clip(n.Text()))
		}
		r, err := e.evalFunc(def, args, depth)
		if err != "" {
			return "", err
		}
		defer e.leave()
		return e.value(r, depth+1)
	}
	if strings.Contains(name, ".") && name != dotted(fn) && !strings.HasPrefix(name, "pathlib.") && !strings.HasPrefix(name, "os.") {
		return fail("`%s` is imported from %s; its result is known only at run time", clip(n.Text()), name[:strings.LastIndexByte(name, '.')])
	}
	switch name {
	case "str", "os.fspath":
		vs, err := vals()
		if err != "" || len(vs) != 1 {
			return "", orErr(err, "str() takes one argument")
		}
		return vs[0], ""
	case "Path", "PurePath", "PosixPath", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath":
		return e.pathCtor(n, vals)
	}
	return fail("`%s` is a call extern-lsp does not evaluate", clip(n.Text()))
}

// pathFuncs are the one-argument os.path functions the evaluator knows.
var pathFuncs = map[string]func(string) string{
	"os.path.dirname": filepath.Dir, "os.path.basename": filepath.Base, "os.path.abspath": filepath.Clean, "os.path.realpath": filepath.Clean,
	"os.path.normpath": filepath.Clean, "os.fspath": filepath.Clean, "os.path.expanduser": filepath.Clean,
}

func (e *env) pathCtor(n *grammar.Node, vals func() ([]string, evalErr)) (string, evalErr) {
	vs, err := vals()
	if err != "" {
		return "", err
	}
	if len(vs) == 0 {
		return fail("`%s` is the working directory, known only at run time", clip(n.Text()))
	}
	p := vs[0]
	for _, v := range vs[1:] {
		p = join(p, v)
	}
	return p, ""
}

func orErr(err evalErr, msg string) evalErr {
	if err != "" {
		return err
	}
	return evalErr(msg)
}

func (e *env) stringLit(n *grammar.Node, depth int) (string, evalErr) {
	var b strings.Builder
	raw := false
	for _, c := range n.NamedChildren() {
		switch c.Kind() {
		case "string_start":
			p := strings.ToLower(strings.TrimRight(c.Text(), `"'`))
			raw = strings.Contains(p, "r")
			if strings.Contains(p, "b") {
				return fail("bytes literal")
			}
		case "string_content":
			t := c.Text()
			if !raw && strings.ContainsRune(t, '\\') {
				if u, err := strconv.Unquote(`"` + strings.ReplaceAll(t, `"`, `\"`) + `"`); err == nil {
					t = u
				}
			}
			b.WriteString(t)
		case "escape_sequence":
			if u, err := strconv.Unquote(`"` + c.Text() + `"`); err == nil {
				b.WriteString(u)
			}
		case "interpolation":
			if c.ChildByField("format_specifier") != nil || c.ChildByField("type_conversion") != nil {
				return fail("f-string with a format spec")
			}
			v, err := e.value(c.ChildByField("expression"), depth+1)
			if err != "" {
				return "", err
			}
			b.WriteString(v)
		}
	}
	return b.String(), ""
}

type strVal struct {
	s   string
	why string
}

// str evaluates a string-valued argument (core_type).
func (e *env) str(n *grammar.Node) (strVal, bool) {
	v, err := e.value(n, 0)
	if err != "" {
		return strVal{why: string(err)}, false
	}
	return strVal{s: v}, true
}

// path evaluates a path argument into an absolute path, relative paths
// being relative to the stub's folder. On failure it returns the reason.
func (e *env) path(n *grammar.Node) (string, bool) {
	v, err := e.value(n, 0)
	if err != "" {
		return string(err), false
	}
	if v == "" {
		return "empty path", false
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(filepath.Dir(e.f.Path), v)
	}
	return filepath.Clean(v), true
}

// boolean evaluates True/False or a module constant holding one.
func (e *env) boolean(n *grammar.Node) (bool, bool) {
	for depth := 0; n != nil && depth < 16; depth++ {
		switch n.Kind() {
		case "true":
			return true, true
		case "false", "none":
			return false, true
		case "integer":
			return n.Text() != "0", true
		case "parenthesized_expression":
			n = firstNamed(n)
			continue
		case "identifier":
			def, ok := e.consts[n.Text()]
			if !ok || def == nil {
				return false, false
			}
			n = def
			continue
		}
		return false, false
	}
	return false, false
}

// lookup finds a name among the locals of the helpers being evaluated,
// innermost first, then at module level. level is the number of scopes
// the definition sees (0: module level).
func (e *env) lookup(name string) (def *grammar.Node, level int, ok bool) {
	for k := len(e.locals) - 1; k >= 0; k-- {
		if d, ok := e.locals[k][name]; ok {
			return d, k + 1, true
		}
	}
	d, ok := e.consts[name]
	return d, 0, ok
}

// enter evaluates in the scopes a definition at level sees (Python
// scoping: a module constant sees no helper's locals) until the returned
// function restores them.
func (e *env) enter(level int) func() {
	saved := e.locals
	e.locals = e.locals[:level]
	return func() { e.locals = saved }
}

// evalFunc binds a module-level helper's body for evaluation: straight-line
// assignments to names and one final `return EXPR` (a docstring, `pass`
// and comments aside); it returns that expression with the helper's locals
// entered (the caller evaluates it, then leaves). Helpers with parameters,
// branches or loops are not evaluated.
func (e *env) evalFunc(def *grammar.Node, args []*grammar.Node, depth int) (*grammar.Node, evalErr) {
	name := ""
	if nm := def.ChildByField("name"); nm != nil {
		name = nm.Text()
	}
	if ps := def.ChildByField("parameters"); ps != nil && len(ps.NamedChildren()) > 0 || len(args) > 0 {
		return nil, evalErr(fmt.Sprintf("`%s()` takes parameters; extern-lsp evaluates only helpers without", name))
	}
	if depth > 16 || len(e.locals) > 8 {
		return nil, "helpers nest too deep"
	}
	body := def.ChildByField("body")
	if body == nil {
		return nil, evalErr(fmt.Sprintf("`%s()` has no body", name))
	}
	locals := map[string]*grammar.Node{}
	var ret *grammar.Node
	for _, st := range body.NamedChildren() {
		if ret != nil && st.Kind() != "comment" {
			return nil, evalErr(fmt.Sprintf("`%s()` has code after its return", name))
		}
		switch st.Kind() {
		case "comment", "pass_statement":
		case "expression_statement":
			for _, a := range st.NamedChildren() {
				switch a.Kind() {
				case "string": // docstring
				case "assignment":
					l, r := a.ChildByField("left"), a.ChildByField("right")
					if l == nil || r == nil || l.Kind() != "identifier" {
						return nil, evalErr(fmt.Sprintf("`%s()` assigns `%s`", name, clip(a.Text())))
					}
					if _, seen := locals[l.Text()]; seen {
						locals[l.Text()] = nil
						continue
					}
					locals[l.Text()] = r
				default:
					return nil, evalErr(fmt.Sprintf("`%s()` runs `%s`", name, clip(a.Text())))
				}
			}
		case "return_statement":
			ret = firstNamed(st)
			if ret == nil {
				return nil, evalErr(fmt.Sprintf("`%s()` returns None", name))
			}
		default:
			return nil, evalErr(fmt.Sprintf("`%s()` has control flow (`%s`) extern-lsp does not evaluate", name, clip(firstLine(st.Text()))))
		}
	}
	if ret == nil {
		return nil, evalErr(fmt.Sprintf("`%s()` returns nothing extern-lsp can see", name))
	}
	e.locals = append(e.locals, locals)
	return ret, ""
}

// leave drops the locals of the helper evalFunc entered.
func (e *env) leave() { e.locals = e.locals[:len(e.locals)-1] }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// seqFunc reports whether a helper's final return is a sequence.
func (e *env) seqFunc(def *grammar.Node, depth int) bool {
	body := def.ChildByField("body")
	if body == nil {
		return false
	}
	kids := body.NamedChildren()
	for k := len(kids) - 1; k >= 0; k-- {
		if kids[k].Kind() == "return_statement" {
			return e.isSeq(firstNamed(kids[k]), depth+1)
		}
	}
	return false
}

// item is one element of an evaluated sequence: a path, or why the
// expression it comes from (Node) could not be evaluated.
type item struct {
	val  string
	why  evalErr
	node *grammar.Node
}

// isSeq reports whether n evaluates to a sequence (list, tuple,
// comprehension, tuple(...), a helper returning one, a constant holding
// one, a concatenation of those) rather than to one path.
func (e *env) isSeq(n *grammar.Node, depth int) bool {
	if n == nil || depth > 24 {
		return false
	}
	switch n.Kind() {
	case "list", "tuple", "list_comprehension", "generator_expression", "set":
		return true
	case "parenthesized_expression":
		return e.isSeq(firstNamed(n), depth+1)
	case "binary_operator":
		return e.isSeq(n.ChildByField("left"), depth+1) || e.isSeq(n.ChildByField("right"), depth+1)
	case "identifier":
		def, level, ok := e.lookup(n.Text())
		if !ok || def == nil || e.active[fmt.Sprint(level, n.Text())] {
			return false
		}
		key := fmt.Sprint(level, n.Text())
		e.active[key] = true
		defer delete(e.active, key)
		defer e.enter(level)()
		return e.isSeq(def, depth+1)
	case "call":
		fn := n.ChildByField("function")
		if fn == nil {
			return false
		}
		switch d := dotted(fn); d {
		case "tuple", "list", "sorted":
			return true
		default:
			if def, ok := e.funcs[d]; ok && fn.Kind() == "identifier" {
				return e.seqFunc(def, depth)
			}
		}
	}
	return false
}

// items evaluates a sequence of paths (include_dirs=): list and tuple
// literals, `*` splats, `+` concatenation, tuple()/list(), module
// constants, helper functions without parameters, and comprehensions that
// only keep the directories that exist (`p for p in C if p.is_dir()`: a
// missing directory holds no header, so C serves include resolution
// equally). What cannot be evaluated is an item with its reason, never a
// guess.
func (e *env) items(n *grammar.Node, depth int) []item {
	unknown := func(why evalErr) []item { return []item{{why: why, node: n}} }
	if n == nil {
		return nil
	}
	if depth > 24 {
		return unknown("expression too deep")
	}
	if !e.isSeq(n, depth) {
		v, err := e.value(n, depth+1)
		return []item{{val: v, why: err, node: n}}
	}
	switch n.Kind() {
	case "parenthesized_expression":
		return e.items(firstNamed(n), depth+1)
	case "list", "tuple", "set":
		var out []item
		for _, c := range n.NamedChildren() {
			switch c.Kind() {
			case "comment":
			case "list_splat":
				out = append(out, e.items(firstNamed(c), depth+1)...)
			default:
				v, err := e.value(c, depth+1)
				out = append(out, item{val: v, why: err, node: c})
			}
		}
		return out
	case "binary_operator":
		if op := n.ChildByField("operator"); op == nil || op.Text() != "+" {
			return unknown(evalErr(fmt.Sprintf("`%s` is not a concatenation", clip(n.Text()))))
		}
		return append(e.items(n.ChildByField("left"), depth+1), e.items(n.ChildByField("right"), depth+1)...)
	case "identifier":
		def, level, _ := e.lookup(n.Text())
		key := fmt.Sprint(level, n.Text())
		e.active[key] = true
		defer delete(e.active, key)
		defer e.enter(level)()
		return e.items(def, depth+1)
	case "list_comprehension", "generator_expression":
		return e.comprehension(n, depth)
	case "call":
		fn := n.ChildByField("function")
		var args []*grammar.Node
		if al := n.ChildByField("arguments"); al != nil && al.Kind() == "generator_expression" {
			args = []*grammar.Node{al} // tuple(p for p in C)
		} else if al != nil {
			for _, a := range al.NamedChildren() {
				if a.Kind() != "comment" {
					args = append(args, a)
				}
			}
		}
		switch d := dotted(fn); d {
		case "tuple", "list":
			if len(args) != 1 {
				return unknown(evalErr(fmt.Sprintf("`%s` takes one argument", clip(n.Text()))))
			}
			return e.items(args[0], depth+1)
		case "sorted":
			return unknown(evalErr(fmt.Sprintf("`%s` orders the folders at run time", clip(n.Text()))))
		default:
			def, ok := e.funcs[d]
			if !ok {
				break
			}
			r, err := e.evalFunc(def, args, depth)
			if err != "" {
				return unknown(err)
			}
			defer e.leave()
			return e.items(r, depth+1)
		}
	}
	return unknown(evalErr(fmt.Sprintf("`%s` is not a sequence extern-lsp evaluates", clip(n.Text()))))
}

// comprehension evaluates `[x for x in C]` and `(x for x in C if
// x.is_dir())` (also exists(), os.path.isdir/exists(x)) to C's items.
func (e *env) comprehension(n *grammar.Node, depth int) []item {
	unknown := []item{{why: evalErr(fmt.Sprintf("`%s` computes its folders at run time", clip(n.Text()))), node: n}}
	body := n.ChildByField("body")
	var clause *grammar.Node
	for _, c := range n.NamedChildren() {
		switch c.Kind() {
		case "for_in_clause":
			if clause != nil {
				return unknown
			}
			clause = c
		case "if_clause":
			if !e.existsFilter(firstNamed(c), body) {
				return unknown
			}
		}
	}
	if body == nil || clause == nil || body.Kind() != "identifier" {
		return unknown
	}
	left, right := clause.ChildByField("left"), clause.ChildByField("right")
	if left == nil || right == nil || left.Kind() != "identifier" || left.Text() != body.Text() {
		return unknown
	}
	return e.items(right, depth+1)
}

// existsFilter reports whether cond only tests that v is an existing
// folder or file.
func (e *env) existsFilter(cond, v *grammar.Node) bool {
	if cond == nil || v == nil || cond.Kind() != "call" {
		return false
	}
	fn := cond.ChildByField("function")
	al := cond.ChildByField("arguments")
	if fn == nil || al == nil || fn.Kind() != "attribute" {
		return false
	}
	args := al.NamedChildren()
	switch canonical(e.al, dotted(fn)) {
	case "os.path.isdir", "os.path.exists":
		return len(args) == 1 && args[0].Text() == v.Text()
	}
	obj, attr := fn.ChildByField("object"), fn.ChildByField("attribute")
	return len(args) == 0 && obj != nil && attr != nil && obj.Text() == v.Text() && (attr.Text() == "is_dir" || attr.Text() == "exists")
}

// paths evaluates an include_dirs= value: each item an absolute path
// (relative ones are relative to the stub's folder) or its reason.
func (e *env) paths(n *grammar.Node) []item {
	out := e.items(n, 0)
	for k := range out {
		it := &out[k]
		if it.why != "" {
			continue
		}
		if it.val == "" {
			it.why = "empty path"
			continue
		}
		if !filepath.IsAbs(it.val) {
			it.val = filepath.Join(filepath.Dir(e.f.Path), it.val)
		}
		it.val = filepath.Clean(it.val)
	}
	return out
}
