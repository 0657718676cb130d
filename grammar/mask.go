package grammar

import "sort"

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

// pipeQualifiers take a parenthesized argument list: `__in_pipe__(MTE2)`.
var pipeQualifiers = map[string]bool{"__in_pipe__": true, "__out_pipe__": true}

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
	// parens and braces track nesting for the `{};` rule: what each open
	// '(' starts (a lambda's or a function pointer's parameters), and
	// whether each '{' opens a function body (follows a ')' that closed
	// neither).
	var parens []byte
	var braces []bool
	closed, afterBracket := byte(0), false
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
			i = QuotedEnd(src, i)
			last = c
		case c == '[':
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
			last = c
			i++
		case isIdentStart(c):
			e := identEnd(i)
			word := src[i:e]
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
			case (last == '\n' || last == '>' || last == ';' || last == '{' || last == '}') && isMacroName(word):
				if startsDeclaration(src, e) {
					blank(i, e)
				} else {
					last = 'A'
				}
			default:
				last = 'A'
			}
			i = e
		default:
			if c == '#' && last == '\n' {
				// A directive line: nothing in it is masked.
				i = DirectiveEnd(src, i)
				continue
			}
			switch c {
			case ']':
				afterBracket = true
			case ';':
				afterBracket = false
			case '(':
				// A lambda's parameters follow its `[...]`, possibly
				// with a template parameter list in between.
				kind := byte(0)
				switch {
				case afterBracket:
					kind = 'l'
				case last == ')':
					kind = 'p' // `(*fn)(args)`: a function pointer's parameters
				}
				parens = append(parens, kind)
				afterBracket = false
			case ')':
				closed = 0
				if n := len(parens); n > 0 {
					closed = parens[n-1]
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

// startsDeclaration reports whether what follows a declaration-position
// macro at e (after blanks, also on the next line: `CATLASS_DEVICE` alone
// above `~BlockMmad()`) begins a declaration: a declaration keyword, a
// destructor's `~`, or a type name followed by its declarator or template
// arguments (`T AlignUp(`, `Coord<N> ToCoord(`).
func startsDeclaration(src []byte, e int) bool {
	j := e
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r' || src[j] == '\n') {
		j++
	}
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
	if src[m] == '<' {
		return true
	}
	return m > k && isIdentStart(src[m])
}

func hasPrefixAt(src []byte, i int, p string) bool {
	return len(src)-i >= len(p) && string(src[i:i+len(p)]) == p
}
