package grammar

import (
	"sort"
	"strings"
)

// Span is a byte range of the original source that was hidden from the
// parser, with the text that stood there.
type Span struct {
	Start, End uint32
	Text       string
}

// qualifiers are AscendC/CCE keywords tree-sitter-cpp does not know. Each is
// replaced by spaces of the same length so offsets and columns stay true.
var qualifiers = map[string]bool{
	"__gm__": true, "__aicore__": true, "__ubuf__": true, "__cbuf__": true, "__ca__": true, "__cb__": true,
	"__cc__": true, "__fbuf__": true, "__global__": true, "__sync_alias__": true, "__sync_in__": true,
	"__sync_out__": true, "__sync_noalias__": true, "__cce_aicore__": true, "__cce_simt_entry__": true,
	"__simt_callee__": true, "__simt_vf__": true, "__inline__": true, "__forceinline__": true,
	"__restrict__": true, "__gm_align__": true,
}

// pipeQualifiers take a parenthesized argument list: `__in_pipe__(MTE2)`,
// `__mix__(1, 2)` (a mixed kernel's cube:vector core ratio).
var pipeQualifiers = map[string]bool{"__in_pipe__": true, "__out_pipe__": true, "__mix__": true}

// jumpKeywords are statements a checking macro takes as an argument
// (`CHECK_RET(ret == 0, return ret);`); hidden, the call parses.
var jumpKeywords = map[string]bool{"return": true, "break": true, "continue": true}

// paren is one open '(' of the masker: what it starts and, for a macro's
// argument list, where its current argument began.
type paren struct {
	kind byte // 'l' lambda parameters, 'p' function pointer parameters, 'm' macro arguments, 0 other
	// braces is the brace depth at the '(' (a ';' inside a lambda body
	// in the arguments is not an argument separator).
	braces int
	// sep is the offset of the separator ('(', ',' or ';') before the
	// current argument; empty is true while that argument has no token.
	sep   int
	empty bool
}

// declKeywords start a declaration; an all-caps macro right before one of
// them (CATLASS_DEVICE, ASCENDC_HOST_AICORE, __PTO_INLINE__ ...) is a
// declaration specifier tree-sitter would otherwise read as a type.
var declKeywords = map[string]bool{
	"inline": true, "static": true, "void": true, "constexpr": true, "auto": true, "bool": true, "int": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true, "uint8_t": true, "uint16_t": true,
	"uint32_t": true, "uint64_t": true, "float": true, "half": true, "template": true, "extern": true,
	"__aicore__": true, "explicit": true, "virtual": true, "friend": true, "const": true, "unsigned": true,
	"signed": true, "char": true, "short": true, "long": true, "double": true, "size_t": true, "operator": true,
	"typename": true, "struct": true, "class": true, "enum": true, "union": true, "using": true,
}

// AscendIsReplacement maps the masked spelling of ASCEND_IS_AIV/AIC back to
// the original; `if ASCEND_IS_AIV {` (the macro expands to `constexpr (...)`)
// becomes `if (ASCENDISAIV) {` of equal length.
var AscendIsReplacement = map[string]string{"(ASCENDISAIV)": "ASCEND_IS_AIV", "(ASCENDISAIC)": "ASCEND_IS_AIC"}

func isIdentStart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isMacroName(s []byte) bool {
	if len(s) < 4 {
		return false
	}
	for _, b := range s {
		if !(b == '_' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') {
			return false
		}
	}
	return s[0] < '0' || s[0] > '9'
}

// Mask returns a copy of src with AscendC qualifiers blanked and the spans it
// changed. The result has exactly the length of src. It is one pass over
// the bytes: masking runs on every keystroke in the editor.
//
// Besides the qualifiers it hides, for the parser only, the constructs
// tree-sitter-cpp cannot read: declaration-position macros, a kernel
// launch's `<<<...>>>`, the template arguments of `operator()<AIC>(...)`,
// an empty `= {}` default argument, a statement passed to a checking
// macro (`CHECK(c, return x);`), the `extern "C" {` ... `}` that
// `#ifdef __cplusplus` wraps, and a stray `;` after a member function body.
// Every hidden text is a Span, so what it meant stays readable.
func Mask(src []byte) ([]byte, []Span) {
	var out []byte
	var spans []Span
	ensure := func() {
		if out == nil {
			out = append([]byte(nil), src...)
		}
	}
	blank := func(s, e int) {
		ensure()
		spans = append(spans, Span{Start: uint32(s), End: uint32(e), Text: string(src[s:e])})
		for i := s; i < e; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	skipBlank := func(i int) int {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		return i
	}
	identEnd := func(i int) int {
		for i < len(src) && isIdent(src[i]) {
			i++
		}
		return i
	}
	// last is the last significant byte on the current line ('\n' at a
	// line start), for the declaration-macro rule.
	last := byte('\n')
	// parens and braces track nesting: what each open '(' starts, and
	// whether each '{' opens a function body (follows a ')' that closed
	// neither a lambda's nor a function pointer's parameters).
	var parens []paren
	var braces []bool
	closed, afterBracket := byte(0), false
	// macroEnd is the end of the last all-caps word when nothing has
	// followed it yet: a '(' there opens a macro's arguments.
	macroEnd := -1
	// arg is the innermost open macro argument list when it is the
	// innermost paren and no brace opened since.
	arg := func() *paren {
		if n := len(parens); n > 0 && parens[n-1].kind == 'm' && parens[n-1].braces == len(braces) {
			return &parens[n-1]
		}
		return nil
	}
	touch := func() {
		if a := arg(); a != nil {
			a.empty = false
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			last = '\n'
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = CommentEnd(src, i)
		case c == '"' || c == '\'':
			touch()
			macroEnd = -1
			i = QuotedEnd(src, i)
			last = c
		case c == '[':
			touch()
			macroEnd = -1
			if hasPrefixAt(src, i, "[aicore]") {
				blank(i, i+8)
				i += 8
				continue
			}
			if hasPrefixAt(src, i, "[host,aicore]") {
				blank(i, i+13)
				i += 13
				continue
			}
			if e := attributeEnd(src, i); e > 0 {
				// `[[bisheng::core_ratio(1, 2)]] CATLASS_GLOBAL void k(`:
				// tree-sitter reads the attribute; what follows is in
				// declaration position, and no lambda's capture ended.
				i = e
				last = ';'
				continue
			}
			last = c
			i++
		case isIdentStart(c):
			e := identEnd(i)
			word := src[i:e]
			macroEnd = -1
			switch {
			case word[0] == '_' && len(word) > 2 && word[1] == '_' && qualifiers[string(word)]:
				blank(i, e)
			case word[0] == '_' && pipeQualifiers[string(word)]:
				j := skipBlank(e)
				if j < len(src) && src[j] == '(' {
					for j < len(src) && src[j] != ')' && src[j] != '\n' {
						j++
					}
					if j < len(src) && src[j] == ')' {
						e = j + 1
					}
				}
				blank(i, e)
			case len(word) == 2 && word[0] == 'i' && word[1] == 'f':
				touch()
				j := skipBlank(e)
				if j > e {
					k := identEnd(j)
					if w := string(src[j:k]); w == "ASCEND_IS_AIV" || w == "ASCEND_IS_AIC" {
						ensure()
						rep := "(ASCENDISAIV)"
						if w == "ASCEND_IS_AIC" {
							rep = "(ASCENDISAIC)"
						}
						spans = append(spans, Span{Start: uint32(j), End: uint32(k), Text: w})
						copy(out[j:k], rep)
						e = k
					}
				}
				last = 'f'
			case jumpKeywords[string(word)] && arg() != nil && arg().empty:
				// The macro's argument stays empty: `CHECK(c, return;)`
				// loses its separators below.
				blank(i, e)
			case (last == '\n' || last == '>' || last == ';' || last == '{' || last == '}') && isMacroName(word):
				touch()
				if startsDeclaration(src, e, inBody(braces)) {
					blank(i, e)
				} else {
					last = 'A'
					macroEnd = e
				}
			default:
				touch()
				if isMacroName(word) {
					macroEnd = e
				}
				last = 'A'
			}
			i = e
		default:
			if c == '#' && last == '\n' {
				// A directive line: nothing in it is masked, but an
				// `#ifdef __cplusplus` may wrap an `extern "C" {`.
				end := DirectiveEnd(src, i)
				if wrapped := cplusplusWrapped(src, i, end); wrapped != nil {
					blank(wrapped[0], wrapped[1])
				}
				i = end
				continue
			}
			m := macroEnd
			macroEnd = -1
			if a := arg(); a != nil && (c == ',' || c == ';') {
				// An argument separator of a checking macro: `;` between
				// statements reads as `,`; one that ends the last
				// argument, or ends an empty one, is hidden.
				if c == ';' {
					j := skipSpace(src, i+1)
					switch {
					case a.empty || j < len(src) && src[j] == ')':
						blank(i, i+1)
					default:
						ensure()
						spans = append(spans, Span{Start: uint32(i), End: uint32(i + 1), Text: ";"})
						out[i] = ','
					}
				}
				if !a.empty || c == ',' {
					a.sep = i
				}
				a.empty = true
				last = c
				i++
				continue
			}
			if c == ')' {
				if a := arg(); a != nil && a.empty && a.sep >= 0 && src[a.sep] == ',' {
					// `CHECK(c, return)`: the separator before the
					// hidden statement goes too.
					blank(a.sep, a.sep+1)
				}
			} else if c != ',' && c != ';' {
				touch()
			}
			switch c {
			case ']':
				afterBracket = true
			case ';':
				afterBracket = false
			case '(':
				// A lambda's parameters follow its `[...]`, possibly
				// with a template parameter list in between.
				p := paren{braces: len(braces), sep: -1}
				switch {
				case afterBracket:
					p.kind = 'l'
				case last == ')':
					p.kind = 'p' // `(*fn)(args)`: a function pointer's parameters
				case m >= 0 && skipBlank(m) == i:
					p.kind, p.sep, p.empty = 'm', -1, true
				}
				parens = append(parens, p)
				afterBracket = false
			case ')':
				closed = 0
				if n := len(parens); n > 0 {
					closed = parens[n-1].kind
					if closed == 'm' {
						closed = 0
					}
					parens = parens[:n-1]
				}
			case '{':
				braces = append(braces, last == ')' && closed == 0)
				afterBracket = false
			case '}':
				afterBracket = false
				if n := len(braces); n > 0 {
					body := braces[n-1]
					braces = braces[:n-1]
					// `A() {};` in a class: tree-sitter takes no empty
					// declaration after a member function's body.
					if j := skipBlank(i + 1); body && j < len(src) && src[j] == ';' {
						blank(j, j+1)
					}
				}
			case '<':
				if e := launchEnd(src, i); e > 0 {
					// `Kernel<T><<<blockDim, nullptr, stream>>>(args)`
					// reads as the call `Kernel<T>(args)`.
					blank(i, e)
					i = e
					last = '>'
					continue
				}
				if last == ')' && afterOperatorCall(src, i) {
					// `void operator()<AscendC::AIC>(Params const& p)`, an
					// explicit specialisation tree-sitter cannot read.
					if e := templateArgsEnd(src, i); e > 0 && e < len(src) && src[skipSpace(src, e)] == '(' {
						blank(i, e)
						i = e
						last = '>'
						continue
					}
				}
			case '=':
				if e := emptyDefaultEnd(src, i, len(parens) > 0); e > 0 {
					// `Coord const& coord = {}`: tree-sitter-cpp reads no
					// braced default argument; the parameter stays.
					blank(i, e)
					i = e
					continue
				}
			}
			last = c
			i++
		}
	}
	if out == nil {
		out = src
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	return out, spans
}

// inBody reports whether the innermost braces lie in a function body.
func inBody(braces []bool) bool {
	for _, b := range braces {
		if b {
			return true
		}
	}
	return false
}

// skipSpace skips blanks and newlines from i.
func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	return i
}

// attributeEnd returns the end of a `[[...]]` attribute at i, or 0.
func attributeEnd(src []byte, i int) int {
	if !hasPrefixAt(src, i, "[[") {
		return 0
	}
	depth := 0
	for j := i; j < len(src) && src[j] != ';' && src[j] != '{'; j++ {
		switch src[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if j > i+1 && src[j-1] == ']' {
					return j + 1
				}
				return 0
			}
		}
	}
	return 0
}

// launchEnd returns the end of a kernel launch configuration `<<<...>>>`
// at i, or 0.
func launchEnd(src []byte, i int) int {
	if !hasPrefixAt(src, i, "<<<") {
		return 0
	}
	for j := i + 3; j+2 < len(src) && src[j] != ';' && src[j] != '{'; j++ {
		if src[j] == '>' && src[j+1] == '>' && src[j+2] == '>' {
			return j + 3
		}
	}
	return 0
}

// afterOperatorCall reports whether `operator()` (blanks allowed) ends
// right before i.
func afterOperatorCall(src []byte, i int) bool {
	j := i - 1
	back := func() {
		for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
			j--
		}
	}
	back()
	if j < 0 || src[j] != ')' {
		return false
	}
	j--
	back()
	if j < 0 || src[j] != '(' {
		return false
	}
	j--
	back()
	return j >= 7 && string(src[j-7:j+1]) == "operator" && (j < 8 || !isIdent(src[j-8]))
}

// templateArgsEnd returns the end of the `<...>` at i (nested angle
// brackets and parentheses counted, on one declaration line), or 0.
func templateArgsEnd(src []byte, i int) int {
	depth := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
			if depth == 0 {
				if src[j] == '>' {
					return j + 1
				}
				return 0
			}
		case ';', '{', '}', '\n':
			return 0
		}
	}
	return 0
}

// emptyDefaultEnd returns the end of an empty braced default argument
// `= {}` at i inside parentheses, followed by `,` or `)`, or 0.
func emptyDefaultEnd(src []byte, i int, inParens bool) int {
	if !inParens || i == 0 || i+1 >= len(src) || src[i+1] == '=' {
		return 0
	}
	switch src[i-1] {
	case '=', '!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^':
		return 0
	}
	j := skipSpace(src, i+1)
	if j >= len(src) || src[j] != '{' {
		return 0
	}
	j = skipSpace(src, j+1)
	if j >= len(src) || src[j] != '}' {
		return 0
	}
	e := j + 1
	if k := skipSpace(src, e); k < len(src) && (src[k] == ',' || src[k] == ')') {
		return e
	}
	return 0
}

// cplusplusWrapped returns the span of the `extern "C" {` or the lone `}`
// that an `#ifdef __cplusplus` directive at i (ending at end) wraps up to
// its `#endif`: tree-sitter cannot pair a brace across conditional
// groups. It returns nil for any other directive.
func cplusplusWrapped(src []byte, i, end int) []int {
	d := string(src[i+1 : end])
	if k := strings.Index(d, "//"); k >= 0 {
		d = d[:k]
	}
	switch strings.Join(strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(d)), " ") {
	case "ifdef __cplusplus", "if defined __cplusplus":
	default:
		return nil
	}
	s := skipSpace(src, end)
	e := s
	for e < len(src) && src[e] != '\n' && !hasPrefixAt(src, e, "//") {
		e++
	}
	for e > s && (src[e-1] == ' ' || src[e-1] == '\t' || src[e-1] == '\r') {
		e--
	}
	if line := strings.Join(strings.Fields(string(src[s:e])), " "); line != "}" && line != `extern "C" {` {
		return nil
	}
	n := e
	for n < len(src) && src[n] != '\n' {
		n++
	}
	if !hasPrefixAt(src, skipSpace(src, n), "#endif") {
		return nil
	}
	return []int{s, e}
}

// startsDeclaration reports whether what follows a declaration-position
// macro at e (after blanks, also on the next line: `CATLASS_DEVICE` alone
// above `~BlockMmad()`) begins a declaration: a declaration keyword, a
// destructor's `~`, or a type name followed by its declarator or template
// arguments (`T AlignUp(`, `Coord<N> ToCoord(`, `Index& m(`); outside a
// function body also a constructor (`BlockEpilogue(Params const& p)`).
func startsDeclaration(src []byte, e int, body bool) bool {
	j := skipSpace(src, e)
	if j == e || j >= len(src) {
		return false
	}
	if src[j] == '~' {
		return true
	}
	k := j
	for k < len(src) && isIdent(src[k]) {
		k++
	}
	if k == j || !isIdentStart(src[j]) {
		return false
	}
	if declKeywords[string(src[j:k])] {
		return true
	}
	if isMacroName(src[j:k]) {
		return false // another macro: judged on its own
	}
	m := k
	for m < len(src) && (src[m] == ' ' || src[m] == '\t') {
		m++
	}
	if m >= len(src) {
		return false
	}
	switch src[m] {
	case '<':
		return true
	case '(':
		return !body && m == k
	case '&', '*':
		// `Index& m()`, `Index const& n()` is the next case; a
		// statement `a * b;` has no declarator after it.
		n := m
		for n < len(src) && (src[n] == '&' || src[n] == '*' || src[n] == ' ' || src[n] == '\t') {
			n++
		}
		w := n
		for w < len(src) && isIdent(src[w]) {
			w++
		}
		if w == n || !isIdentStart(src[n]) {
			return false
		}
		x := skipBlankAt(src, w)
		return x < len(src) && (src[x] == '(' || src[x] == ';' || src[x] == '=' || src[x] == '{') && (!body || src[x] == '(')
	}
	return m > k && isIdentStart(src[m])
}

func skipBlankAt(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

func hasPrefixAt(src []byte, i int, p string) bool {
	return len(src)-i >= len(p) && string(src[i:i+len(p)]) == p
}
