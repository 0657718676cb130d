package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SplitShares returns the tiling fields of which the host gives every
// block it launches at least one unit, for the kernel entry of an
// operator that keeps its kernel in a `kernel` folder and its host tiling
// in the `tiling` folder beside it (`op/kernel/op.cpp`,
// `op/tiling/op_tiling.cpp`). Every SetBlockDim call of those tiling
// sources must launch 0, 1 (one block waits for nobody), or the count a
// split function computes, passed on by `return t.used;` (or a local
// holding it) of a function whose local t is that split function's
// result. A split function builds its tiling in a local t it returns;
// each store `t.used = v;` is 0 or 1, or is made in a block that first
// runs `for (i = 0; i < v; i++)` storing `t.share[i]` a value that is at
// least 1 on every pass (a positive constant, `(k + 1) * c` with k
// unsigned, `k * c` with `k = a / b` where the block is the `else` of
// `if (a <= b)`, or a local every pass sets to one of those), with no
// other plain store to t.share after the first such loop (`+=` only adds).
// Nil when the host reads otherwise: the per-core split is then not
// known.
func (w *Workspace) SplitShares(entry string) map[string]bool {
	entry = Abs(entry)
	w.mu.Lock()
	memo := memoOf(&w.splits)
	w.mu.Unlock()
	if got, ok := memo.get(entry); ok {
		return got
	}
	out := w.splitShares(entry)
	w.mu.Lock()
	if w.splits == memo {
		memo.put(entry, out, 0)
	}
	w.mu.Unlock()
	return out
}

func (w *Workspace) splitShares(entry string) map[string]bool {
	dir := filepath.Dir(entry)
	if filepath.Base(dir) != "kernel" {
		return nil
	}
	tiling := filepath.Join(filepath.Dir(dir), "tiling")
	ents, err := os.ReadDir(tiling)
	if err != nil {
		return nil
	}
	r := &hostReader{w: w, files: map[string]*hostSrc{}}
	var out map[string]bool
	launches := 0
	for _, e := range ents {
		p := filepath.Join(tiling, e.Name())
		if !e.Type().IsRegular() || !(strings.HasSuffix(p, ".cpp") || strings.HasSuffix(p, ".cc") || strings.HasSuffix(p, ".h")) {
			continue
		}
		h := r.file(p)
		if h == nil {
			return nil
		}
		for i := range h.toks {
			if !h.is(i, "SetBlockDim") || !h.is(i+1, "(") {
				continue
			}
			launches++
			shares, ok := r.launchedShares(h, i+1)
			if !ok {
				return nil
			}
			out = meetShares(out, shares)
		}
	}
	if launches == 0 || len(out) == 0 {
		return nil
	}
	return out
}

// launchedShares reads the count a SetBlockDim call (its `(` at open)
// launches: the share fields every launched block gets a unit of, nil
// with ok for a launch of at most one block.
func (r *hostReader) launchedShares(h *hostSrc, open int) (map[string]bool, bool) {
	args := h.args(open)
	if len(args) != 1 {
		return nil, false
	}
	count := h.joined(args[0][0], args[0][1])
	if count == "0" || count == "1" {
		return nil, true
	}
	fn := h.enclosing(open)
	if fn == nil || hostWord.FindString(count) != count {
		return nil, false
	}
	vals, ok := h.localValues(fn, count, fn.close)
	if !ok {
		return nil, false
	}
	var out map[string]bool
	for _, v := range vals {
		if t := h.joined(v[0], v[1]); t == "0" || t == "1" {
			continue
		}
		callee := h.text(v[0])
		if !h.word(v[0]) || !h.is(v[0]+1, "(") || h.close(v[0]+1) != v[1]-1 {
			return nil, false
		}
		shares := r.countShares(callee, h.path, 0)
		if shares == nil {
			return nil, false
		}
		out = meetShares(out, shares)
	}
	return out, true
}

// localValues returns the token ranges of the values function fn assigns
// local name before token end (`T name = v;`, `name = v;`), ok false
// when it changes it otherwise (`name += …`, `name++`, `&name`).
func (h *hostSrc) localValues(fn *hostFn, name string, end int) ([][2]int, bool) {
	var out [][2]int
	for i := fn.open + 1; i < end && i < fn.close; i++ {
		if !h.is(i, name) || h.is(i-1, ".") || h.is(i-1, ">") && h.is(i-2, "-") || h.is(i-1, "::") {
			continue
		}
		switch {
		case h.changedInPlace(i):
			return nil, false
		case h.is(i+1, "=") && !h.is(i+2, "="):
			to := i + 2
			for to < fn.close && !h.is(to, ";") {
				to++
			}
			out = append(out, [2]int{i + 2, to})
		}
	}
	return out, len(out) > 0
}

// defOf finds the one definition of function name in the files of the
// folders up to three levels above p that name it.
func (r *hostReader) defOf(name, p string) (*hostSrc, *hostFn) {
	dir := filepath.Dir(p)
	for i := 0; i < 3 && filepath.Dir(dir) != dir; i++ {
		dir = filepath.Dir(dir)
	}
	dir += string(filepath.Separator)
	var hs *hostSrc
	var def *hostFn
	for _, f := range r.w.launchList(knownFiles) {
		if !strings.HasPrefix(f, dir) {
			continue
		}
		src, err := r.w.Source(f)
		if err != nil || !strings.Contains(string(src), name+"(") {
			continue
		}
		h := r.file(f)
		if h == nil {
			continue
		}
		for k := range h.fns {
			if h.fns[k].name != name {
				continue
			}
			if def != nil {
				return nil, nil // overloads or copies: not one function
			}
			hs, def = h, &h.fns[k]
		}
	}
	return hs, def
}

// countShares reads function name (called from file p) as one returning a
// launch count: `return t.used;` or `return n;` with `n = t.used;`, t a
// local holding a split function's result; it returns the share fields
// of that split (splitShares).
func (r *hostReader) countShares(name, p string, depth int) map[string]bool {
	if depth > 1 {
		return nil
	}
	h, fn := r.defOf(name, p)
	if fn == nil {
		return nil
	}
	var out map[string]bool
	returns := 0
	for i := fn.open + 1; i < fn.close; i++ {
		if !h.is(i, "return") {
			continue
		}
		returns++
		end := i + 1
		for end < fn.close && !h.is(end, ";") {
			end++
		}
		ret := h.joined(i+1, end)
		obj, field, ok := strings.Cut(ret, ".")
		if !ok && hostWord.FindString(ret) == ret {
			// `return n;` with one value `n = t.used;`.
			vals, ok := h.localValues(fn, ret, i)
			if !ok || len(vals) != 1 {
				return nil
			}
			obj, field, ok = strings.Cut(h.joined(vals[0][0], vals[0][1]), ".")
			if !ok {
				return nil
			}
		}
		if hostWord.FindString(obj) != obj || hostWord.FindString(field) != field {
			return nil
		}
		vals, ok := h.localValues(fn, obj, i)
		if !ok || len(vals) != 1 || !h.word(vals[0][0]) || !h.is(vals[0][0]+1, "(") || h.close(vals[0][0]+1) != vals[0][1]-1 {
			return nil
		}
		shares := r.splitShares(h.text(vals[0][0]), p, field)
		if shares == nil {
			return nil
		}
		out = meetShares(out, shares)
	}
	if returns == 0 || len(out) == 0 {
		return nil
	}
	return out
}

// splitShares reads function name as a split of the work over the blocks
// it counts in field used of the local it returns (see SplitShares): the
// fields every one of those blocks gets at least one unit of.
func (r *hostReader) splitShares(name, p, used string) map[string]bool {
	h, fn := r.defOf(name, p)
	if fn == nil {
		return nil
	}
	t := ""
	for i := fn.open + 1; i < fn.close; i++ {
		if h.is(i, "return") {
			if !h.word(i+1) || !h.is(i+2, ";") || t != "" && t != h.text(i+1) {
				return nil
			}
			t = h.text(i + 1)
		}
	}
	if t == "" {
		return nil
	}
	// Every store of the count: 0, 1, or v after a covering loop.
	var out map[string]bool
	firstLoop := fn.close
	var loops [][2]int
	for i := fn.open + 1; i < fn.close; i++ {
		if !h.is(i, t) || !h.is(i+1, ".") || !h.is(i+2, used) || h.is(i-1, ".") {
			continue
		}
		if !h.is(i+3, "=") || h.is(i+4, "=") {
			return nil // changed otherwise
		}
		end := i + 4
		for end < fn.close && !h.is(end, ";") {
			end++
		}
		v := h.joined(i+4, end)
		if v == "0" || v == "1" {
			continue
		}
		shares, loop := h.coveringLoop(fn, t, i, v)
		if shares == nil {
			return nil
		}
		loops = append(loops, loop)
		firstLoop = min(firstLoop, loop[0])
		out = meetShares(out, shares)
	}
	// A plain store to a share after the first covering loop, outside
	// the loops, could set a launched block's share to 0.
	for f := range out {
		for i := firstLoop; i < fn.close; i++ {
			if !h.is(i, t) || !h.is(i+1, ".") || !h.is(i+2, f) || !h.is(i+3, "[") {
				continue
			}
			j := h.close(i + 3)
			inLoop := slices.ContainsFunc(loops, func(l [2]int) bool { return l[0] < i && i < l[1] })
			if !inLoop && !(h.is(j+1, "+") && h.is(j+2, "=")) && (h.is(j+1, "=") && !h.is(j+2, "=") || !h.is(j+1, "=") && !h.is(j+1, ";") && strings.Contains("+-*/%|&^<>", h.text(j+1))) {
				delete(out, f)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// coveringLoop finds, in the block holding the store of count v at token
// at, a loop before it over every block below v (`for (T i = 0; i < v;
// i++)`) that stores a positive value in a share of t each pass; it
// returns those shares and the loop's tokens [for, body close].
func (h *hostSrc) coveringLoop(fn *hostFn, t string, at int, v string) (map[string]bool, [2]int) {
	open := h.blockOf(fn, at)
	if open < 0 || hostWord.FindString(v) != v {
		return nil, [2]int{}
	}
	for i := open + 1; i < at; i++ {
		if !h.is(i, "for") || !h.is(i+1, "(") || h.blockOf(fn, i) != open {
			continue
		}
		hdr := h.close(i + 1)
		if !h.is(hdr+1, "{") {
			continue
		}
		body := h.close(hdr + 1)
		// `for (T i = 0; i < v; i++)` or `++i`.
		s1 := i + 2
		for s1 < hdr && !h.is(s1, ";") {
			s1++
		}
		if s1+5 >= hdr || !h.is(s1-1, "0") || !h.is(s1-2, "=") || !h.word(s1-3) || !h.is(s1+2, "<") || !h.is(s1+4, ";") {
			continue
		}
		iv := h.text(s1 - 3)
		if !h.is(s1+1, iv) || !h.is(s1+3, v) || hdr-(s1+5) != 3 ||
			!(h.is(s1+5, iv) && h.is(s1+6, "+") && h.is(s1+7, "+")) && !(h.is(s1+5, "+") && h.is(s1+6, "+") && h.is(s1+7, iv)) {
			continue
		}
		if h.changes(iv, hdr+1, body) || h.changes(v, i, at) || h.jumps(hdr+1, body) {
			continue
		}
		shares := map[string]bool{}
		for j := hdr + 2; j < body; j++ {
			if !h.is(j, t) || !h.is(j+1, ".") || !h.word(j+2) || !h.is(j+3, "[") || !h.is(j+4, iv) || !h.is(j+5, "]") || !h.is(j+6, "=") || h.is(j+7, "=") {
				continue
			}
			if h.blockOf(fn, j) != hdr+1 {
				continue // a store a branch may skip
			}
			end := j + 7
			for end < body && !h.is(end, ";") {
				end++
			}
			if h.positive(fn, j+7, end, hdr+1, j, open, 0) {
				shares[h.text(j+2)] = true
			}
		}
		if len(shares) > 0 {
			return shares, [2]int{i, body}
		}
	}
	return nil, [2]int{}
}

// blockOf returns the `{` of the innermost block of fn holding token i.
func (h *hostSrc) blockOf(fn *hostFn, i int) int {
	best := -1
	for j := fn.open; j < i; j++ {
		if h.is(j, "{") && h.close(j) > i {
			best = j
		}
	}
	return best
}

// changes reports whether tokens [a, b) assign or step name.
func (h *hostSrc) changes(name string, a, b int) bool {
	for i := a; i < b; i++ {
		if !h.is(i, name) || h.is(i-1, ".") {
			continue
		}
		if h.is(i+1, "=") && !h.is(i+2, "=") || strings.Contains("+-*/%|&^", h.text(i+1)) && h.is(i+2, "=") ||
			h.is(i+1, "+") && h.is(i+2, "+") || h.is(i+1, "-") && h.is(i+2, "-") ||
			h.is(i-1, "+") && h.is(i-2, "+") || h.is(i-1, "-") && h.is(i-2, "-") || h.is(i-1, "&") {
			return true
		}
	}
	return false
}

// jumps reports whether tokens [a, b) leave a loop pass early.
func (h *hostSrc) jumps(a, b int) bool {
	for i := a; i < b; i++ {
		if h.is(i, "break") || h.is(i, "continue") || h.is(i, "return") || h.is(i, "goto") {
			return true
		}
	}
	return false
}

// positive reports whether the value in tokens [a, b) is at least 1,
// stored at token at in the loop body opening at body, the loop in the
// block opening at block.
func (h *hostSrc) positive(fn *hostFn, a, b, body, at, block, depth int) bool {
	if a >= b || depth > 4 {
		return false
	}
	text := h.joined(a, b)
	if n, ok := h.constant(text, 0); ok {
		return n >= 1
	}
	if h.is(a, "(") && h.close(a) == b-1 {
		return h.positive(fn, a+1, b-1, body, at, block, depth+1)
	}
	// A product of positive factors.
	for i, d := a, 0; i < b; i++ {
		switch h.text(i) {
		case "(":
			d++
		case ")":
			d--
		case "*":
			if d == 0 {
				return h.positive(fn, a, i, body, at, block, depth+1) && h.positive(fn, i+1, b, body, at, block, depth+1)
			}
		}
	}
	// `k + c` with k unsigned and c >= 1.
	if b-a == 3 && h.is(a+1, "+") && h.word(a) {
		if n, ok := h.constant(h.text(a+2), 0); ok && n >= 1 && h.unsigned(fn, h.text(a)) {
			return true
		}
	}
	if b-a != 1 || !h.word(a) {
		return false
	}
	name := h.text(a)
	// A local every pass of the loop sets, before the store, to a
	// positive value: one store in the body's block, or one in each
	// branch of an if/else there.
	if vals, ok := h.localValues(fn, name, at); ok {
		var inBody [][2]int
		for _, v := range vals {
			if v[0] > body && v[0] < at {
				inBody = append(inBody, v)
			}
		}
		if len(inBody) > 0 && h.setEveryPass(fn, inBody, body) {
			for _, v := range inBody {
				if !h.positive(fn, v[0], v[1], body, v[0], block, depth+1) {
					return false
				}
			}
			return true
		}
		// `k = a / b;` in the loop's block, that block the `else` of
		// `if (a <= b)`: a > b, so a / b >= 1.
		if len(vals) == 1 && h.blockOf(fn, vals[0][0]) == block && vals[0][1]-vals[0][0] == 3 && h.is(vals[0][0]+1, "/") {
			num, den := h.text(vals[0][0]), h.text(vals[0][0]+2)
			if h.unsigned(fn, num) && h.unsigned(fn, den) && !h.changes(num, block, vals[0][0]) && !h.changes(den, block, vals[0][0]) &&
				h.is(block-1, "else") && h.is(block-2, "}") {
				then := h.openOf(block - 2)
				if h.is(then-1, ")") {
					cond := h.joined(h.openOf(then-1)+1, then-1)
					return cond == num+"<="+den || cond == den+">="+num
				}
			}
		}
	}
	return false
}

// setEveryPass reports whether the stores vals (token ranges of values)
// of one local cover every pass of the loop body opening at body: one in
// the body's own block, or one in each branch of an if/else there.
func (h *hostSrc) setEveryPass(fn *hostFn, vals [][2]int, body int) bool {
	blocks := map[int]bool{}
	for _, v := range vals {
		b := h.blockOf(fn, v[0])
		if b == body {
			return true
		}
		blocks[b] = true
	}
	for b := range blocks {
		end := h.close(b)
		if !h.is(end+1, "else") || !h.is(end+2, "{") || !blocks[end+2] || !h.is(b-1, ")") {
			continue
		}
		cond := h.openOf(b - 1)
		if h.is(cond-1, "if") && h.blockOf(fn, cond-1) == body {
			return true
		}
	}
	return false
}

// openOf returns the bracket opening the one that closes at i.
func (h *hostSrc) openOf(i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch h.text(j) {
		case ")", "}", "]":
			depth++
		case "(", "{", "[":
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// unsigned reports whether fn declares local name with an unsigned type.
func (h *hostSrc) unsigned(fn *hostFn, name string) bool {
	// The parameters first: a definition's list is before its body.
	from := fn.open
	for from > 0 && !h.is(from, ")") {
		from--
	}
	for i := max(h.openOf(from), 0); i < fn.close; i++ {
		if h.is(i, name) && h.word(i-1) && (h.is(i+1, ";") || h.is(i+1, "=") || h.is(i+1, ",") || h.is(i+1, ")")) {
			t := h.text(i - 1)
			return strings.HasPrefix(t, "uint") || t == "size_t" || h.is(i-2, "unsigned")
		}
	}
	return false
}

// constant evaluates text as a number, a #define or constexpr of the file
// naming one, or a product or quotient of those.
func (h *hostSrc) constant(text string, depth int) (int64, bool) {
	if n, ok := blockNumber(text); ok {
		return n, true
	}
	if depth > 4 {
		return 0, false
	}
	if strings.ContainsAny(text, "()+-") {
		return 0, false
	}
	// Left to right: the last operator applies last.
	if k := strings.LastIndexAny(text, "*/"); k > 0 {
		a, okA := h.constant(text[:k], depth+1)
		b, okB := h.constant(text[k+1:], depth+1)
		if !okA || !okB || text[k] == '/' && b == 0 {
			return 0, false
		}
		if text[k] == '*' {
			return a * b, true
		}
		return a / b, true
	}
	if hostWord.FindString(text) != text {
		return 0, false
	}
	if d, ok := h.defs[text]; ok {
		return h.constant(strings.ReplaceAll(d, " ", ""), depth+1)
	}
	// `constexpr T name = v;` at file scope.
	for i := range h.toks {
		if h.is(i, text) && h.is(i+1, "=") && h.word(i-1) && (h.is(i-2, "constexpr") || h.is(i-3, "constexpr")) {
			end := i + 2
			for end < len(h.toks) && !h.is(end, ";") {
				end++
			}
			return h.constant(h.joined(i+2, end), depth+1)
		}
	}
	return 0, false
}

// meetShares narrows out to the fields shares also holds: a nil out is
// not narrowed yet (shares is the first answer), a nil shares narrows
// nothing.
func meetShares(out, shares map[string]bool) map[string]bool {
	if out == nil {
		return shares
	}
	for f := range out {
		if shares != nil && !shares[f] {
			delete(out, f)
		}
	}
	return out
}
