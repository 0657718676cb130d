package grammar

import (
	"iter"
	"slices"
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
	"__restrict__": true, "__gm_align__": true, "__simd_vf__": true, "__simd_callee__": true, "__local_mem__": true,
	"__may_used_by_aicore__": true,
	// A vector function's operand directions and its "tile function" mark
	// (pto-isa's `__tf__ AICORE void f(T __out__ dst, S __in__ *src)`).
	"__in__": true, "__out__": true, "__tf__": true,
	// Opens a vector function's scope: `__VEC_SCOPE__ { ... }` reads as
	// a block.
	"__VEC_SCOPE__": true,
	// More buffers, the kernel kinds KERNEL_TYPE stands for, and the
	// spelling HOST_DEVICE macros expand to.
	"__ssbuf__": true, "__biasbuf__": true, "__cube__": true, "__vector__": true, "__host_aicore__": true,
	// A project's spelling of `__gm__ const` for tiling pointers.
	"__tiling_data_ptr__": true,
	// Ascend C (.asc) sources: a mixed kernel's matmul workspace, host
	// functions, and AI CPU kernels (which the launch scan leaves out).
	"__kfc_workspace__": true, "__host__": true, "__aicpu__": true,
}

// pipeQualifiers take a parenthesized argument list: `__in_pipe__(MTE2)`,
// `__mix__(1, 2)` (a mixed kernel's cube:vector core ratio),
// `__launch_bounds__(THREAD_NUM)` (a SIMT function's thread count).
var pipeQualifiers = map[string]bool{"__in_pipe__": true, "__out_pipe__": true, "__inout_pipe__": true, "__mix__": true,
	"__launch_bounds__": true}

// jumpKeywords are statements a checking macro takes as an argument
// (`CHECK_RET(ret == 0, return ret);`); hidden, the call parses.
var jumpKeywords = map[string]bool{"return": true, "break": true, "continue": true, "goto": true}

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
	// semi is set by a ';' directly inside: a `for (;;)`, or nesting the
	// masker lost (a parenthesis opened in one branch of an #if).
	semi bool
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

// specifiers are declaration specifiers a declaration-position macro may
// follow.
var specifiers = map[string]bool{
	"inline": true, "static": true, "constexpr": true, "consteval": true, "virtual": true, "explicit": true,
	"friend": true,
}

// AscendIsReplacement maps the masked spelling of ASCEND_IS_AIV/AIC back to
// the original; `if ASCEND_IS_AIV {` (the macro expands to `constexpr (...)`)
// becomes `if (ASCENDISAIV) {` of equal length.
var AscendIsReplacement = map[string]string{
	"(ASCENDISAIV)": "ASCEND_IS_AIV", "(ASCENDISAIC)": "ASCEND_IS_AIC",
	"(ASCEND_ISNOTAIV)": "ASCEND_IS_NOT_AIV", "(ASCEND_ISNOTAIC)": "ASCEND_IS_NOT_AIC",
	// The C API's aliases of the same macros.
	"(ASCISAIV)": "ASC_IS_AIV", "(ASCISAIC)": "ASC_IS_AIC",
	"(ASC_ISNOTAIV)": "ASC_IS_NOT_AIV", "(ASC_ISNOTAIC)": "ASC_IS_NOT_AIC",
}

// ascendIsMasked is AscendIsReplacement the other way.
var ascendIsMasked = func() map[string]string {
	m := map[string]string{}
	for k, v := range AscendIsReplacement {
		m[v] = k
	}
	return m
}()

func isIdentStart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isMacroName(s []byte) bool {
	return len(s) >= 4 && isCapsName(s)
}

// isCapsName reports whether s is spelled as a macro: capitals, digits
// and '_', not starting with a digit.
func isCapsName(s []byte) bool {
	if len(s) < 2 {
		return false
	}
	for _, b := range s {
		if !(b == '_' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9') {
			return false
		}
	}
	return s[0] < '0' || s[0] > '9'
}

// primitiveTypes are the type names tree-sitter-cpp reads as a
// primitive_type, starting with a lower-case letter (Mask upper-cases it
// where such a name is a macro's whole argument).
var primitiveTypes = map[string]bool{
	"bool": true, "char": true, "int": true, "float": true, "double": true, "size_t": true, "ssize_t": true,
	"ptrdiff_t": true, "intptr_t": true, "uintptr_t": true, "int8_t": true, "int16_t": true, "int32_t": true,
	"int64_t": true, "uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true, "char8_t": true,
	"char16_t": true, "char32_t": true,
}

// argEndsAt reports whether a macro argument ends at e: only blanks
// before the next ',' or ')'.
func argEndsAt(src []byte, e int) bool {
	j := skipSpace(src, e)
	return j < len(src) && (src[j] == ',' || src[j] == ')')
}

// Qualifiers returns the AscendC/CCE keywords the parser does not know
// (what Mask blanks), sorted: what another tool needs defined away.
func Qualifiers() []string {
	out := make([]string, 0, len(qualifiers))
	for q := range qualifiers {
		out = append(out, q)
	}
	sort.Strings(out)
	return out
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
		spans = append(spans, Span{Start: uint32(s), End: uint32(e), Text: spanText(src[s:e])})
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
	// what each '{' opens: 'b' a function body (it follows a ')' that
	// closed neither a lambda's nor a function pointer's parameters), 'n'
	// a namespace or an `extern "C"` block, 0 anything else.
	var parens []paren
	var braces []byte
	closed, afterBracket := byte(0), false
	// scope is true from `namespace` or `extern` to the '{' it opens.
	scope := false
	// macroEnd is the end of the last all-caps word when nothing has
	// followed it yet: a '(' there opens a macro's arguments.
	macroEnd := -1
	// condSkips maps the offset of a hidden `#elif`/`#else`/`#endif`
	// to the end of what it hides.
	var condSkips map[int]int
	// pasting are the file's macros that paste their arguments into one
	// name (`#define CONCAT(a, b) a##b`).
	var pasting map[string]bool
	// groups are the file's conditional groups (condGroups), read at the
	// first directive inside parentheses.
	var groups map[int][2]int
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
			e := QuotedEnd(src, i)
			last = c
			if scope && (string(src[i:e]) == `"C"` || string(src[i:e]) == `"C++"`) {
				// `extern "C" __global__ AICORE void k(`: a linkage
				// specification, then a declaration's specifiers.
				last = ';'
			}
			i = e
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
			case pasting[string(word)] && pastedEnd(src, e) > 0:
				// `class CONCAT(CASENAME, Test) : public testing::Test`:
				// the use is one identifier, spelled as one of the same
				// length (`CONCAT_CASENAME__Test_`).
				end := pastedEnd(src, e)
				ensure()
				touch()
				spans = append(spans, Span{Start: uint32(i), End: uint32(end), Text: string(src[i:end])})
				for k := e; k < end; k++ {
					if !isIdent(src[k]) {
						out[k] = '_'
					}
				}
				e = end
				last = 'A'
			case string(word) == "enum" && unnamedEnumBase(src, e) > 0:
				// `enum : int32_t { kA = 0 };`: an unnamed enum with a fixed
				// type, which tree-sitter-cpp reads only named. The type
				// is blanked; the enumerators are what is read.
				end := unnamedEnumBase(src, e)
				blank(skipSpace(src, e), end)
				e = end
			case string(word) == "__volatile__":
				// GNU's spelling, which tree-sitter-cpp reads nowhere
				// (`__asm__ __volatile__("" ::: "memory")`): the keyword,
				// padded.
				ensure()
				spans = append(spans, Span{Start: uint32(i), End: uint32(e), Text: "__volatile__"})
				copy(out[i:e], "volatile    ")
			case (word[0] == 'P' || word[0] == 'S') && formatMacro(word) && (prevByte(src, i) == '"' || skipSpace(src, e) < len(src) && src[skipSpace(src, e)] == '"'):
				// `"n = %" PRIu64 "\n"`: <cinttypes>' macros are string
				// literals, spelled as one of the same length.
				ensure()
				touch()
				spans = append(spans, Span{Start: uint32(i), End: uint32(e), Text: string(word)})
				out[i], out[e-1] = '"', '"'
				for k := i + 1; k < e-1; k++ {
					out[k] = ' '
				}
				last = '"'
			case string(word) == "OP_END_FACTORY_REG" && prevByte(src, i) == '.':
				// `REG_OP(Add).INPUT(x, ...).OP_END_FACTORY_REG(Add)`: the
				// macro ends the registration's statement, written
				// without a ';'. It reads as that ';'.
				if end := BalancedEnd(src, skipBlankAt(src, e), 1024); end > 0 && src[min(skipSpace(src, end), len(src)-1)] != ';' {
					dot := i - 1
					for src[dot] != '.' {
						dot-- // blanks only: prevByte saw the '.'
					}
					ensure()
					spans = append(spans, Span{Start: uint32(dot), End: uint32(end), Text: string(src[dot:end])})
					out[dot] = ';'
					for k := dot + 1; k < end; k++ {
						if out[k] != '\n' {
							out[k] = ' '
						}
					}
					e = end
					last = ';'
				}
			case word[0] == '_' && pipeQualifiers[string(word)]:
				if end := BalancedEnd(src, skipBlank(e), 1024); end > 0 {
					e = end // `__launch_bounds__(sizeof(T) <= 4 ? 1024 : 512)`
				}
				blank(i, e)
			case string(word) == "typename" && dependentCastEnd(src, e) > 0:
				// `return typename T::DType(0);`, `typename Base::Shape{}`:
				// a cast to a dependent type, which tree-sitter reads
				// without the keyword (a call of the qualified name).
				touch()
				blank(i, e)
			case string(word) == "delete" && hasPrefixAt(src, skipBlank(e), "[]"):
				// `delete[](buf)` reads as a lambda: the array's brackets
				// go (nothing reads them).
				blank(skipBlank(e), skipBlank(e)+2)
				e = skipBlank(e) + 2
			case string(word) == "using" && aliasMacroArgs(src, e) > 0:
				// `using One = MAKE_CONST(float, 1.0);`: an alias of the
				// type a macro spells, which tree-sitter reads as a
				// function type whose parameters fail on the values. The
				// arguments go; the alias names the macro.
				a := aliasMacroArgs(src, e)
				end := BalancedEnd(src, a, 1024)
				blank(a, end)
				e = end
			case string(word) == "namespace" || string(word) == "extern":
				scope = true
				last = 'A'
			case string(word) == "__attribute__":
				// GNU attributes are read by tree-sitter and change
				// nothing for the masker: `__inline__
				// __attribute__((always_inline)) AICORE void f(` keeps
				// AICORE in declaration position.
				touch()
				if end := BalancedEnd(src, skipBlankAt(src, e), 4096); end > 0 {
					e = end
				}
			case (string(word) == "template" || string(word) == "operator") && afterMember(src, i) && memberCallEnd(src, i, e) > 0:
				// `blockMmad.template operator()<AIC>(a, b)` calls the
				// object, which tree-sitter reads only as `blockMmad(a, b)`:
				// the member access and the template arguments go.
				end := memberCallEnd(src, i, e)
				blank(memberStart(src, i), end)
				e = end
				last = 'A'
			case string(word) == "template" && afterMember(src, i) && dependentCall(src, e):
				// `q.template EnQue(x)`: the keyword without template
				// arguments, which tree-sitter cannot read.
				blank(i, e)
			case string(word) == "BEGIN_TILING_DATA_DEF" && declPosition(last) && !inBody(braces):
				if end := tilingDataBegin(src, i, e, ensure, &out, &spans); end > 0 {
					braces = append(braces, 0)
					e = end
					last = '{'
				} else {
					touch()
					last = 'A'
				}
			case string(word) == "END_TILING_DATA_DEF" && declPosition(last) && len(braces) > 0 && !inBody(braces):
				// The end of BEGIN_TILING_DATA_DEF's struct: `};`.
				ensure()
				spans = append(spans, Span{Start: uint32(i), End: uint32(e), Text: string(word)})
				out[i] = '}'
				for k := i + 1; k < e; k++ {
					out[k] = ' '
				}
				braces = braces[:len(braces)-1]
				last = '}'
			case strings.HasPrefix(string(word), "TILING_DATA_FIELD_DEF") && declPosition(last) && !inBody(braces):
				if end := tilingField(src, i, e, blank); end > 0 {
					e = end
					last = 'A'
				} else {
					touch()
					last = 'A'
				}
			case isMacroName(word) && declPosition(last) && namespaceScope(braces):
				if end := registrationEnd(src, e); end > 0 {
					// `REGISTER_TILING_DATA_CLASS(Op, Data)` alone on its
					// lines at namespace scope: a registration that names
					// no declaration tree-sitter could read.
					blank(i, end)
					e = end
					break
				}
				if end := declMacroEnd(src, e, false); end > 0 {
					blank(i, end)
					e = end
				} else {
					last = 'A'
					macroEnd = e
				}
			case len(word) == 2 && word[0] == 'i' && word[1] == 'f':
				touch()
				j := skipBlank(e)
				if j > e {
					k := identEnd(j)
					if rep, ok := ascendIsMasked[string(src[j:k])]; ok {
						w := string(src[j:k])
						ensure()
						spans = append(spans, Span{Start: uint32(j), End: uint32(k), Text: w})
						copy(out[j:k], rep)
						e = k
					} else if isMacroName(src[j:k]) && (byteAt(src, k, ' ') || byteAt(src, k, '\t')) && byteAt(src, skipSpace(src, k), '{') {
						// `if ASCEND_IS_AIV_SCALAR {` (a project's macro
						// for `constexpr (...)`): the blanks around the
						// name hold its parentheses, `if(NAME){`.
						ensure()
						spans = append(spans, Span{Start: uint32(j - 1), End: uint32(k + 1), Text: string(src[j-1 : k+1])})
						out[j-1], out[k] = '(', ')'
						e = k + 1
					}
				}
				last = 'f'
			case declPosition(last) && specifiers[string(word)]:
				// `constexpr AICORE std::size_t f()`: a macro after a
				// specifier is as much in declaration position.
				touch()
			case primitiveTypes[string(word)] && arg() != nil && arg().empty && argEndsAt(src, e):
				// `TENSOR(int32_t, args, 2)`: a type handed to a macro,
				// which tree-sitter-cpp reads as no expression (the whole
				// call becomes an error); as a name it is one argument.
				touch()
				ensure()
				spans = append(spans, Span{Start: uint32(i), End: uint32(i + 1), Text: string(src[i : i+1])})
				out[i] = src[i] - 'a' + 'A'
				last = 'A'
			case jumpKeywords[string(word)] && arg() != nil && arg().empty:
				// The macro's argument stays empty: `CHECK(c, return;)`
				// loses its separators below.
				blank(i, e)
			case declPosition(last) && isCapsName(word) && inBody(braces) && braces[len(braces)-1] != 'i' && loopAfterMacro(src, e, true) > 0:
				// `SET` alone above the block's '}' (`#define SET f();`):
				// a statement macro written without its ';', which would
				// take the '}' into an error and the block's end with
				// it. The ';' goes on the '}' line's indentation.
				at := loopAfterMacro(src, e, true)
				ensure()
				touch()
				spans = append(spans, Span{Start: uint32(at), End: uint32(at + 1), Text: string(src[at : at+1])})
				out[at] = ';'
				last = 'A'
			case declPosition(last) && isMacroName(word):
				touch()
				if end := declMacroEnd(src, e, inBody(braces)); end > 0 {
					blank(i, end)
					e = end
				} else if at := max(blockAfterMacro(src, e), loopAfterMacro(src, e, false)); at > 0 && inBody(braces) {
					// `CCU_IF(n != 0) {` (a macro that opens a block: the
					// ';' on the blank before the '{'), or
					// `PTO_CPU_VECTORIZE_LOOP` alone above a loop (a
					// `_Pragma`: the ';' at the loop's indentation): a
					// statement, so the block or loop parses and the macro
					// stays a statement for the macro model.
					ensure()
					spans = append(spans, Span{Start: uint32(at), End: uint32(at + 1), Text: string(src[at : at+1])})
					out[at] = ';'
					last = 'A'
					macroEnd = e
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
		case c == '-' && hasPrefixAt(src, i, "->*") && i+3 < len(src) && isIdentStart(src[skipBlankAt(src, i+3)]):
			// `(obj->*handler)(n)`: a call through a pointer to member,
			// which tree-sitter-cpp does not read; as `obj-> handler` it
			// is a member access (its call resolves to no function).
			touch()
			macroEnd = -1
			blank(i+2, i+3)
			last = '>'
			i += 3
		default:
			if n := SpliceEnd(src, i); n > 0 {
				// A line splice outside a directive (a macro's
				// arguments over lines `LOG(x); \` / `return ret);`):
				// the compiler joins the lines, tree-sitter reads no
				// backslash there. The lines stay one for the masker.
				blank(i, i+1)
				i = n
				continue
			}
			if c == '#' && last == '\n' {
				end := DirectiveEnd(src, i)
				if e, ok := condSkips[i]; ok {
					// A directive or a later branch of a conditional
					// group inside parentheses (below).
					blank(i, e)
					delete(condSkips, i)
					i = e
					continue
				}
				if inList(parens, braces) {
					if groups == nil {
						groups = condGroups(src)
					}
					if g, ok := groups[i]; ok {
						// `f(a\n#if X\n, b\n#endif\n)`: tree-sitter reads
						// no directive inside an expression or a parameter
						// list. The first branch stays, as if its
						// condition held: the directives and the other
						// branches are hidden.
						if condSkips == nil {
							condSkips = map[int]int{}
						}
						condSkips[g[0]] = g[1]
						blank(i, end)
						i = end
						continue
					}
				}
				if ds := elseChain(src, i); ds != nil && inBody(braces) {
					// `}` `#if X` `else if (k == 4) {...}` `#endif`: each
					// branch continues the chain before the group, which
					// tree-sitter reads only without the directives (the
					// guards are read from the source).
					if condSkips == nil {
						condSkips = map[int]int{}
					}
					for _, d := range ds[1:] {
						condSkips[d] = DirectiveEnd(src, d)
					}
					blank(i, end)
					i = end
					continue
				}
				if at := namedVariadicDots(src, i, end); at > 0 {
					// `#define LOG(fmt, args...)`: GNU's named variadic
					// parameter; tree-sitter reads the name or `...`, and
					// the name stays a parameter.
					blank(at, at+3)
				}
				// A directive line: nothing in it is masked, but an
				// `#ifdef __cplusplus` may wrap an `extern "C" {`.
				if wrapped := cplusplusWrapped(src, i, end); wrapped != nil {
					blank(wrapped[0], wrapped[1])
				}
				for _, a := range hasIncludeArgs(src, i, end) {
					// `#if __has_include("x.h")` reads as `#if __has_include`.
					blank(a[0], a[1])
				}
				if name := pastingMacro(src, i, end, pasting); name != "" {
					if pasting == nil {
						pasting = map[string]bool{}
					}
					pasting[name] = true
				}
				i = end
				continue
			}
			m := macroEnd
			macroEnd = -1
			if n := len(parens); c == ';' && n > 0 && parens[n-1].braces == len(braces) {
				parens[n-1].semi = true
			} else if n, b := len(parens), len(braces); c == ';' && b > 0 && braces[b-1] == 'i' && (n == 0 || parens[n-1].braces < b) {
				braces[b-1] = 0 // no initializer: the masker lost the nesting
			}
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
				if c == ',' && a.empty && a.sep >= 0 && src[a.sep] == ',' {
					// `CHECK(c, , return x)`, `ASSERT(c, return, "m")`:
					// tree-sitter reads no empty argument; its separator
					// goes.
					blank(a.sep, a.sep+1)
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
				if a := arg(); a != nil && a.empty && a.sep >= 0 {
					// `CHECK(c, return)`, `CHECK(c, LOG(x); return)`: the
					// separator before the hidden statement goes too (a
					// ';' already read as ',' has its span).
					switch src[a.sep] {
					case ',':
						blank(a.sep, a.sep+1)
					case ';':
						out[a.sep] = ' '
					}
				}
			} else if c != ',' && c != ';' {
				touch()
			}
			switch c {
			case ',':
				if b := len(braces); b > 0 && braces[b-1] == 'c' && len(parens) == 0 {
					// `uint32_t rows = 0, cols = 0;` in a class:
					// tree-sitter takes a member's default value only on
					// its last declarator; the others' go.
					if eq := memberDefault(src, i); eq > 0 {
						blank(eq, i)
					}
				}
			case ']':
				afterBracket = true
			case ';':
				afterBracket = false
				scope = false
				if prevByte(src, i) == ';' && len(parens) == 0 {
					// `using T = X;;`: an empty declaration, which
					// tree-sitter takes nowhere but in a body, where it
					// is an empty statement: nothing either way.
					blank(i, i+1)
				}
			case '(':
				scope = false
				// A lambda's parameters follow its `[...]`, possibly
				// with a template parameter list in between.
				p := paren{braces: len(braces), sep: -1}
				switch {
				case afterBracket:
					p.kind = 'l'
				case last == ')' && !afterOperatorCall(src, i):
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
				kind := byte(0)
				switch {
				case scope:
					kind = 'n'
				case closed == 0 && (prevByte(src, i) == ')' || afterFunctionQualifiers(src, i)):
					// also `)` then `{` on the next line, and
					// `) const override {`
					kind = 'b'
				case prevByte(src, i) == '=':
					kind = 'i' // `T x = {`: an initializer list
				case classHead(src, i):
					kind = 'c'
				}
				braces = append(braces, kind)
				scope = false
				afterBracket = false
			case '}':
				afterBracket = false
				if n := len(braces); n > 0 {
					body := braces[n-1] == 'b' || braces[n-1] == 'n'
					braces = braces[:n-1]
					// `A() {};` in a class: tree-sitter takes no empty
					// declaration after a member function's body, nor
					// after a namespace's (`}; // namespace ops`).
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
				scope = false
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
	if cap(spans) > len(spans) {
		// Held with the file for its life: a list grown by append keeps
		// up to a quarter more.
		spans = slices.Clone(spans)
	}
	return out, spans
}

// inList reports whether the masker stands directly inside parentheses or
// an initializer list (no brace opened inside them since), with no ';'
// there that would show it lost the nesting.
func inList(parens []paren, braces []byte) bool {
	n, b := len(parens), len(braces)
	if n > 0 && parens[n-1].braces == b {
		return !parens[n-1].semi
	}
	return b > 0 && braces[b-1] == 'i'
}

// condGroups maps the offset of each `#if`, `#ifdef` and `#ifndef` of src
// (its '#') to the span hidden after the group's first branch: from its
// first `#elif` or `#else` (or its `#endif`) to the end of the `#endif`
// line. Unterminated groups have no entry. One pass over the source.
func condGroups(src []byte) map[int][2]int {
	out := map[int][2]int{}
	type open struct{ at, rest int }
	var stack []open
	lineStart := true
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '\n':
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = CommentEnd(src, i)
		case c == '#' && lineStart:
			e := DirectiveEnd(src, i)
			n := len(stack)
			switch d := directiveName(src, i); {
			case strings.HasPrefix(d, "if"):
				stack = append(stack, open{i, -1})
			case n == 0:
			case d == "endif":
				g := stack[n-1]
				if g.rest < 0 {
					g.rest = i
				}
				out[g.at] = [2]int{g.rest, e}
				stack = stack[:n-1]
			case d == "else" || strings.HasPrefix(d, "elif"):
				if stack[n-1].rest < 0 {
					stack[n-1].rest = i
				}
			}
			i = e
		case c == '"' || c == '\'':
			lineStart = false
			i = QuotedEnd(src, i)
		default:
			lineStart = false
			i++
		}
	}
	return out
}

// elseChain returns the offsets of the directives of the conditional group
// whose `#if` is at i (the `#if` first, the `#endif` last) when each of its
// branches starts with `else` (or `} else`) and balances its braces:
// branches that continue an if-else chain. Otherwise nil.
func elseChain(src []byte, i int) []int {
	if !strings.HasPrefix(directiveName(src, i), "if") || !elseAt(src, DirectiveEnd(src, i)) {
		return nil
	}
	var ds []int
	depth, braces := 0, 0
	for at := i; at < len(src); {
		d, e := directiveName(src, at), DirectiveEnd(src, at)
		switch {
		case strings.HasPrefix(d, "if"):
			depth++
		case d == "endif":
			depth--
		}
		if at == i || depth == 0 || depth == 1 && (d == "else" || strings.HasPrefix(d, "elif")) {
			if braces != 0 || depth > 0 && !elseAt(src, e) {
				return nil
			}
			if ds = append(ds, at); depth == 0 {
				return ds
			}
		}
		// The branch, to the next directive.
		lineStart := false
		for at = e; at < len(src) && !(lineStart && src[at] == '#'); {
			switch c := src[at]; {
			case c == '/' && at+1 < len(src) && (src[at+1] == '/' || src[at+1] == '*'):
				at, _ = CommentEnd(src, at)
				continue
			case c == '"' || c == '\'':
				lineStart = false
				at = QuotedEnd(src, at)
				continue
			case c == '\n':
				lineStart = true
			case c == '{' || c == '}':
				lineStart = false
				braces += int(c) - int('|') // '{' +1, '}' -1 (they flank '|')
			case c != ' ' && c != '\t' && c != '\r':
				lineStart = false
			}
			at++
		}
	}
	return nil
}

// elseAt reports whether the first word from i, past blanks, newlines and
// comments, is `else`, also after the `}` that closes the branch before it
// (`#if X` `} else if (k == 4) {` `#endif` `}`).
func elseAt(src []byte, i int) bool {
	i = skipSpaceComments(src, i)
	if i < len(src) && src[i] == '}' {
		i = skipSpaceComments(src, i+1)
	}
	return hasPrefixAt(src, i, "else") && !(i+4 < len(src) && isIdent(src[i+4]))
}

// skipSpaceComments skips blanks, newlines and comments from i.
// unnamedEnumBase returns, for `enum` ending at e followed by a fixed
// underlying type and no name (`enum : int32_t {`), the offset of the
// `{`; 0 for any other enum.
func unnamedEnumBase(src []byte, e int) int {
	k := skipSpace(src, e)
	if k >= len(src) || src[k] != ':' || k+1 < len(src) && src[k+1] == ':' {
		return 0
	}
	for j := k + 1; j < len(src) && j-k < 128; j++ {
		switch c := src[j]; {
		case c == '{':
			return j
		case c == ':' || c == '_' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || isIdent(c):
		default:
			return 0
		}
	}
	return 0
}

func skipSpaceComments(src []byte, i int) int {
	for i = skipSpace(src, i); i+1 < len(src) && src[i] == '/' && (src[i+1] == '/' || src[i+1] == '*'); i = skipSpace(src, i) {
		i, _ = CommentEnd(src, i)
	}
	return i
}

// namedVariadicDots returns the offset of the `...` of a GNU named
// variadic parameter (`#define LOG(fmt, args...)`) in the directive
// [i, end), or 0.
func namedVariadicDots(src []byte, i, end int) int {
	if directiveName(src, i) != "define" {
		return 0
	}
	d := string(src[i:end])
	open, k := strings.IndexByte(d, '('), strings.Index(d, "...")
	if open < 1 || k < open || !isIdent(d[open-1]) || !isIdent(d[k-1]) || strings.IndexByte(d[open:k], ')') >= 0 {
		return 0
	}
	return i + k
}

// dependentCastEnd returns the end of the qualified type after `typename`
// (whose end is e) when a '(' or '{' follows it: a functional cast, not a
// declaration (whose declarator is a name). Otherwise 0.
func dependentCastEnd(src []byte, e int) int {
	j, qualified := skipBlankAt(src, e), false
	for j < len(src) && isIdentStart(src[j]) {
		for j < len(src) && isIdent(src[j]) {
			j++
		}
		if byteAt(src, j, '<') {
			if j = templateArgsEnd(src, j); j == 0 {
				return 0
			}
		}
		if !hasPrefixAt(src, j, "::") {
			break
		}
		j, qualified = j+2, true
	}
	if qualified && (byteAt(src, j, '(') || byteAt(src, j, '{')) {
		return j
	}
	return 0
}

// blockAfterMacro returns the offset of the blank before the '{' that
// follows a macro's arguments on their line (the name ends at e), or 0.
func blockAfterMacro(src []byte, e int) int {
	j := skipBlankAt(src, e)
	if !byteAt(src, j, '(') {
		return 0
	}
	if j = BalancedEnd(src, j, 1024); j == 0 {
		return 0
	}
	if k := skipBlankAt(src, j); k > j && byteAt(src, k, '{') {
		return k - 1
	}
	return 0
}

// directiveName returns the name of the directive whose '#' is at i.
func directiveName(src []byte, i int) string {
	j := skipBlankAt(src, i+1)
	k := j
	for k < len(src) && isIdent(src[k]) {
		k++
	}
	return string(src[j:k])
}

// pastingMacro returns the name a `#define` line [i, end) defines when
// its body pastes names into one: `a##b`, or a call of a pasting macro in
// known (`CONCAT_HIDDEN(a, b)`). Otherwise "".
func pastingMacro(src []byte, i, end int, known map[string]bool) string {
	if directiveName(src, i) != "define" {
		return ""
	}
	d := string(src[i:end])
	j := strings.Index(d, "define") + len("define")
	for j < len(d) && (d[j] == ' ' || d[j] == '\t') {
		j++
	}
	k := j
	for k < len(d) && isIdent(d[k]) {
		k++
	}
	if k == j || k >= len(d) || d[k] != '(' {
		return ""
	}
	c := strings.IndexByte(d[k:], ')')
	if c < 0 {
		return ""
	}
	body := strings.TrimSpace(d[k+c+1:])
	if parts := strings.Split(body, "##"); len(parts) > 1 {
		// Only names pasted: `int var_##n` declares, it is not a name.
		for _, p := range parts {
			if p = strings.TrimSpace(p); p == "" || strings.IndexFunc(p, func(r rune) bool { return r > 127 || !isIdent(byte(r)) }) >= 0 {
				return ""
			}
		}
		return d[j:k]
	}
	if w := strings.IndexByte(body, '('); w > 0 && known[strings.TrimSpace(body[:w])] && strings.HasSuffix(body, ")") {
		return d[j:k]
	}
	return ""
}

// pastedEnd returns the end of a pasting macro's arguments at e when they
// are names and numbers on one line (`(test_, CASENAME)`), or 0.
func pastedEnd(src []byte, e int) int {
	j := skipBlankAt(src, e)
	if !byteAt(src, j, '(') {
		return 0
	}
	for k := j + 1; k < len(src); k++ {
		switch c := src[k]; {
		case c == ')':
			return k + 1
		case isIdent(c) || c == ',' || c == ' ' || c == '\t':
		default:
			return 0
		}
	}
	return 0
}

// formatMacro reports whether word is one of <cinttypes>' format
// macros: PRI or SCN, a conversion letter, then a width (`PRIu64`,
// `PRIdPTR`, `SCNxFAST32`).
func formatMacro(word []byte) bool {
	if len(word) < 5 || string(word[:3]) != "PRI" && string(word[:3]) != "SCN" || !strings.ContainsRune("diouxX", rune(word[3])) {
		return false
	}
	switch w := string(word[4:]); w {
	case "8", "16", "32", "64", "MAX", "PTR":
		return true
	default:
		for _, p := range []string{"LEAST", "FAST"} {
			if n := strings.TrimPrefix(w, p); n != w {
				return n == "8" || n == "16" || n == "32" || n == "64"
			}
		}
	}
	return false
}

// spanText is a hidden text: a qualifier's shared name (a large kernel
// hides thousands of `__gm__`, each a string of its own otherwise), or a
// copy of the bytes.
func spanText(b []byte) string {
	if q, ok := qualifierNames[string(b)]; ok {
		return q
	}
	return string(b)
}

// qualifierNames maps each qualifier to itself.
var qualifierNames = func() map[string]string {
	m := make(map[string]string, len(qualifiers))
	for q := range qualifiers {
		m[q] = q
	}
	return m
}()

// inBody reports whether the innermost braces lie in a function body.
func inBody(braces []byte) bool {
	for _, b := range braces {
		if b == 'b' {
			return true
		}
	}
	return false
}

// prevByte returns the last byte before i that is not a blank or a
// newline, 0 at the start.
func prevByte(src []byte, i int) byte {
	for j := i - 1; j >= 0; j-- {
		if c := src[j]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

// afterFunctionQualifiers reports whether the qualifiers a member
// function's parameters may end with (`const`, `override`, `final`,
// `noexcept`, `&`, `&&`) and then `)` stand right before i.
func afterFunctionQualifiers(src []byte, i int) bool {
	j, words := i-1, 0
	for {
		for j >= 0 && isSpace(src[j]) {
			j--
		}
		if j < 0 {
			return false
		}
		if src[j] == '&' {
			j--
			continue
		}
		k := j
		for k >= 0 && isIdent(src[k]) {
			k--
		}
		switch string(src[k+1 : j+1]) {
		case "const", "override", "final", "noexcept", "volatile":
			words++
			j = k
		case "":
			return words > 0 && src[j] == ')'
		default:
			return false
		}
	}
}

// classHead reports whether the '{' at i opens a class, struct or union
// body: its declaration, back to the last `;`, `{` or `}`, names one of
// them (and no enum).
func classHead(src []byte, i int) bool {
	j := i - 1
	for j >= 0 && src[j] != ';' && src[j] != '{' && src[j] != '}' {
		j--
	}
	found := false
	for w := range words(src[j+1 : i]) {
		switch w {
		case "class", "struct", "union":
			found = true
		case "enum":
			return false
		}
	}
	return found
}

// words yields the identifiers of b in order.
func words(b []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for k := 0; k < len(b); {
			if !isIdentStart(b[k]) {
				k++
				continue
			}
			e := k
			for e < len(b) && isIdent(b[e]) {
				e++
			}
			if !yield(string(b[k:e])) {
				return
			}
			k = e
		}
	}
}

// memberDefault returns where the default value of the member declarator
// ending at the ',' at i starts (its '='), for a plain data member of a
// class: 0 when the declarator has none, or the declaration is static,
// const, a typedef or alias, or the declarator holds a parenthesis
// before its '=' (a function).
func memberDefault(src []byte, i int) int {
	// The declaration's start: the last ';', '{' or '}' outside the
	// brackets it holds (a '}' closing an `= {...}` initializer is not).
	start, depth := i-1, 0
	for ; start >= 0; start-- {
		switch c := src[start]; {
		case c == ')' || c == ']':
			depth++
		case c == '(' || c == '[':
			depth--
		case c == '}' && depth == 0:
			if open := openingBrace(src, start); open > 0 && prevByte(src, open) == '=' {
				start = open
				continue
			}
		}
		if c := src[start]; depth == 0 && (c == ';' || c == '{' || c == '}') {
			break
		}
	}
	start++
	for w := range words(src[start:i]) {
		switch w {
		case "static", "const", "constexpr", "typedef", "using", "friend", "operator":
			return 0
		}
	}
	// The declarator: after the last ',' outside brackets; its '=' is
	// the first outside them.
	from, eq := start, 0
	depth = 0
	for k := start; k < i; k++ {
		switch src[k] {
		case '(':
			if depth == 0 && eq == 0 {
				return 0
			}
			depth++
		case '[', '<', '{':
			depth++
		case ')', ']', '>', '}':
			depth--
		case ',':
			if depth == 0 {
				from, eq = k+1, 0
			}
		case '=':
			if depth == 0 && eq == 0 && k+1 < i && src[k+1] != '=' && k > from && !strings.ContainsRune("=!<>+-*/%&|^", rune(src[k-1])) {
				eq = k
			}
		}
	}
	if depth != 0 {
		return 0 // the ',' is inside the value (`Get<A, B>(x)`)
	}
	return eq
}

// openingBrace returns the '{' the '}' at i closes (braces in
// comments and strings aside), -1 when none does.
func openingBrace(src []byte, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch src[j] {
		case '}':
			depth++
		case '{':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// namespaceScope reports whether only namespaces (and `extern "C"`
// blocks) are open: no function body, class or initializer.
func namespaceScope(braces []byte) bool {
	for _, b := range braces {
		if b != 'n' {
			return false
		}
	}
	return true
}

// declPosition reports whether a word after last starts a declaration or
// statement.
func declPosition(last byte) bool {
	return last == '\n' || last == '>' || last == ';' || last == '{' || last == '}'
}

// afterMember reports whether `.` or `->` ends right before i (blanks
// allowed).
func afterMember(src []byte, i int) bool {
	j := i - 1
	for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	return j >= 0 && (src[j] == '.' || src[j] == '>' && j > 0 && src[j-1] == '-')
}

// memberCallEnd returns, for the word at i..e after a `.` or `->`, the
// end of `template operator()<...>` or `operator()<...>` (template
// arguments optional) when a '(' follows: the object's call operator
// called by name. Otherwise 0.
func memberCallEnd(src []byte, i, e int) int {
	if string(src[i:e]) == "template" {
		j := skipSpace(src, e)
		if !hasPrefixAt(src, j, "operator") || j+8 < len(src) && isIdent(src[j+8]) {
			return 0
		}
		e = j + 8
	}
	j := skipBlankAt(src, e)
	if !byteAt(src, j, '(') {
		return 0
	}
	if j = skipBlankAt(src, j+1); !byteAt(src, j, ')') {
		return 0
	}
	end := j + 1
	if j = skipSpace(src, end); byteAt(src, j, '<') {
		if end = templateArgsEnd(src, j); end == 0 {
			return 0
		}
		j = skipSpace(src, end)
	}
	if !byteAt(src, j, '(') {
		return 0
	}
	return end
}

// memberStart returns the offset of the `.` or `->` that afterMember saw
// before i.
func memberStart(src []byte, i int) int {
	j := i - 1
	for src[j] == ' ' || src[j] == '\t' {
		j--
	}
	if src[j] == '>' {
		j--
	}
	return j
}

// dependentCall reports whether a name and then '(' follow e: the
// `template` keyword without template arguments.
func dependentCall(src []byte, e int) bool {
	j := skipSpace(src, e)
	k := j
	for k < len(src) && isIdent(src[k]) {
		k++
	}
	if k == j || !isIdentStart(src[j]) || string(src[j:k]) == "operator" {
		return false
	}
	k = skipSpace(src, k)
	return k < len(src) && src[k] == '('
}

// BalancedEnd returns the end of the parenthesized list at i (nested
// parentheses, literals and comments skipped) within limit bytes, or 0
// (none there, not closed by then, or a directive inside it).
func BalancedEnd(src []byte, i, limit int) int {
	if i >= len(src) || src[i] != '(' {
		return 0
	}
	depth := 0
	for j := i; j < len(src) && j-i < limit; {
		switch c := src[j]; {
		case c == '"' || c == '\'':
			j = QuotedEnd(src, j)
			continue
		case c == '/' && j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*'):
			j, _ = CommentEnd(src, j)
			continue
		case c == '#' && (j == 0 || src[j-1] == '\n'):
			return 0 // a directive inside the arguments
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return 0
}

// registrationEnd returns the end of a macro invocation whose name ends at
// e when it stands alone: its arguments, an optional ';', then the end of
// the line, and no '{', ':' or '=' starting the next one (a function-like
// definition or a declaration). Otherwise 0.
func registrationEnd(src []byte, e int) int {
	j := skipBlankAt(src, e)
	end := BalancedEnd(src, j, 8192)
	if end == 0 {
		return 0
	}
	k := skipBlankAt(src, end)
	if k < len(src) && src[k] == ';' {
		end = k + 1
		k = skipBlankAt(src, end)
	}
	if k < len(src) && src[k] != '\n' && src[k] != '\r' && !hasPrefixAt(src, k, "//") && !hasPrefixAt(src, k, "/*") {
		return 0
	}
	for {
		k = skipSpace(src, k)
		if k >= len(src) {
			break
		}
		c, ok := CommentEnd(src, k)
		if !ok {
			break
		}
		k = c
	}
	if k < len(src) && (src[k] == '{' || src[k] == ':' || src[k] == '=' || src[k] == '.' || src[k] == '-') {
		return 0
	}
	return end
}

// tilingDataBegin rewrites `BEGIN_TILING_DATA_DEF(Name)` (the word at
// i..e) into `struct Name {` of the same length: the fields up to
// END_TILING_DATA_DEF become the struct's members. It returns the end of
// the invocation, or 0 when it is not that shape.
func tilingDataBegin(src []byte, i, e int, ensure func(), out *[]byte, spans *[]Span) int {
	j := skipBlankAt(src, e)
	end := BalancedEnd(src, j, 256)
	if end == 0 {
		return 0
	}
	name := strings.TrimSpace(string(src[j+1 : end-1]))
	for k := 0; k < len(name); k++ {
		if !isIdent(name[k]) {
			return 0
		}
	}
	if name == "" {
		return 0
	}
	ensure()
	*spans = append(*spans, Span{Start: uint32(i), End: uint32(j + 1), Text: string(src[i : j+1])},
		Span{Start: uint32(end - 1), End: uint32(end), Text: ")"})
	o := *out
	copy(o[i:], "struct")
	for k := i + 6; k <= j; k++ {
		o[k] = ' '
	}
	o[end-1] = '{'
	return end
}

// tilingField hides a tiling field macro's syntax, leaving the member
// `TYPE NAME;`: `TILING_DATA_FIELD_DEF(uint32_t, n);`,
// `TILING_DATA_FIELD_DEF_STRUCT(Sub, s);` and
// `TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, a);` (the array length hidden).
// It returns the end of the invocation, or 0 when it is not that shape.
func tilingField(src []byte, i, e int, blank func(s, e int)) int {
	j := skipBlankAt(src, e)
	end := BalancedEnd(src, j, 512)
	if end == 0 {
		return 0
	}
	var commas []int
	for k := j + 1; k < end-1; k++ {
		switch src[k] {
		case ',':
			commas = append(commas, k)
		case '(', '<', '"', '/':
			return 0
		}
	}
	want := 1
	if string(src[i:e]) == "TILING_DATA_FIELD_DEF_ARR" {
		want = 2
	}
	if len(commas) != want {
		return 0
	}
	blank(i, j+1)
	blank(commas[0], commas[len(commas)-1]+1)
	blank(end-1, end)
	return end
}

// hasIncludeArgs lists the `("x.h")` argument spans of `__has_include` in
// an #if or #elif directive line [i, end).
func hasIncludeArgs(src []byte, i, end int) [][2]int {
	d := string(src[i:end])
	if !strings.Contains(d, "__has_include") {
		return nil
	}
	var out [][2]int
	for off := 0; ; {
		k := strings.Index(d[off:], "__has_include")
		if k < 0 {
			return out
		}
		a := off + k + len("__has_include")
		off = a
		if strings.HasPrefix(d[a:], "_next") {
			a += len("_next")
			off = a
		}
		b := a
		for b < len(d) && (d[b] == ' ' || d[b] == '\t') {
			b++
		}
		if b >= len(d) || d[b] != '(' {
			continue
		}
		c := strings.IndexByte(d[b:], ')')
		if c < 0 {
			return out
		}
		out = append(out, [2]int{i + b, i + b + c + 1})
		off = b + c + 1
	}
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
	if !byteAt(src, j, '{') {
		return 0
	}
	if j = skipSpace(src, j+1); !byteAt(src, j, '}') {
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
	// A qualified type: `ge::graphStatus`, `AscendC::LocalTensor<T>`.
	for k+2 < len(src) && src[k] == ':' && src[k+1] == ':' && isIdentStart(src[k+2]) {
		k += 2
		for k < len(src) && isIdent(src[k]) {
			k++
		}
	}
	m := skipBlankAt(src, k)
	if m >= len(src) {
		return false
	}
	if src[m] == '\n' || src[m] == '\r' {
		// `ACLNN_API aclnnStatus` above `aclnnFoo(...)`.
		n := skipSpace(src, m)
		w := n
		for w < len(src) && isIdent(src[w]) {
			w++
		}
		x := skipBlankAt(src, w)
		return !body && w > n && isIdentStart(src[n]) && x < len(src) && src[x] == '('
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
		if string(src[n:w]) == "operator" {
			return true // `Coord& operator+=(Coord const& b)`
		}
		x := skipBlankAt(src, w)
		return x < len(src) && (src[x] == '(' || src[x] == ';' || src[x] == '=' || src[x] == '{') && (!body || src[x] == '(')
	}
	return m > k && isIdentStart(src[m])
}

// loopAfterMacro returns the offset of the first indentation byte of the
// next line when the macro whose name ends at e (its arguments on the
// same line, if any) ends its line and that line is an indented loop
// (or, with close, the indented '}' ending the block); 0 otherwise.
func loopAfterMacro(src []byte, e int, close bool) int {
	j := skipBlankAt(src, e)
	if j < len(src) && src[j] == '(' {
		if j = BalancedEnd(src, j, 1024); j == 0 {
			return 0
		}
		j = skipBlankAt(src, j)
	}
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if j >= len(src) || src[j] != '\n' {
		return 0
	}
	n := j + 1
	k := skipBlankAt(src, n)
	if k == n {
		return 0
	}
	w := k
	for w < len(src) && isIdent(src[w]) {
		w++
	}
	switch string(src[k:w]) {
	case "for", "while", "do":
		return n
	case "":
		if close && src[k] == '}' {
			return n
		}
	}
	return 0
}

// declMacroEnd returns the end of a declaration-position macro whose name
// ends at e when a declaration follows it (startsDeclaration), or 0.
// Outside function bodies the macro may take arguments and more macros
// may stand between it and the declaration: `PTO_INTERNAL OP_NAME(TADD)
// OP_TYPE(element_wise) void TAdd(` (each expands to specifiers or an
// `__attribute__`); in a body a macro with arguments may be a loop
// header, and stays.
func declMacroEnd(src []byte, e int, body bool) int {
	if startsDeclaration(src, e, body) {
		return e
	}
	if body {
		return 0
	}
	end := e
	if a := skipBlankAt(src, e); a < len(src) && src[a] == '(' {
		if end = BalancedEnd(src, a, 1024); end == 0 {
			return 0
		}
	}
	for k, n := end, 0; n < 4; n++ {
		// What follows the arguments is a declaration with a type:
		// `REGISTER_X(pipe)` then `go();` is two statements.
		if k > e && startsDeclaration(src, k, true) {
			// `NAME(int a) const {` is a function, not a macro.
			if w := skipSpace(src, k); !hasPrefixAt(src, w, "const") || w+5 < len(src) && isIdent(src[w+5]) {
				return end
			}
			return 0
		}
		j := skipSpace(src, k)
		w := j
		for w < len(src) && isIdent(src[w]) {
			w++
		}
		if !isMacroName(src[j:w]) {
			return 0
		}
		k = w
		if a := skipBlankAt(src, w); a < len(src) && src[a] == '(' {
			if k = BalancedEnd(src, a, 1024); k == 0 {
				return 0
			}
		}
	}
	return 0
}

// aliasMacroArgs returns the offset of the '(' of the macro an alias
// declaration whose `using` ends at e names (`using X = MACRO(a, b);`,
// the ';' right after the arguments), or 0.
func aliasMacroArgs(src []byte, e int) int {
	i := skipSpace(src, e)
	j := i
	for j < len(src) && isIdent(src[j]) {
		j++
	}
	if j == i || !byteAt(src, skipSpace(src, j), '=') {
		return 0
	}
	i = skipSpace(src, skipSpace(src, j)+1)
	j = i
	for j < len(src) && isIdent(src[j]) {
		j++
	}
	if !isMacroName(src[i:j]) || !byteAt(src, j, '(') {
		return 0
	}
	if end := BalancedEnd(src, j, 1024); end == 0 || !byteAt(src, skipSpace(src, end), ';') {
		return 0
	}
	return j
}

func skipBlankAt(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// byteAt reports whether src holds c at i.
func byteAt(src []byte, i int, c byte) bool { return i < len(src) && src[i] == c }

func hasPrefixAt(src []byte, i int, p string) bool {
	return len(src)-i >= len(p) && string(src[i:i+len(p)]) == p
}
