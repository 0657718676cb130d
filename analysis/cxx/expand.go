package cxx

import (
	"bytes"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A kernel a macro declares (`#define BATCH_DEF(type) extern "C"
// __global__ __aicore__ void op_##type(ARGS_DEF) { ... }`, instantiated as
// `TYPES_DEF(BATCH_DEF);`) has no definition in the text until the macros
// are expanded. ExpandMacros does what the preprocessor does with the
// unit's #defines (parameters, `#`, `##`, `__VA_ARGS__`, object-like
// macros, rescanning), so the instantiation can be parsed as the functions
// it declares.

// ppToken is a preprocessing token; space marks whitespace before it.
type ppToken struct {
	text  string
	space bool
}

// maxExpandTokens bounds an expansion (a macro that doubles itself at each
// level would grow without end).
const maxExpandTokens = 1 << 18

// maxExpandDepth bounds nested expansions.
const maxExpandDepth = 32

// ExpandMacros expands text with the definitions def gives (nil for a name
// that is not a macro, or whose definition is not known): ok is false past
// the bounds.
func ExpandMacros(text string, def func(name string) *Macro) (string, bool) {
	x := expander{def: def}
	out := x.expand(ppTokens(text), nil, 0)
	if x.over {
		return "", false
	}
	var b strings.Builder
	for i, t := range out {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String(), true
}

type expander struct {
	def   func(string) *Macro
	n     int
	over  bool
	cache map[string][]ppToken
}

// body returns m's replacement tokens, tokenized once.
func (x *expander) body(m *Macro) []ppToken {
	if x.cache == nil {
		x.cache = map[string][]ppToken{}
	}
	b, ok := x.cache[m.Body]
	if !ok {
		b = ppTokens(m.Body)
		x.cache[m.Body] = b
	}
	return b
}

func (x *expander) expand(toks []ppToken, hide []string, depth int) []ppToken {
	var out []ppToken
	for i := 0; i < len(toks) && !x.over; i++ {
		t := toks[i]
		m := x.macro(t.text, hide)
		if m == nil || depth >= maxExpandDepth {
			out = append(out, t)
			continue
		}
		var rep []ppToken
		if !m.FuncLike {
			rep = x.body(m)
		} else {
			args, end, ok := ppArgs(toks, i+1)
			if !ok {
				out = append(out, t)
				continue
			}
			rep = x.substitute(m, args, hide, depth)
			i = end
		}
		rep = x.expand(rep, append(hide[:len(hide):len(hide)], m.Name), depth+1)
		if len(rep) > 0 {
			rep[0].space = t.space
		}
		out = append(out, rep...)
		if x.n += len(rep); x.n > maxExpandTokens {
			x.over = true
		}
	}
	return out
}

// macro is name's definition unless name is an expansion's own (hidden).
func (x *expander) macro(name string, hide []string) *Macro {
	if name == "" || !isIdentByte(name[0]) || name[0] >= '0' && name[0] <= '9' {
		return nil
	}
	for _, h := range hide {
		if h == name {
			return nil
		}
	}
	return x.def(name)
}

// ppArgs reads a call's arguments from the "(" at or after toks[i]: the
// arguments, split at top-level commas, and the index of the ")".
func ppArgs(toks []ppToken, i int) (args [][]ppToken, end int, ok bool) {
	if i >= len(toks) || toks[i].text != "(" {
		return nil, 0, false
	}
	depth := 0
	var cur []ppToken
	for j := i + 1; j < len(toks); j++ {
		switch toks[j].text {
		case "(":
			depth++
		case ")":
			if depth == 0 {
				return append(args, cur), j, true
			}
			depth--
		case ",":
			if depth == 0 {
				args, cur = append(args, cur), nil
				continue
			}
		}
		cur = append(cur, toks[j])
	}
	return nil, 0, false
}

// substitute puts the arguments in m's body: `#p` as a string, a
// parameter beside `##` as written, any other fully expanded; then pastes.
func (x *expander) substitute(m *Macro, args [][]ppToken, hide []string, depth int) []ppToken {
	arg := func(name string) ([]ppToken, bool) {
		for k, p := range m.Params {
			if p != name {
				continue
			}
			if p == "__VA_ARGS__" || k == len(m.Params)-1 && len(args) > len(m.Params) {
				var va []ppToken
				for a := k; a < len(args); a++ {
					if a > k {
						va = append(va, ppToken{text: ","})
					}
					va = append(va, args[a]...)
				}
				return va, true
			}
			if k < len(args) {
				return args[k], true
			}
			return nil, true
		}
		return nil, false
	}
	body := x.body(m)
	var out []ppToken
	paste := false
	for i := 0; i < len(body); i++ {
		t := body[i]
		if t.text == "#" && i+1 < len(body) {
			if a, ok := arg(body[i+1].text); ok {
				out = append(out, ppToken{text: `"` + strings.ReplaceAll(joinTokens(a), `"`, `\"`) + `"`, space: t.space})
				i++
				continue
			}
		}
		if t.text == "##" {
			paste = true
			continue
		}
		a, isParam := arg(t.text)
		var rep []ppToken
		switch {
		case !isParam:
			rep = []ppToken{t}
		case paste || i+1 < len(body) && body[i+1].text == "##":
			rep = a
		default:
			rep = x.expand(a, hide, depth+1)
		}
		if len(rep) > 0 {
			rep = append([]ppToken{{text: rep[0].text, space: t.space}}, rep[1:]...)
		}
		if paste && len(out) > 0 && len(rep) > 0 {
			out[len(out)-1].text += rep[0].text
			rep = rep[1:]
		}
		paste = false
		out = append(out, rep...)
	}
	return out
}

// joinTokens is the tokens' text as written (one space where there was
// any).
func joinTokens(toks []ppToken) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// ppTokens splits text into preprocessing tokens.
func ppTokens(s string) []ppToken {
	var out []ppToken
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			space = true
			i++
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			space = true
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if e := strings.Index(s[i+2:], "*/"); e >= 0 {
				i += e + 4
			} else {
				i = len(s)
			}
			space = true
			continue
		}
		j := i + 1
		switch {
		case isIdentByte(c):
			for j < len(s) && (isIdentByte(s[j]) || c >= '0' && c <= '9' && s[j] == '.') {
				j++
			}
		case c == '"' || c == '\'':
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
		case c == '#' && j < len(s) && s[j] == '#', c == ':' && j < len(s) && s[j] == ':':
			j++
		}
		out = append(out, ppToken{text: s[i:j], space: space})
		space = false
		i = j
	}
	return out
}

// KernelMacros are the macros whose expansion declares a `__global__`
// kernel: a body holding the word, or naming such a macro (to a fixed
// point). def gives the definition the unit compiles.
func KernelMacros(names []string, def func(string) *Macro) map[string]bool {
	// Most units declare no kernel by macro: one look at the bodies.
	if !slices.ContainsFunc(names, func(n string) bool {
		m := def(n)
		return m != nil && m.FuncLike && strings.Contains(m.Body, "__global__")
	}) {
		return nil
	}
	kernel := map[string]bool{}
	refs := map[string][]string{}
	for _, n := range names {
		m := def(n)
		if m == nil || !m.FuncLike {
			continue
		}
		for _, t := range ppTokens(m.Body) {
			switch {
			case t.text == "__global__":
				kernel[n] = true
			case isIdentByte(t.text[0]):
				refs[n] = append(refs[n], t.text)
			}
		}
	}
	if len(kernel) == 0 {
		return nil
	}
	for grew := true; grew; {
		grew = false
		for n, rs := range refs {
			if kernel[n] {
				continue
			}
			for _, r := range rs {
				if kernel[r] {
					kernel[n], grew = true, true
					break
				}
			}
		}
	}
	return kernel
}

// Instantiations returns the kernels f's code declares through kernel
// macros (`TYPES_DEF(BATCH_DEF);`, `GLOBAL_DEF(op);`, a statement whose
// macro or one of whose arguments is in kernel), expanded, each on the
// line of its statement, the other lines blank: a text to parse as the
// functions the statements declare, whose lines are f's. "" when f has
// none.
func Instantiations(f *grammar.File, def func(string) *Macro, kernel map[string]bool) string {
	if len(kernel) == 0 {
		return ""
	}
	src := f.Src
	var b strings.Builder
	line := 0
	prev := byte(';')
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = grammar.CommentEnd(src, i)
			continue
		case c == '#' && atLineStart(src, i):
			i = grammar.DirectiveEnd(src, i)
			continue
		case c == '"' || c == '\'':
			i = grammar.QuotedEnd(src, i)
			prev = c
			continue
		case !isIdentByte(c):
			prev = c
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		start, p := i, prev
		i, prev = j, 'a'
		if p != ';' && p != '{' && p != '}' {
			continue
		}
		m := def(string(src[start:j]))
		if m == nil || !m.FuncLike {
			continue
		}
		// Only the argument list is tokenised: reading 64 KB past every
		// statement-starting macro call (a logging macro on each line of a
		// header) was a fifth of a check of shmem's device library.
		toks := ppTokens(string(src[j:argListEnd(src, j, 1<<16)]))
		args, end, ok := ppArgs(toks, 0)
		named := kernel[m.Name]
		for _, a := range args {
			for _, t := range a {
				named = named || kernel[t.text]
			}
		}
		if !ok || !named {
			continue
		}
		call := string(src[start:j]) + joinTokens(toks[:end+1])
		exp, ok := ExpandMacros(call, def)
		if !ok || !strings.Contains(exp, "__global__") {
			continue
		}
		for at := bytes.Count(src[:start], []byte("\n")); line < at; line++ {
			b.WriteByte('\n')
		}
		b.WriteString(strings.ReplaceAll(exp, "\n", " "))
		b.WriteString(";\n")
		line++
	}
	return b.String()
}

// argListEnd is where the parenthesised list starting at src[j] (after
// blanks) ends: past its closing parenthesis (grammar.BalancedEnd);
// j+limit (or the text's end) when it does not close by then, and j when
// no list starts there.
func argListEnd(src []byte, j, limit int) int {
	stop := min(len(src), j+limit)
	i := j
	for i < stop && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i >= stop || src[i] != '(' {
		return j
	}
	if end := grammar.BalancedEnd(src, i, stop-i); end > 0 {
		return end
	}
	return stop
}

// atLineStart reports whether only blanks stand before src[i] on its line.
func atLineStart(src []byte, i int) bool {
	for k := i - 1; k >= 0 && src[k] != '\n'; k-- {
		if src[k] != ' ' && src[k] != '\t' {
			return false
		}
	}
	return true
}
