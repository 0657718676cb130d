package workspace

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// HostLaunch is what the host code of a workspace says about the blocks
// the kernels of an entry are launched on, read from every launch that
// names them (`k<<<n, …>>>`, `ACLRT_LAUNCH_KERNEL(k)(n, …)`,
// `aclrtlaunch_k(n, …)`), through wrappers that pass their own parameter
// on (`void k_do(uint32_t n, …) { k<<<n, …>>>(…); }`) to their callers'
// arguments. The zero value says nothing: a kernel no launch names, one
// a host names in a string (a handle looked up by name and launched with
// a count of its own), or a count the reading does not follow.
type HostLaunch struct {
	// Kernels is the number of kernels the entry defines.
	Kernels int
	// Blocks: every launch starts a constant count, at most Blocks.
	Blocks int64
	// Counts: the tiling fields every launch's count reads, as
	// LaunchCounts gives them (`k_do(…, tiling.used, …)` with
	// `tiling.used = std::min(cores, n)`: "used", Sized); the key "" is
	// a count of no field, sized from the work (`std::min(cores, n)`).
	Counts map[string]LaunchCount
}

// hostDepth bounds the wrappers followed from a launch to a count.
const hostDepth = 4

// HostLaunchOf returns the host launches of kernel of entry, or of every
// kernel entry defines for "", cached per entry and kernel like
// LaunchCounts.
func (w *Workspace) HostLaunchOf(entry, kernel string) HostLaunch {
	entry = Abs(entry)
	w.mu.Lock()
	memo := memoOf(&w.hostLaunch)
	w.mu.Unlock()
	key := entry + "\x00" + kernel
	if got, ok := memo.get(key); ok {
		return got
	}
	var out HostLaunch
	if s := w.scanOf(entry); s != nil {
		kernels := s.kernels
		if kernel != "" {
			kernels = nil
			if slices.Contains(s.kernels, kernel) {
				kernels = []string{kernel}
			}
		}
		r := &hostReader{w: w, files: map[string]*hostSrc{}}
		var counts []hostCount
		for _, k := range kernels {
			c, ok := r.launches(k)
			if !ok {
				counts = nil
				break
			}
			counts = append(counts, c...)
		}
		out = hostLaunchOf(counts)
		out.Kernels = len(kernels)
	}
	w.mu.Lock()
	if w.hostLaunch == memo {
		memo.put(key, out, 0)
	}
	w.mu.Unlock()
	return out
}

// hostLaunchOf sums up the counts of every launch: a constant for all, one
// field for all, or sized for all.
func hostLaunchOf(counts []hostCount) HostLaunch {
	var out HostLaunch
	if len(counts) == 0 {
		return out
	}
	field, sized, constant, min := counts[0].field, true, true, false
	for _, c := range counts {
		min = min || c.min
		constant = constant && c.blocks > 0
		out.Blocks = max(out.Blocks, c.blocks)
		if c.field != field {
			field = ""
		}
		sized = sized && c.sized
	}
	if !constant {
		out.Blocks = 0
	}
	if field != "" || sized {
		out.Counts = map[string]LaunchCount{field: {File: counts[0].file, Line: counts[0].line, Sized: sized, Min: min}}
	}
	return out
}

// hostCount is what one launch's count is: a constant (blocks), a tiling
// field (field), or sized from the work; file and line name it.
type hostCount struct {
	blocks int64
	field  string
	sized  bool
	min    bool
	file   string
	line   int
}

// hostSrc is a host file's tokens and #defines.
type hostSrc struct {
	path string
	src  []byte
	toks []span
	defs map[string]string
	fns  []hostFn
}

// hostFn is a function definition of a host file: its name, its
// parameters' names and its body's tokens [open, close].
type hostFn struct {
	name        string
	params      []string
	open, close int
}

// hostReader reads the host files of one question once.
type hostReader struct {
	w     *Workspace
	files map[string]*hostSrc
}

func (r *hostReader) file(p string) *hostSrc {
	if h, ok := r.files[p]; ok {
		return h
	}
	var h *hostSrc
	if src, err := r.w.Source(p); err == nil {
		src = uncomment(src)
		h = &hostSrc{path: p, src: src, defs: map[string]string{}}
		lex(src, func(line []byte, start int) {
			if name, body := definition(line); name != nil {
				h.defs[string(name)] = strings.TrimSpace(string(body))
			}
		}, func(t span) { h.toks = append(h.toks, t) })
		h.fns = h.functions()
	}
	r.files[p] = h
	return h
}

func (h *hostSrc) text(i int) string {
	if i < 0 || i >= len(h.toks) {
		return ""
	}
	return string(h.src[h.toks[i].start:h.toks[i].end])
}

// ends reports whether the `>>>` closing a launch's configuration starts
// at token i.
func (h *hostSrc) ends(i int) bool {
	return h.is(i, ">") && h.is(i+1, ">") && h.is(i+2, ">")
}

// word reports whether token i is an identifier.
func (h *hostSrc) word(i int) bool { return i >= 0 && i < len(h.toks) && h.toks[i].kind == 'i' }

// is reports whether token i is lit.
func (h *hostSrc) is(i int, lit string) bool {
	return i >= 0 && i < len(h.toks) && string(h.src[h.toks[i].start:h.toks[i].end]) == lit
}

func (h *hostSrc) line(i int) int { return bytes.Count(h.src[:h.toks[i].start], []byte("\n")) + 1 }

// close returns the token closing the bracket opened at i (len(toks) if
// none).
func (h *hostSrc) close(i int) int {
	depth := 0
	for j := i; j < len(h.toks); j++ {
		switch h.text(j) {
		case "(", "{", "[":
			depth++
		case ")", "}", "]":
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(h.toks)
}

// args splits the tokens of a call's parentheses (open at i) at its
// top-level commas.
func (h *hostSrc) args(i int) [][2]int {
	end := h.close(i)
	var out [][2]int
	depth, from := 0, i+1
	for j := i + 1; j < end; j++ {
		switch h.text(j) {
		case "(", "{", "[":
			depth++
		case ")", "}", "]":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, [2]int{from, j})
				from = j + 1
			}
		}
	}
	if from < end {
		out = append(out, [2]int{from, end})
	}
	return out
}

var notFunction = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "sizeof": true, "return": true}

// functions lists the function definitions of the file: a `{` after a
// parameter list (and `const`, `noexcept`, `override`) named by a word.
func (h *hostSrc) functions() []hostFn {
	var out []hostFn
	for i := range h.toks {
		if !h.is(i, "{") {
			continue
		}
		j := i - 1
		for j > 0 && (h.is(j, "const") || h.is(j, "noexcept") || h.is(j, "override")) {
			j--
		}
		if !h.is(j, ")") {
			continue
		}
		open := j
		for depth := 0; open >= 0; open-- {
			if t := h.text(open); t == ")" {
				depth++
			} else if t == "(" {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if !h.word(open-1) || notFunction[h.text(open-1)] {
			continue
		}
		fn := hostFn{name: h.text(open - 1), open: i, close: h.close(i)}
		for _, a := range h.args(open) {
			name := ""
			for k := a[0]; k < a[1] && !h.is(k, "="); k++ {
				if h.toks[k].kind == 'i' {
					name = h.text(k)
				}
			}
			fn.params = append(fn.params, name)
		}
		out = append(out, fn)
	}
	return out
}

// enclosing returns the innermost function whose body holds token i.
func (h *hostSrc) enclosing(i int) *hostFn {
	var in *hostFn
	for k := range h.fns {
		if f := &h.fns[k]; f.open < i && i < f.close && (in == nil || f.open > in.open) {
			in = f
		}
	}
	return in
}

// scope lists the workspace files a launch or a wrapper of file p can be
// called from: those of the folder above p's (examples keep the kernel
// in one folder and the programs launching it in their siblings) whose
// text names word.
func (r *hostReader) scope(p, word string) []string {
	dir := filepath.Dir(filepath.Dir(p)) + string(filepath.Separator)
	known := r.w.launchList(knownFiles)
	var out []string
	for _, f := range known {
		if !strings.HasPrefix(f, dir) {
			continue
		}
		if src, err := r.w.Source(f); err == nil && bytes.Contains(src, []byte(word)) {
			out = append(out, f)
		}
	}
	return out
}

// launchList is launchDirs' list under key (launchIn builds it).
func (w *Workspace) launchList(key string) []string {
	w.launchIn("")
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.launchDirs[key]
}

// launches returns the count of every launch of kernel k, ok false when
// one is not followed or a host names k in a string.
func (r *hostReader) launches(k string) ([]hostCount, bool) {
	files := r.w.launchList("\x00" + k)
	var out []hostCount
	for _, p := range files {
		h := r.file(p)
		if h == nil {
			return nil, false
		}
		for i := range h.toks {
			arg := -1
			switch {
			case h.is(i, k) && h.is(i+1, "<") && h.is(i+2, "<") && h.is(i+3, "<"):
				arg = i + 4
			case h.is(i, "ACLRT_LAUNCH_KERNEL") && h.is(i+2, k) && h.is(i+4, "("):
				arg = i + 5
			case h.is(i, "aclrtlaunch_"+k) && h.is(i+1, "("):
				arg = i + 2
			}
			if arg < 0 {
				continue
			}
			end := arg
			for depth := 0; end < len(h.toks) && (depth > 0 || !h.is(end, ",") && !h.is(end, ")") && !h.ends(end)); end++ {
				switch h.text(end) {
				case "(":
					depth++
				case ")":
					depth--
				}
			}
			c, ok := r.count(h, arg, end, 0)
			if !ok {
				return nil, false
			}
			out = append(out, c...)
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	// A handle looked up by name (`aclrtBinaryGetFunction(bin, "k", &f)`)
	// launches k with a count of its own.
	for _, p := range files {
		for _, f := range r.scope(p, `"`+k+`"`) {
			if h := r.file(f); h == nil || bytes.Contains(h.src, []byte(`"`+k+`"`)) {
				return nil, false
			}
		}
	}
	return out, true
}

var (
	hostNumber = regexp.MustCompile(`^(\d+)[uUlL]*$`)
	hostField  = regexp.MustCompile(`^[\w.>-]*(?:\.|->)(?:get_)?(\w+)(?:\(\))?$`)
)

// count returns what the count written in tokens [a, b) of h can be.
func (r *hostReader) count(h *hostSrc, a, b, depth int) ([]hostCount, bool) {
	if a >= b || depth > hostDepth {
		return nil, false
	}
	var sb strings.Builder
	for i := a; i < b; i++ {
		sb.WriteString(h.text(i))
	}
	text := uncastText(sb.String())
	at := hostCount{file: h.path, line: h.line(a)}
	if n, ok := blockNumber(text); ok {
		at.blocks = n
		return []hostCount{at}, n > 0
	}
	if hostMinCall.MatchString(text) {
		at.sized, at.min = true, true
		return []hostCount{at}, true
	}
	if m := hostField.FindStringSubmatch(text); m != nil {
		at.field = m[1]
		at.sized, at.min = h.fieldSized(m[1])
		return []hostCount{at}, true
	}
	if hostWord.FindString(text) != text {
		return nil, false
	}
	if fn := h.enclosing(a); fn != nil {
		for pi, p := range fn.params {
			if p == text {
				return r.callers(h, fn.name, pi, depth+1)
			}
		}
	}
	if d, ok := h.defs[text]; ok {
		n, ok := blockNumber(uncastText(strings.Trim(d, "()")))
		at.blocks = n
		return []hostCount{at}, ok && n > 0
	}
	// The values the file gives the name: `n = v;`, `T n = v;`, `T n{v};`.
	var out []hostCount
	for i := range h.toks {
		if !h.is(i, text) || h.is(i-1, ".") || h.is(i-1, ">") && h.is(i-2, "-") {
			continue
		}
		var from, to int
		switch {
		case strings.Contains("+-*/%|&^", h.text(i+1)) && h.is(i+2, "="), h.is(i+1, "+") && h.is(i+2, "+"),
			h.is(i+1, "-") && h.is(i+2, "-"), h.is(i-1, "+") && h.is(i-2, "+"), h.is(i-1, "-") && h.is(i-2, "-"),
			h.is(i-1, "&") && (h.is(i-2, "(") || h.is(i-2, ",")):
			// Changed in place or through its address: not one value.
			return nil, false
		case h.is(i+1, "=") && !h.is(i+2, "="):
			from, to = i+2, i+2
			for to < len(h.toks) && !h.is(to, ";") {
				to++
			}
		case h.is(i+1, "{") && h.word(i-1):
			from, to = i+2, h.close(i+1)
		default:
			continue
		}
		c, ok := r.count(h, from, to, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, c...)
	}
	return out, len(out) > 0
}

// blockNumber reads a count written as a number (`8`, `8U`).
func blockNumber(text string) (int64, bool) {
	m := hostNumber.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	return n, err == nil
}

// callers returns the counts the calls of function name pass as its
// parameter pi, in the files around h.
func (r *hostReader) callers(h *hostSrc, name string, pi, depth int) ([]hostCount, bool) {
	var out []hostCount
	for _, p := range r.scope(h.path, name) {
		c := r.file(p)
		if c == nil {
			return nil, false
		}
		for i := range c.toks {
			if !c.is(i, name) || !c.is(i+1, "(") || !c.isCall(i) {
				continue
			}
			args := c.args(i + 1)
			if pi >= len(args) {
				return nil, false
			}
			got, ok := r.count(c, args[pi][0], args[pi][1], depth)
			if !ok {
				return nil, false
			}
			out = append(out, got...)
		}
	}
	return out, len(out) > 0
}

// isCall reports whether name i followed by `(` is a call, not the
// definition or a declaration of the function (`void ns::f(uint32_t n)`:
// a type before it).
func (h *hostSrc) isCall(i int) bool {
	j := i - 1
	for h.is(j, "::") && h.word(j-1) {
		j -= 2
	}
	return !(h.word(j) && !h.is(j, "return") || h.is(j, "~") || h.is(h.close(i+1)+1, "{"))
}

// fieldSized reports whether every value the file stores in tiling field
// f (`t.f = v;`, `t->f = v;`, `t.set_f(v);`) is sized from the work
// (sizedCount), not the chip's core count alone, and whether one may be
// a min(…) (LaunchCount.Min).
func (h *hostSrc) fieldSized(f string) (sized, min bool) {
	n := 0
	for i := range h.toks {
		from, to := -1, -1
		switch {
		case h.is(i, f) && (h.is(i-1, ".") || h.is(i-1, ">") && h.is(i-2, "-")) && h.is(i+1, "=") && !h.is(i+2, "="):
			from, to = i+2, i+2
			for to < len(h.toks) && !h.is(to, ";") {
				to++
			}
		case h.is(i, "set_"+f) && h.is(i+1, "("):
			from, to = i+2, h.close(i+1)
		default:
			continue
		}
		var sb strings.Builder
		for k := from; k < to; k++ {
			sb.WriteString(h.text(k))
		}
		v := uncastText(sb.String())
		vals := append(assignedValues(string(h.src), v), v)
		n++
		if coreCount.MatchString(v) || hostWord.FindString(v) == v && !sizedCount(vals[:len(vals)-1]) {
			return false, false
		}
		for _, x := range vals {
			min = min || hostMinCall.MatchString(uncastText(x))
		}
	}
	return n > 0, min
}
