package grammar

import (
	"bytes"
	"regexp"
	"sort"
)

// Span is a byte range of the original source that was hidden from the
// parser, with the text that stood there.
type Span struct {
	Start, End uint32
	Text       string
}

// qualifiers are AscendC/CCE keywords tree-sitter-cpp does not know. Each is
// replaced by spaces of the same length so offsets and columns stay true.
var qualifierRE = regexp.MustCompile(`\b(?:__gm__|__aicore__|__ubuf__|__cbuf__|__ca__|__cb__|__cc__|__fbuf__|__global__|__sync_alias__|__sync_in__|__sync_out__|__sync_noalias__|__cce_aicore__|__cce_simt_entry__|__simt_callee__|__simt_vf__|__inline__|__forceinline__|__restrict__|__gm_align__)\b|\[aicore\]|\[host,aicore\]|\b__(?:in|out)_pipe__\s*\([A-Za-z0-9_, ]*\)`)

// declMacroRE finds an all-caps macro used as a declaration specifier
// (CATLASS_DEVICE, ASCENDC_HOST_AICORE, __PTO_INLINE__ ...) directly before a
// keyword that starts a declaration; tree-sitter would otherwise read it as
// a type and report the rest as an error.
var declMacroRE = regexp.MustCompile(`(?m)(^[ \t]*|[>;{}][ \t]*)([A-Z_][A-Z0-9_]{3,})([ \t]+)(?:inline|static|void|constexpr|auto|bool|int|int8_t|int16_t|int32_t|int64_t|uint8_t|uint16_t|uint32_t|uint64_t|float|half|template|extern|__aicore__)\b`)

// guardIfRE finds the `if ASCEND_IS_AIV {` form (the macro expands to
// `constexpr (...)`), which is not C++ as written.
var guardIfRE = regexp.MustCompile(`\bif[ \t]+(ASCEND_IS_AI[VC])\b`)

// AscendIsReplacement maps the masked spelling of ASCEND_IS_AIV/AIC back to
// the original; the masked text is a parenthesized identifier of equal length.
var AscendIsReplacement = map[string]string{"(ASCENDISAIV)": "ASCEND_IS_AIV", "(ASCENDISAIC)": "ASCEND_IS_AIC"}

// knownTypeMacros are all-caps words that really are types or values in
// declaration position and must not be masked.
var knownTypeMacros = map[string]bool{"EXTERN": false}

// Mask returns a copy of src with AscendC qualifiers blanked and the spans it
// changed. The result has exactly the length of src.
func Mask(src []byte) ([]byte, []Span) {
	hasQual := bytes.Contains(src, []byte("__")) || bytes.Contains(src, []byte("[aicore]")) || bytes.Contains(src, []byte("[host,aicore]"))
	out := append([]byte(nil), src...)
	var spans []Span
	blank := func(s, e int) {
		spans = append(spans, Span{Start: uint32(s), End: uint32(e), Text: string(src[s:e])})
		for i := s; i < e; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	if hasQual {
		for _, m := range qualifierRE.FindAllIndex(src, -1) {
			blank(m[0], m[1])
		}
	}
	for _, m := range declMacroRE.FindAllSubmatchIndex(out, -1) {
		word := string(out[m[4]:m[5]])
		if _, known := knownTypeMacros[word]; known {
			continue
		}
		blank(m[4], m[5])
	}
	for _, m := range guardIfRE.FindAllSubmatchIndex(src, -1) {
		s, e := m[2], m[3]
		rep := "(ASCENDISAIV)"
		if src[e-1] == 'C' {
			rep = "(ASCENDISAIC)"
		}
		spans = append(spans, Span{Start: uint32(s), End: uint32(e), Text: string(src[s:e])})
		copy(out[s:e], rep)
	}
	sortSpans(spans)
	return out, spans
}

func sortSpans(sp []Span) {
	sort.Slice(sp, func(i, j int) bool { return sp[i].Start < sp[j].Start })
}
