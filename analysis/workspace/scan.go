package workspace

import "github.com/extern-lsp/extern-lsp/grammar"

// Kind evidence by identifier (ascendc-facts.md, "Core-type guards"): cube
// units and pipes, and vector buffer positions and pipes.
var (
	cubeWords = map[string]bool{"Mmad": true, "LoadData": true, "LoadData2D": true, "LoadData3DV2": true, "Fixpipe": true,
		"L0A": true, "L0B": true, "L0C": true, "PIPE_M": true, "PIPE_FIX": true, "PIPE_MTE1": true, "CO1": true}
	cubePositions = map[string]bool{"A1": true, "B1": true, "A2": true, "B2": true, "CO1": true}
	vecWords      = map[string]bool{"PIPE_V": true, "VECIN": true, "VECOUT": true, "VECCALC": true}
)

// token is one lexical token of the cheap scanner: an identifier, a number,
// a string literal or a punctuation byte.
type token struct {
	text string
	kind byte // 'i' identifier, 'n' number, 's' string, 'p' punctuation
}

// tokens lexes C++ text, skipping comments and preprocessor lines.
func tokens(src []byte, fn func(toks []token, i int)) {
	var toks []token
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			i = j + 2
		case c == '#' && lineStart:
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j > len(src) {
				j = len(src)
			}
			end := j + 1
			if end > len(src) {
				end = len(src)
			}
			toks = append(toks, token{string(src[i:end]), 's'})
			i = end
			lineStart = false
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			k := byte('i')
			if c >= '0' && c <= '9' {
				k = 'n'
			}
			toks = append(toks, token{string(src[i:j]), k})
			i = j
			lineStart = false
		default:
			if c == ':' && i+1 < len(src) && src[i+1] == ':' {
				toks = append(toks, token{"::", 'p'})
				i += 2
			} else {
				toks = append(toks, token{string(c), 'p'})
				i++
			}
			lineStart = false
		}
	}
	for i := range toks {
		fn(toks, i)
	}
}

// scanText summarises a file without parsing it: includes, the extern entry
// shape and kind evidence.
func scanText(src []byte) *scan {
	s := &scan{}
	s.includes = grammar.IncludesOf(&grammar.File{Src: src, Guards: grammar.ScanGuards(src)})
	externC := false
	at := func(toks []token, i int) string {
		if i >= 0 && i < len(toks) {
			return toks[i].text
		}
		return ""
	}
	tokens(src, func(toks []token, i int) {
		t := toks[i].text
		switch {
		case t == "extern" && at(toks, i+1) == `"C"`:
			externC = true
		case t == "__gm__":
			// __gm__ [const] int64_t * name (, or ))
			j := i + 1
			if at(toks, j) == "const" {
				j++
			}
			if ty := at(toks, j); (ty == "int64_t" || ty == "uint64_t") && at(toks, j+1) == "*" && j+2 < len(toks) && toks[j+2].kind == 'i' {
				if n := at(toks, j+3); n == "," || n == ")" {
					s.argsFn = true
				}
			}
		case t == "int64_t" || t == "uint64_t":
			if at(toks, i+1) == "__gm__" && at(toks, i+2) == "*" && i+3 < len(toks) && toks[i+3].kind == 'i' {
				if n := at(toks, i+4); n == "," || n == ")" {
					s.argsFn = true
				}
			}
		case cubeWords[t] && (t != "CO1" || at(toks, i-1) == "::"):
			s.cube = true
		case cubePositions[t] && at(toks, i-1) == "::" && at(toks, i-2) == "TPosition":
			s.cube = true
		case vecWords[t]:
			s.vec = true
		case t == "SyncAll":
			if at(toks, i+1) == "<" && at(toks, i+2) == "false" {
				s.mixedSig = true
			}
		case t == "CrossCoreSetFlag" || t == "CrossCoreWaitFlag":
			if at(toks, i+1) == "<" {
				switch at(toks, i+2) {
				case "1", "2", "0x1", "0x2":
					s.mixedSig = true
				}
			}
		case t == "NotifyEvent" || t == "WaitEvent":
			s.mixedSig = true
		}
	})
	s.entry = s.argsFn && externC
	return s
}
