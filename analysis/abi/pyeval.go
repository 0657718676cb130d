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
	active map[string]bool          // cycle guard
}

func newEnv(f *grammar.File) *env {
	e := &env{f: f, al: aliases(f), consts: map[string]*grammar.Node{}, active: map[string]bool{}}
	for _, st := range f.Tree.Root().NamedChildren() {
		e.collect(st)
	}
	return e
}

// collect records module-level assignments, also inside top-level
// if/try blocks (platform switches).
func (e *env) collect(st *grammar.Node) {
	switch st.Kind() {
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
		def, ok := e.consts[name]
		if !ok {
			return fail("`%s` is not a module-level constant of this file", name)
		}
		if def == nil {
			return fail("`%s` is assigned more than once", name)
		}
		if e.active[name] {
			return fail("`%s` refers to itself", name)
		}
		e.active[name] = true
		defer delete(e.active, name)
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
		case d == "os.path.dirname":
			vs, err := vals()
			if err != "" || len(vs) != 1 {
				return "", orErr(err, "os.path.dirname() takes one argument")
			}
			return filepath.Dir(vs[0]), ""
		case d == "os.path.basename":
			vs, err := vals()
			if err != "" || len(vs) != 1 {
				return "", orErr(err, "os.path.basename() takes one argument")
			}
			return filepath.Base(vs[0]), ""
		case d == "os.path.abspath" || d == "os.path.realpath" || d == "os.path.normpath" || d == "os.fspath" || d == "os.path.expanduser":
			vs, err := vals()
			if err != "" || len(vs) != 1 {
				return "", orErr(err, d+"() takes one argument")
			}
			return filepath.Clean(vs[0]), ""
		case d == "pathlib.Path" || d == "pathlib.PurePath" || d == "pathlib.PosixPath":
			return e.pathCtor(n, vals)
		}
		if obj != nil && attr != nil {
			switch attr.Text() {
			case "resolve", "absolute", "as_posix", "expanduser", "__str__":
				if len(args) == 0 {
					return e.value(obj, depth+1)
				}
			case "joinpath":
				base, err := e.value(obj, depth+1)
				if err != "" {
					return "", err
				}
				vs, err := vals()
				if err != "" {
					return "", err
				}
				for _, v := range vs {
					base = join(base, v)
				}
				return base, ""
			case "with_name":
				base, err := e.value(obj, depth+1)
				if err != "" {
					return "", err
				}
				vs, err := vals()
				if err != "" || len(vs) != 1 {
					return "", orErr(err, "with_name() takes one argument")
				}
				return filepath.Join(filepath.Dir(base), vs[0]), ""
			case "with_suffix":
				base, err := e.value(obj, depth+1)
				if err != "" {
					return "", err
				}
				vs, err := vals()
				if err != "" || len(vs) != 1 {
					return "", orErr(err, "with_suffix() takes one argument")
				}
				return strings.TrimSuffix(base, filepath.Ext(base)) + vs[0], ""
			case "format", "replace", "strip", "lower", "upper":
				return fail("`%s` computes a path at run time", clip(n.Text()))
			}
		}
		return fail("`%s` is a call extern-lsp does not evaluate", clip(n.Text()))
	}
	name := canonical(e.al, dotted(fn))
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
