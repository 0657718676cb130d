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
	// CountArgs are the kernel's parameters (by index) every launch of
	// it passes its own block count (`k<<<n, …>>>(x, n)`: 1): on each
	// launched core the parameter is the block count. Read for one
	// kernel only (HostLaunchOf(entry, k)), whether or not the count
	// itself is followed.
	CountArgs []int
	// CeilArgs are the kernel's parameters (by index) every launch passes
	// the work it launches a block per share of (`k<<<(n + 255) / 256,
	// …>>>(x, n)`, also through a local: 1 -> 256), with the share.
	CeilArgs map[int]int64
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
		if kernel != "" && len(kernels) == 1 {
			out.CountArgs = r.countArgs(kernel)
			out.CeilArgs = r.ceilArgs(kernel)
		}
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
	if e, err := r.w.entry(Abs(p)); err == nil {
		if h = e.hostRead(p); h.path != p {
			// The same file named otherwise: its findings say p.
			c := *h
			c.path = p
			h = &c
		}
	}
	r.files[p] = h
	return h
}

// hostRead returns the entry's text read as a host file (read once per
// text: each kernel's launch question reads the same host files, and
// reading them again was a third of the launch questions' CPU on
// pto-isa). A hostSrc is not changed once made.
func (e *fileEntry) hostRead(p string) *hostSrc {
	e.c.mu.Lock()
	h := e.c.host
	e.c.mu.Unlock()
	if h != nil {
		return h
	}
	src := uncomment(e.src)
	h = &hostSrc{path: p, src: src, defs: map[string]string{}}
	lex(src, func(line []byte, start int) {
		if name, body := definition(line); name != nil {
			h.defs[string(name)] = strings.TrimSpace(string(body))
		}
	}, func(t span) { h.toks = append(h.toks, t) })
	h.fns = h.functions()
	e.c.mu.Lock()
	if e.c.host == nil {
		e.c.host = h
	}
	h = e.c.host
	e.c.mu.Unlock()
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

// closeAngle returns the `>` closing the template arguments opened at
// i, -1 when a statement ends first.
func (h *hostSrc) closeAngle(i int) int {
	depth := 0
	for j := i; j < len(h.toks) && j < i+64; j++ {
		switch h.text(j) {
		case "<":
			depth++
		case ">":
			if depth--; depth == 0 {
				return j
			}
		case ";", "{", "}":
			return -1
		}
	}
	return -1
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

// launchSite is one launch of a kernel in a host file: its count's
// tokens [count, end) and the kernel's arguments (token ranges; nil when
// the launch's argument list is not read).
type launchSite struct {
	h          *hostSrc
	count, end int
	args       [][2]int
}

// sites calls visit with every launch of kernel k in the host files
// naming it, false when a file naming k cannot be read.
func (r *hostReader) sites(k string, visit func(launchSite) bool) bool {
	acl := "aclrtlaunch_" + k
	for _, p := range r.w.launchList("\x00" + k) {
		h := r.file(p)
		if h == nil {
			return false
		}
		for i := range h.toks {
			s := launchSite{h: h, count: -1}
			switch {
			case h.is(i, k) && h.is(i+1, "<") && h.is(i+2, "<") && h.is(i+3, "<"):
				s.count = i + 4
			case h.is(i, k) && h.is(i+1, "<") && !h.is(i+2, "<"):
				// `k<T, 2><<<…>>>`: past the template's arguments.
				if j := h.closeAngle(i + 1); j > 0 && h.is(j+1, "<") && h.is(j+2, "<") && h.is(j+3, "<") {
					s.count = j + 4
				}
			case h.is(i, "ACLRT_LAUNCH_KERNEL") && h.is(i+2, k) && h.is(i+4, "("):
				s.count, s.args = i+5, tail(h.args(i+4), 2)
			case h.is(i, acl) && h.is(i+1, "("):
				s.count, s.args = i+2, tail(h.args(i+1), 2)
			}
			if s.count < 0 {
				continue
			}
			s.end = s.count
			for depth := 0; s.end < len(h.toks) && (depth > 0 || !h.is(s.end, ",") && !h.is(s.end, ")") && !h.ends(s.end)); s.end++ {
				switch h.text(s.end) {
				case "(":
					depth++
				case ")":
					depth--
				}
			}
			if s.args == nil {
				// `k<<<n, …>>>(args)`: the list after the configuration.
				j := s.end
				for j < len(h.toks) && !h.ends(j) {
					j++
				}
				if h.is(j+3, "(") {
					s.args = h.args(j + 3)
				}
			}
			if !visit(s) {
				return false
			}
		}
	}
	return true
}

// tail is args less its first n (the count and the stream of an ACL
// launch), nil when it has no more.
func tail(args [][2]int, n int) [][2]int {
	if len(args) <= n {
		return nil
	}
	return args[n:]
}

// launches returns the count of every launch of kernel k, ok false when
// one is not followed or a host names k in a string.
func (r *hostReader) launches(k string) ([]hostCount, bool) {
	var out []hostCount
	ok := r.sites(k, func(s launchSite) bool {
		c, ok := r.count(s.h, s.count, s.end, 0)
		out = append(out, c...)
		return ok
	})
	if !ok || len(out) == 0 || r.namedInString(k) {
		return nil, false
	}
	return out, true
}

// namedInString reports whether a host near k's launches names k in a
// string: a handle looked up by name (`aclrtBinaryGetFunction(bin, "k",
// &f)`) launches k with a count of its own.
func (r *hostReader) namedInString(k string) bool {
	for _, p := range r.w.launchList("\x00" + k) {
		for _, f := range r.scope(p, `"`+k+`"`) {
			if h := r.file(f); h == nil || bytes.Contains(h.src, []byte(`"`+k+`"`)) {
				return true
			}
		}
	}
	return false
}

// countArgs returns the indexes of k's arguments every launch of k passes
// its block count as, written the same (a name or a field, not a call
// that could differ between its two evaluations): `k<<<n, nullptr,
// s>>>(x, n)` gives [1].
func (r *hostReader) countArgs(k string) []int {
	var out []int
	first := true
	ok := r.sites(k, func(s launchSite) bool {
		var same []int
		for i, a := range s.args {
			if r.sameValue(s.h, [2]int{s.count, s.end}, a, 0) {
				same = append(same, i)
			}
		}
		if !first {
			same = slices.DeleteFunc(same, func(i int) bool { return !slices.Contains(out, i) })
		}
		out, first = same, false
		return len(out) > 0
	})
	if !ok || first || r.namedInString(k) {
		return nil
	}
	return out
}

// sameValue reports whether token ranges a and b of h hold one value:
// written the same (a name or a field, not a call that could differ
// between its two evaluations), or two parameters of a wrapper every
// call of which passes them one value (`void run(uint32_t blocks, …,
// uint32_t n) { k<<<blocks, …>>>(x, n); }` called as `run(c, …, c)`).
func (r *hostReader) sameValue(h *hostSrc, a, b [2]int, depth int) bool {
	ta, tb := h.joined(a[0], a[1]), h.joined(b[0], b[1])
	if hostWord.FindString(ta) != ta && !(hostField.MatchString(ta) && !strings.Contains(ta, "(")) {
		return false
	}
	if ta == tb {
		return true
	}
	fn := h.enclosing(a[0])
	pa, pb := -1, -1
	if fn != nil && depth < hostDepth {
		pa, pb = slices.Index(fn.params, ta), slices.Index(fn.params, tb)
	}
	if pa < 0 || pb < 0 {
		return false
	}
	calls := 0
	for _, p := range r.scope(h.path, fn.name) {
		c := r.file(p)
		if c == nil {
			return false
		}
		for i := range c.toks {
			if !c.is(i, fn.name) || !c.is(i+1, "(") || !c.isCall(i) {
				continue
			}
			args := c.args(i + 1)
			if max(pa, pb) >= len(args) || !r.sameValue(c, args[pa], args[pb], depth+1) {
				return false
			}
			calls++
		}
	}
	return calls > 0
}

// ceilArgs returns the indexes of k's arguments every launch passes the
// work its count rounds up shares of, a constant (a number or a
// #define of one), with that share: `b = (n + S - 1) / S;
// k<<<b, …>>>(x, n)` gives {1: S}. The count is read as written or
// through a local every assignment of which in the file is that quotient.
func (r *hostReader) ceilArgs(k string) map[int]int64 {
	var out map[int]int64
	ok := r.sites(k, func(s launchSite) bool {
		count := s.h.joined(s.count, s.end)
		vals := []string{count}
		if hostWord.FindString(count) == count {
			vals = assignedValues(string(s.h.src), count)
		}
		work, share := "", int64(0)
		for _, v := range vals {
			d := ceilDiv.FindStringSubmatch(uncastText(v))
			if d == nil || d[1] != "" && d[2] != d[3] {
				return false
			}
			t, p := d[1]+d[4], d[2]+d[5]
			n, isNum := blockNumber(p)
			if def, ok := s.h.defs[p]; ok && !isNum {
				n, isNum = blockNumber(uncastText(strings.Trim(def, "()")))
			}
			if !isNum || n <= 0 || work != "" && (t != work || n != share) {
				return false
			}
			work, share = t, n
		}
		same := map[int]int64{}
		for i, a := range s.args {
			if work != "" && s.h.joined(a[0], a[1]) == work && (out == nil || out[i] == share) {
				same[i] = share
			}
		}
		out = same
		return len(out) > 0
	})
	if !ok || len(out) == 0 || r.namedInString(k) {
		return nil
	}
	return out
}

// joined is the text of tokens [a, b) without blanks or integer casts.
func (h *hostSrc) joined(a, b int) string {
	var sb strings.Builder
	for i := a; i < b; i++ {
		sb.WriteString(h.text(i))
	}
	return uncastText(sb.String())
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
	text := h.joined(a, b)
	at := hostCount{file: h.path, line: h.line(a)}
	if n, ok := blockNumber(text); ok {
		at.blocks = n
		return []hostCount{at}, n > 0
	}
	if hostMinCall.MatchString(text) {
		at.sized, at.min = true, true
		return []hostCount{at}, true
	}
	if ceilDiv.MatchString(text) {
		// The work in shares rounded up: a block for each share.
		at.sized = true
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
		case h.changedInPlace(i):
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

// changedInPlace reports whether the name at token i is changed other
// than by a plain assignment: compound assignment (`n += …`), increment or
// decrement, or its address passed on (`f(&n)`), so it holds no one value.
func (h *hostSrc) changedInPlace(i int) bool {
	return strings.Contains("+-*/%|&^", h.text(i+1)) && h.is(i+2, "=") || h.is(i+1, "+") && h.is(i+2, "+") ||
		h.is(i+1, "-") && h.is(i+2, "-") || h.is(i-1, "+") && h.is(i-2, "+") || h.is(i-1, "-") && h.is(i-2, "-") ||
		h.is(i-1, "&") && (h.is(i-2, "(") || h.is(i-2, ","))
}
