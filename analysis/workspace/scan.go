package workspace

import (
	"bytes"
	"iter"
	"path"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Kind evidence by identifier (ascendc-facts.md, "Core-type guards"): cube
// units and pipes, and vector buffer positions and pipes. A switch, not
// maps: every identifier of the workspace is looked up.
const (
	cubeWord = iota + 1
	cubePosition
	vecWord
)

func kindWord(word []byte) int {
	switch string(word) {
	case "Mmad", "LoadData", "LoadData2D", "LoadData3DV2", "Fixpipe", "L0A", "L0B", "L0C", "PIPE_M", "PIPE_FIX", "PIPE_MTE1":
		return cubeWord
	case "A1", "B1", "A2", "B2", "CO1":
		return cubePosition
	case "PIPE_V", "VECIN", "VECOUT", "VECCALC":
		return vecWord
	}
	return 0
}

// span is one lexical token of the cheap scanner, as a byte range: an
// identifier, a number, a string literal or a punctuation mark.
type span struct {
	start, end int32
	kind       byte // 'i' identifier, 'n' number, 's' string, 'p' punctuation
}

func isWordByte(b byte) bool { return wordBytes[b] }

var wordBytes = func() (t [256]bool) {
	for b := range t {
		t[b] = b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	return t
}()

// lex splits C++ text into tokens, handed to emit in order, skipping
// comments. Directive lines are handed to directive instead of being
// tokenized. No token array is kept: a 10 MB file has millions of tokens.
func lex(src []byte, directive func(line []byte, start int), emit func(span)) {
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = grammar.CommentEnd(src, i)
		case c == '#' && lineStart:
			j := grammar.DirectiveEnd(src, i)
			directive(src[i:j], i)
			i = j
		case c == '"' || c == '\'':
			end := min(grammar.QuotedEnd(src, i), len(src))
			emit(span{int32(i), int32(end), 's'})
			i = end
			lineStart = false
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			k := byte('i')
			if c >= '0' && c <= '9' {
				k = 'n'
			}
			emit(span{int32(i), int32(j), k})
			i = j
			lineStart = false
		default:
			if c == ':' && i+1 < len(src) && src[i+1] == ':' {
				emit(span{int32(i), int32(i + 2), 'p'})
				i += 2
			} else {
				emit(span{int32(i), int32(i + 1), 'p'})
				i++
			}
			lineStart = false
		}
	}
}

// scanText summarises a file without parsing it: includes, the extern entry
// shape and kind evidence. It runs over every file of the workspace, so it
// allocates nothing per token.
func scanText(src []byte, asc bool) *scan {
	s := &scan{}
	// The checks look up to 4 tokens ahead and 2 behind: a token is judged
	// once 4 more have come, from a window of the last 8.
	const ahead, window = 4, 8
	var ring [window]span
	n := 0 // tokens seen
	valid := func(i int) bool { return i >= 0 && i < n && i > n-window }
	at := func(i int) []byte {
		if valid(i) {
			t := ring[i%window]
			return src[t.start:t.end]
		}
		return nil
	}
	is := func(i int, lit string) bool {
		if !valid(i) {
			return false
		}
		t := ring[i%window]
		return int(t.end-t.start) == len(lit) && string(src[t.start:t.end]) == lit
	}
	ident := func(i int) bool { return valid(i) && ring[i%window].kind == 'i' }
	externC := false
	// tmpl is the name before the template arguments being read, and how
	// many `<` they opened: a launch of a template kernel names it.
	var tmpl struct {
		name  []byte
		depth int
	}
	// args records a `__gm__ int64_t *name` parameter whose type starts at
	// token first and whose name is token name: alone in its list, it is
	// the runtime's `kernel(args)` shape; with others, it is int64 data, an
	// FFTS address or a flag word (ascendc-facts.md, "Launch and build
	// models").
	// global is set from a `__global__` to the `{` or `;` ending its
	// declarator; globalArgs when its parameters are the runtime shape.
	global, globalArgs, named := false, false, false
	// ascend is set when the `__global__` declaration under way carries
	// an Ascend C mark (ascendMark); one without is another accelerator's
	// kernel (a CUDA-like backend of a multi-backend tree), no unit, and
	// its name is dropped from kernels (from kernelsAt on).
	ascend, kernelsAt := false, 0
	// inline is set from an `inline` to the `{`, `}` or `;` after it: an
	// inline function taking the pointer alone is a helper (a runtime API
	// getter, a library's flag read), no entry the runtime calls: only
	// includers of its file say how it is launched.
	inline := false
	// The runtime's shape names its one parameter `args` (or is the
	// runtime's `kernel_entry`): a device function taking one int64
	// pointer under another name (`sync_lock_participant_num(base)`, a
	// lock word, an FFTS address) is a library's, launched as its
	// includers are.
	args := func(first, name int) {
		s.argsFn = true
		runtimeName := is(name, "args") || is(name, "arg") || is(first-2, "kernel_entry")
		if is(first-1, "(") && is(name+1, ")") && !inline && runtimeName {
			s.runtimeFn = true
			globalArgs = globalArgs || global
		}
	}
	judge := func(i int) {
		t := ring[i%window]
		if t.kind != 'i' {
			if t.kind != 'p' || t.end-t.start != 1 {
				return
			}
			// One byte, read once: most tokens are punctuation.
			switch src[t.start] {
			case '{', ';':
				if global && ascend && src[t.start] == ';' {
					// A prototype (a host launcher's `extern "C"
					// __global__ __aicore__ void k(...);`) defines no
					// kernel: its name stays known.
				} else if global && ascend {
					// A __global__ kernel with parameters of its own is
					// launched by the host; one with the args shape is
					// the runtime's.
					s.globalAny = true
					s.global = s.global || !globalArgs
				} else if global {
					s.kernels = s.kernels[:kernelsAt]
				}
				global, globalArgs = false, false
				inline = false
			case '}':
				inline = false
			case '<':
				if is(i+1, "<") && is(i+2, "<") && (ident(i-1) || is(i-1, ">")) {
					// kernel<<<blocks, l2ctrl, stream>>>(...): a host launch.
					s.launch = true
					if ident(i - 1) {
						s.launched = append(s.launched, string(at(i-1)))
					} else if tmpl.name != nil && tmpl.depth == 0 {
						s.launched = append(s.launched, string(tmpl.name))
					}
					tmpl.name = nil
				} else if tmpl.name != nil {
					tmpl.depth++
				}
			case '>':
				if tmpl.name != nil {
					if tmpl.depth--; tmpl.depth <= 0 && !is(i+1, "<") {
						tmpl.name = nil
					}
				}
			}
			if src[t.start] == ';' || src[t.start] == '{' || src[t.start] == '}' {
				tmpl.name = nil
			}
			return
		}
		word := src[t.start:t.end]
		if tmpl.name == nil && is(i+1, "<") && !is(i+2, "<") {
			// `k<T, 2><<<…>>>`: the name before a template's arguments.
			tmpl.name, tmpl.depth = word, 0
		}
		switch string(word) {
		case "extern":
			externC = externC || is(i+1, `"C"`)
		case "inline", "__inline__", "__forceinline__":
			inline = true
		case "__gm__":
			ascend = ascend || global
			// __gm__ [const] int64_t * name (, or ))
			j := i + 1
			if is(j, "const") {
				j++
			}
			if (is(j, "int64_t") || is(j, "uint64_t")) && is(j+1, "*") && ident(j+2) && (is(j+3, ",") || is(j+3, ")")) {
				args(i, j+2)
			}
		case "int64_t", "uint64_t":
			if is(i+1, "__gm__") && is(i+2, "*") && ident(i+3) && (is(i+4, ",") || is(i+4, ")")) {
				args(i, i+3)
			}
		case "__global__":
			// A device kernel definition or declaration (a CPU-simulator
			// stub #defines the word away, and directives are not tokens);
			// `__global__ __aicpu__` is an AI CPU kernel: no AI Core runs it.
			if is(i+1, "__aicpu__") {
				break
			}
			global, globalArgs, named = true, false, false
			ascend, kernelsAt = asc || ascendMark(at(i-1)) || ascendMark(at(i-2)), len(s.kernels)
		case "aclrtLaunchKernel", "aclrtLaunchKernelWithConfig", "rtKernelLaunch", "ACLRT_LAUNCH_KERNEL":
			s.launch = true
			if is(i+1, "(") && ident(i+2) && len(word) == len("ACLRT_LAUNCH_KERNEL") {
				s.launched = append(s.launched, string(at(i+2)))
			}
		case "SyncAll":
			if is(i+1, "<") && is(i+2, "false") {
				s.mixedSig = true
			}
		case "CrossCoreSetFlag", "CrossCoreWaitFlag":
			if is(i+1, "<") {
				switch string(at(i + 2)) {
				case "1", "2", "0x1", "0x2":
					s.mixedSig = true
				}
			}
		case "NotifyEvent", "WaitEvent":
			s.mixedSig = true
		case "KERNEL_TASK_TYPE_DEFAULT", "KERNEL_TASK_TYPE":
			// The kernel's task type (`KERNEL_TASK_TYPE_DEFAULT(
			// KERNEL_TYPE_MIX_AIC_1_2)`, `KERNEL_TASK_TYPE(key, type)`):
			// how many vector cores each block runs.
			t := at(i + 2)
			if len(word) == len("KERNEL_TASK_TYPE") {
				t = at(i + 4)
			}
			if is(i+1, "(") && bytes.HasPrefix(t, []byte("KERNEL_TYPE_")) {
				s.taskTypes |= taskOneVector
				switch string(t) {
				case "KERNEL_TYPE_AIV_ONLY", "KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIV_1_0", "KERNEL_TYPE_MIX_AIC_1_0", "KERNEL_TYPE_MIX_AIC_1_1":
				default:
					s.taskTypes |= taskVectorPair
				}
			}
		default:
			ascend = ascend || global && ascendMark(word)
			if global && !named && is(i+1, "(") {
				// The kernel's name: the word before its parameters.
				s.kernels = append(s.kernels, string(word))
				named = true
			}
			if bytes.HasSuffix(word, []byte("_GLOBAL")) && (is(i+1, "void") || is(i-1, ">")) {
				// A library's kernel macro (`#define CATLASS_GLOBAL
				// __global__ __aicore__`) before the return type.
				global, globalArgs, ascend, kernelsAt = true, false, true, len(s.kernels)
			}
			switch kindWord(word) {
			case cubeWord:
				s.cube = true
			case cubePosition:
				s.cube = s.cube || is(i-1, "::") && is(i-2, "TPosition")
			case vecWord:
				s.vec = true
			}
		}
	}
	macros := grammar.IncludeMacros{}
	// kernelMacros are the macros of the file whose bodies define a
	// `__global__` kernel (`#define KERNEL_DEF(type) extern "C"
	// __global__ __aicore__ void k_##type(...) {...}`): the file defines
	// kernels where it expands one, even as another macro's argument
	// (`FOR_EACH_TYPE(KERNEL_DEF);`). A macro never expanded defines none.
	var kernelMacros [][]byte
	lex(src, func(line []byte, start int) {
		if inc, ok := grammar.IncludeOf(line, start, macros); ok {
			s.includes = append(s.includes, inc)
		}
		if name := kernelMacro(line); name != nil {
			kernelMacros = append(kernelMacros, name)
		}
		if name, body := definition(line); name != nil {
			s.defines = append(s.defines, string(name))
			s.noteMacroDef(name, body)
		}
	}, func(t span) {
		// Most tokens are punctuation: the word checks are not called
		// for them.
		if t.kind == 'i' && len(s.macroWords) < maxMacroWords {
			s.noteMacroWord(src, t, ring[(n+window-1)%window], n > 0)
		}
		if t.kind == 'i' && len(kernelMacros) > 0 {
			for _, m := range kernelMacros {
				if bytes.Equal(src[t.start:t.end], m) {
					// Its parameters are the macro's: a host launch's own
					// (the runtime's single `args` is written out, not
					// generated per type).
					s.globalAny, s.global = true, true
				}
			}
		}
		ring[n%window] = t
		n++
		if n > ahead {
			judge(n - 1 - ahead)
		}
	})
	for i := max(n-ahead, 0); i < n; i++ {
		judge(i)
	}
	s.externC = externC
	for _, inc := range s.includes {
		if k, ok := strings.CutPrefix(path.Base(inc.Path), "aclrtlaunch_"); ok && strings.HasSuffix(k, ".h") {
			s.launched = append(s.launched, strings.TrimSuffix(k, ".h"))
		}
	}
	s.entry = s.argsFn && externC || s.globalAny
	return s
}

// definition returns the name a `#define` line defines and the rest of
// the line (nil, nil for another line).
func definition(line []byte) (name, body []byte) {
	rest := bytes.TrimLeft(line[1:], " \t")
	if !bytes.HasPrefix(rest, []byte("define")) {
		return nil, nil
	}
	rest = bytes.TrimLeft(rest[len("define"):], " \t")
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	if n == 0 {
		return nil, nil
	}
	return rest[:n], rest[n:]
}

// ascendMark reports whether a word of a `__global__` declaration marks
// it as an Ascend C kernel: an AI Core qualifier (`__aicore__`, `__cube__`,
// `__vector__`, `__mix__`, the attribute `[aicore]`, a library's macro
// spelling AICORE), or a `__gm__`/`GM_ADDR` parameter. CUDA-like kernels
// of other backends carry none (an Ascend C `.asc` source's SIMT kernels
// neither: its path says so).
func ascendMark(w []byte) bool {
	switch string(w) {
	case "__aicore__", "__cube__", "__vector__", "__mix__", "aicore", "__gm__", "GM_ADDR":
		return true
	}
	return macroLike(w) && bytes.Contains(w, []byte("AICORE"))
}

// markedBody reports whether a macro body holds a word ascendMark accepts.
func markedBody(body []byte) bool {
	for w := range words(body) {
		if ascendMark(w) {
			return true
		}
	}
	return false
}

// words yields the words of b: its runs of isWordByte bytes.
func words(b []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for i := 0; i < len(b); {
			if !isWordByte(b[i]) {
				i++
				continue
			}
			j := i
			for j < len(b) && isWordByte(b[j]) {
				j++
			}
			if !yield(b[i:j]) {
				return
			}
			i = j
		}
	}
}

// kernelMacro returns the name a `#define` line defines when its body
// declares an Ascend C `__global__` kernel (markedBody), nil otherwise.
func kernelMacro(line []byte) []byte {
	name, body := definition(line)
	if name == nil || !markedBody(body) {
		return nil
	}
	for i := bytes.Index(body, []byte("__global__")); i >= 0; {
		end := i + len("__global__")
		if (i == 0 || !isWordByte(body[i-1])) && (end == len(body) || !isWordByte(body[end])) {
			return name
		}
		j := bytes.Index(body[end:], []byte("__global__"))
		if j < 0 {
			break
		}
		i = end + j
	}
	return nil
}

// A kernel can be declared by a macro another file defines
// (`#define GLOBAL_FUNC_DEF(k) extern "C" __global__ __aicore__ void k(...)`
// in a base header, used by `#define BATCH_DEF(type) ...
// GLOBAL_FUNC_DEF(op_##type)` and instantiated per type as
// `TYPES_DEF(BATCH_DEF);`). The scan notes what the workspace needs to
// find such files (Workspace.macroEntries): the function-like macros whose
// bodies declare a kernel, those whose bodies name other macros, and the
// macro names the file's code uses where an instantiation stands.

// macroDef is a function-like #define whose body names macro-like words.
type macroDef struct {
	name string
	refs []string
}

// maxMacroWords bounds the macro names one file's scan keeps.
const maxMacroWords = 64

// noteMacroDef records a function-like #define's kernel declaration and
// the macro-like words of its body.
func (s *scan) noteMacroDef(name, rest []byte) {
	if len(rest) == 0 || rest[0] != '(' {
		return
	}
	close := bytes.IndexByte(rest, ')')
	if close < 0 {
		return
	}
	body := rest[close+1:]
	d := macroDef{name: string(name)}
	for w := range words(body) {
		switch {
		case string(w) == "__global__":
			if markedBody(body) {
				s.kernelDefs = append(s.kernelDefs, d.name)
			}
		case macroLike(w) && !slices.Contains(d.refs, string(w)):
			d.refs = append(d.refs, string(w))
		}
	}
	if len(d.refs) > 0 {
		s.macroDefs = append(s.macroDefs, d)
	}
}

// noteMacroWord records a macro-like word of code used as a statement's
// call (`TYPES_DEF(`) or as an argument alone (`(BATCH_DEF)`, `(X,`),
// given the token before it.
func (s *scan) noteMacroWord(src []byte, t, prev span, hasPrev bool) {
	if len(s.macroWords) >= maxMacroWords || t.kind != 'i' || !macroLike(src[t.start:t.end]) {
		return
	}
	after := int(t.end)
	for after < len(src) && (src[after] == ' ' || src[after] == '\t') {
		after++
	}
	if after >= len(src) {
		return
	}
	p := byte(';')
	if hasPrev && prev.kind == 'p' {
		p = src[prev.start]
	} else if hasPrev {
		p = 0
	}
	next := src[after]
	if !((p == ';' || p == '{' || p == '}') && next == '(' || (p == '(' || p == ',') && (next == ')' || next == ',')) {
		return
	}
	w := string(src[t.start:t.end])
	if !slices.Contains(s.macroWords, w) {
		s.macroWords = append(s.macroWords, w)
	}
}

// macroLike reports whether a word is spelled as macros are: upper-case
// letters, digits and underscores, with a letter.
func macroLike(w []byte) bool {
	letter := false
	for _, b := range w {
		switch {
		case b >= 'A' && b <= 'Z':
			letter = true
		case b == '_' || b >= '0' && b <= '9':
		default:
			return false
		}
	}
	return letter && len(w) > 2
}
