package grammar

import (
	"bytes"
	"context"
	"errors"
	"math"
	"runtime"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// A C++ source longer than chunkAfter is parsed in pieces of about
// chunkBytes. tree-sitter's tree costs about 100 bytes per node while it
// lives, 40-50 bytes per byte of source: more than everything else the
// analysis keeps (a 10 MB file: over 400 MB). Parsed in top-level pieces
// (and a huge statement in runs, see huge), only one piece's C tree is
// alive at a time (32 KB: about 1.5 MB; smaller trees parse no slower,
// 64 KB ones left 1.2 MB more of C heap at the parse's peak). Shorter
// sources keep their C tree for incremental reparsing, unless the parser
// never reparses (NewBatchParser): then the pieces start from
// batchChunkAfter (a whole 480 KB source's C tree held 20 MB at check's
// peak, 40 times the text; from 64 KB, check of a real tree of many
// 100-500 KB files spent 2-3% more CPU than from 128 KB, for no less
// peak). Variables for the tests.
var (
	chunkAfter      = 512 << 10
	batchChunkAfter = 128 << 10
	chunkBytes      = 32 << 10
)

// walkCode calls fn with each byte of src outside comments, preprocessor
// directives and quoted literals (a literal is one call, at its opening
// quote), white space included, with the depth of the brackets around it
// and of the #if blocks; fn returns false to stop.
func walkCode(src []byte, fn func(i int, c byte, depth, cond int) bool) {
	depth, cond := 0, 0
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i, _ = CommentEnd(src, i)
			continue
		case c == '#' && lineStart:
			j := DirectiveEnd(src, i)
			d := bytes.TrimLeft(src[i+1:min(j, len(src))], " \t")
			switch {
			case bytes.HasPrefix(d, []byte("if")):
				cond++
			case bytes.HasPrefix(d, []byte("endif")):
				cond--
			}
			i = j
			continue
		}
		if !fn(i, c, depth, cond) {
			return
		}
		switch c {
		case '\n':
			lineStart = true
			i++
			continue
		case ' ', '\t', '\r', '\f', '\v':
			i++
			continue
		case '"', '\'':
			if end, ok := rawEnd(src, i); ok {
				i = end
			} else {
				i = QuotedEnd(src, i)
			}
		case '{', '(', '[':
			depth++
			i++
		case '}', ')', ']':
			depth--
			i++
		default:
			i++
		}
		lineStart = false
	}
}

// rawEnd returns the end of the raw string literal (R"delim(...)delim",
// its prefix L, u, U or u8 too) whose quote is at i: its lines hold braces
// and semicolons that are no code; false when the quote opens none.
func rawEnd(src []byte, i int) (int, bool) {
	if src[i] != '"' || i == 0 || src[i-1] != 'R' {
		return 0, false
	}
	k := i - 1
	switch {
	case k > 0 && (src[k-1] == 'L' || src[k-1] == 'u' || src[k-1] == 'U'):
		k--
	case k > 1 && src[k-1] == '8' && src[k-2] == 'u':
		k -= 2
	}
	if k > 0 && (src[k-1] == '_' || src[k-1] >= 'a' && src[k-1] <= 'z' || src[k-1] >= 'A' && src[k-1] <= 'Z' || src[k-1] >= '0' && src[k-1] <= '9') {
		return 0, false
	}
	open := -1
	for j := i + 1; j < len(src) && j <= i+17; j++ {
		if c := src[j]; c == '(' {
			open = j
			break
		} else if c == ')' || c == '\\' || c == '"' || isSpace(c) {
			return 0, false
		}
	}
	if open < 0 {
		return 0, false
	}
	closing := append(append([]byte{')'}, src[i+1:open]...), '"')
	if end := bytes.Index(src[open+1:], closing); end >= 0 {
		return open + 1 + end + len(closing), true
	}
	return len(src), true
}

// isSpace reports whether c is C white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// topLevelSplits returns the line starts where a C++ source can be cut into
// pieces of at least every bytes that parse as the whole does: after a line
// ending a top-level declaration (`;` or `}` outside every brace, bracket,
// parenthesis and #if). A source wrapped in one namespace has none. In a
// line longer than every (minified code) the cuts are inside it, after a
// top-level `;` before an identifier, or a `}` before a declaration (see
// midLine).
func topLevelSplits(src []byte, every int) []int {
	var out []int
	var last byte
	next, line := every, 0
	walkCode(src, func(i int, c byte, depth, cond int) bool {
		switch {
		case c == '\n':
			line = i + 1
			if i+1 >= next && depth == 0 && cond == 0 && (last == ';' || last == '}') && len(src)-i-1 >= every/2 {
				out = append(out, i+1)
				next = i + 1 + every
			}
		case !isSpace(c):
			last = c
			// A `}` is seen at the depth of the block it closes.
			if (c == ';' && depth == 0 || c == '}' && depth == 1) && cond == 0 && i+1 >= next && i+1-line >= every && len(src)-i-1 >= every/2 {
				if w, ok := nextToken(src, i+1); ok && w != "" && w != "else" && w != "while" && w != "catch" && (c == ';' || startsDecl(src, i+1)) {
					out = append(out, i+1)
					next = i + 1 + every
				}
			}
		}
		return true
	})
	return out
}

// midLine reports whether a cut of topLevelSplits is inside a line: a
// declaration there may go on past its `}` (`struct S {...} s;`), so the
// pieces are only taken when each parses cleanly.
func midLine(src []byte, cut int) bool { return cut > 0 && src[cut-1] != '\n' }

// A huge statement (a loop whose body is most of a function, an else-if
// chain of thousands of links) cannot be cut between top-level pieces nor
// between the statements of the function's body: it is parsed in runs of
// its own. A huge is what a span (a top-level piece, or a run) parses in
// runs: the statements of a brace block at any depth after its first cut,
// or the links of an else-if chain (`} else if (...) {`) after its first
// cut. The span is parsed with [cuts[0], end) left out (tree-sitter's
// included ranges keep every offset), then each run [cuts[k], cuts[k+1])
// (the last one up to end) in a small wrapper (see wrappers), and the
// run's nodes are inserted after the block's statements or the chain's
// last link.
type huge struct {
	chain bool
	// start is the block's `{`, or where the chain's statement starts;
	// end is the block's `}`, or where the chain ends.
	start, end int
	level      int // the depth of the block's statements or of the chain
	cuts       []int
}

// spanKind is what a span of the source holds, so how it is parsed.
type spanKind uint8

const (
	spanTop   spanKind = iota // a top-level piece, parsed as it is
	spanStmts                 // statements of a compound statement
	spanDecls                 // declarations of a declaration list
	spanLinks                 // links of an else-if chain, from an `else`
)

// wrappers are the text around a run for its parse: a statement parses
// the same in any compound statement, a declaration in any declaration
// list, and the links of a chain after any if's consequence (tree-sitter's
// tree of a statement does not depend on the statements around it). The
// newline ends a directive or comment the run would end with. The node
// whose children are taken (see flattenRun) starts after a space: no
// node before it ends where it starts.
var wrappers = [...][2]string{
	spanStmts: {"void f() {", "\n}"},
	spanDecls: {"namespace n {", "\n}"},
	spanLinks: {"void f() { if(0){}", "\n}"},
}

// scanFrame is what hugeIn tracks of one bracket level.
type scanFrame struct {
	brace   bool // a brace block (or a span of statements): its statements are tracked
	cases   bool // a switch's body (see stmtEnds)
	open    int  // the bracket
	lastB   int  // where the last statement that can be cut after ended
	maxStmt int  // the longest stretch between such statements
	// An else-if chain open at this level: where its statement started,
	// where its last link that can be cut after ended, its longest link.
	chain                 bool
	cStart, lastL, maxLen int
}

// stmtEnds reports whether a statement that can be cut after ends at
// src[i], a `;` at the level of a brace block or a `}` closing a block in
// it: outside every #if, before an identifier other than `else`, `while`
// and `catch` (or, after a `;`, other code), a `}` ending its line (not a
// struct before its declarator). w and ok are nextWord after i. In a
// switch's body (cases), only before a case: a case statement holds the
// statements up to the next.
func stmtEnds(src []byte, i int, w []byte, ok bool, cond int, cases bool) bool {
	if cond != 0 || !ok {
		return false
	}
	switch string(w) {
	case "else", "while", "catch":
		return false
	case "case", "default":
	default:
		if cases {
			return false
		}
	}
	return src[i] == ';' || len(w) > 0 && endsLine(src, i+1)
}

// isCases reports whether a block's statements from i on are a switch's
// body: they start with a case.
func isCases(src []byte, i int) bool {
	w, _ := nextWord(src, i)
	return string(w) == "case" || string(w) == "default"
}

// hugeIn finds the huge statement of src, a span of the kind, that leaves
// out the most when cut every bytes: the brace block or the else-if chain
// (at any depth; no chain unless chains) whose length less its longest
// statement or link (what no cut splits) is largest, and leaves every/2
// bytes past its head (see hugeHead) to cut. nil when there is none, or no
// cut in it.
func hugeIn(src []byte, kind spanKind, every int, chains bool) *huge {
	// Level 0 is the span's own: a run's statements are a block's.
	frames := []scanFrame{{brace: kind == spanStmts || kind == spanDecls, open: -1, cases: isCases(src, 0)}}
	var best huge
	bestLen := 0
	candidate := func(h huge, n int) {
		if n > bestLen && n-hugeHead(len(src), h, every) > every/2 {
			best, bestLen = h, n
		}
	}
	// boundary sees src[i], a `;` or a `}`, at the level of frame f.
	boundary := func(f *scanFrame, level, i, cond int) {
		w, ok := nextWord(src, i+1)
		if ok && string(w) == "else" {
			if !f.chain {
				f.chain, f.cStart, f.lastL, f.maxLen = true, f.lastB, f.lastB, 0
			}
			if src[i] == '}' && cond == 0 {
				f.maxLen = max(f.maxLen, i+1-f.lastL)
				f.lastL = i + 1
			}
			return
		}
		if f.chain {
			f.chain = false
			if chains {
				candidate(huge{chain: true, start: f.cStart, end: i + 1, level: level}, i+1-f.cStart-max(f.maxLen, i+1-f.lastL))
			}
		}
		if stmtEnds(src, i, w, ok, cond, f.cases) {
			f.maxStmt = max(f.maxStmt, i+1-f.lastB)
			f.lastB = i + 1
		}
	}
	walkCode(src, func(i int, c byte, depth, cond int) bool {
		if depth < 0 {
			return true
		}
		switch c {
		case '{', '(', '[':
			for len(frames) <= depth+1 {
				frames = append(frames, scanFrame{})
			}
			frames[depth+1] = scanFrame{brace: c == '{', open: i, lastB: i + 1, cases: c == '{' && isCases(src, i+1)}
		case ';':
			if depth < len(frames) && frames[depth].brace {
				boundary(&frames[depth], depth, i, cond)
			}
		case '}':
			if depth < 1 || depth >= len(frames) {
				return true
			}
			if f := &frames[depth]; f.brace {
				candidate(huge{start: f.open, end: i, level: depth}, i-f.open-max(f.maxStmt, i-f.lastB))
			}
			if f := &frames[depth-1]; f.brace {
				boundary(f, depth-1, i, cond)
			}
		}
		return true
	})
	if best.end == 0 {
		return nil
	}
	// The cuts: the first past the huge's head, then step bytes apart,
	// none in the last step/2: the runs are of one length, at most about
	// every bytes (a huge of 1.3*every is two runs of 0.65*every, not one
	// of 1.3*every).
	h := &best
	next := h.start + hugeHead(len(src), *h, every)
	k := (h.end - next + every - 1) / every
	step := (h.end - next + k - 1) / k
	cases := !h.chain && isCases(src, h.start+1)
	walkCode(src[:h.end], func(i int, c byte, depth, cond int) bool {
		if i < next || h.end-i < step/2 {
			return true
		}
		if h.chain && c == '}' && depth == h.level+1 && cond == 0 {
			if w, ok := nextWord(src, i+1); ok && string(w) == "else" {
				h.cuts = append(h.cuts, i+1)
				next = i + 1 + step
			}
		}
		if !h.chain && (c == ';' && depth == h.level || c == '}' && depth == h.level+1) {
			if w, ok := nextWord(src, i+1); stmtEnds(src, i, w, ok, cond, cases) {
				h.cuts = append(h.cuts, i+1)
				next = i + 1 + step
			}
		}
		return true
	})
	if len(h.cuts) == 0 {
		return nil
	}
	return h
}

// hugeHead is how far into the huge statement h of a span of n bytes its
// first cut may be: what the span's own parse holds of it, so that parse
// holds about every bytes, like a run (the code around h is all it holds
// when that is every bytes or more; a piece ending in a large function
// after other declarations, e.g., is cut early in the function).
func hugeHead(n int, h huge, every int) int {
	return max(every-(n-(h.end-h.start)), 0)
}

// startsDecl reports whether the code at i starts with two identifiers
// (`__aicore__ inline`, `void f`, `struct S`): a declaration, not the
// declarator of a struct just closed (`} s;`).
func startsDecl(src []byte, i int) bool {
	w, _ := nextToken(src, i)
	j := bytes.Index(src[i:], []byte(w))
	if w == "" || j < 0 {
		return false
	}
	w2, _ := nextToken(src, i+j+len(w))
	return w2 != ""
}

// nextToken is the identifier that starts the code at i, after white space
// and comments ("" for other code); false at the end of src or before a
// directive.
func nextToken(src []byte, i int) (string, bool) {
	w, ok := nextWord(src, i)
	return string(w), ok
}

// nextWord is nextToken's identifier as a slice of src.
func nextWord(src []byte, i int) ([]byte, bool) {
	for i < len(src) {
		if end, ok := CommentEnd(src, i); ok {
			i = end
		} else if isSpace(src[i]) {
			i++
		} else {
			break
		}
	}
	if i >= len(src) || src[i] == '#' {
		return nil, false
	}
	n := i
	for n < len(src) && (src[n] == '_' || src[n] >= 'a' && src[n] <= 'z' || src[n] >= 'A' && src[n] <= 'Z' || n > i && src[n] >= '0' && src[n] <= '9') {
		n++
	}
	return src[i:n], true
}

// endsLine reports whether only white space and comments follow i on its
// line.
func endsLine(src []byte, i int) bool {
	for i < len(src) && src[i] != '\n' {
		if end, ok := CommentEnd(src, i); ok && src[i+1] == '*' {
			i = end
		} else if ok {
			return true
		} else if !isSpace(src[i]) {
			return false
		} else {
			i++
		}
	}
	return true
}

var errChunks = errors.New("pieces do not parse as a translation unit")

// parseChunks parses src in the pieces between cuts and joins them under
// one root, as if parsed whole; a piece whose root is not the language's
// top-level node fails (the caller parses whole). A piece that holds a
// huge statement (a function's body, a loop's, an else-if chain) parses
// it in runs, see huge; without cuts, h is the source's if not nil.
func (p *Parser) parseChunks(ctx context.Context, parseSrc, orig []byte, lines *Lines, cuts []int, h *huge) (*Tree, error) {
	// Every piece is parsed on one thread: glibc's malloc gives each
	// thread its own arena, and a goroutine moved to another thread
	// between pieces had its trees grow a new arena beside the freed
	// one, both resident (1 MB files: 3 -> 12 MB of C heap).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t := &Tree{Src: orig, names: p.lang.info().names, lines: lines}
	bounds := append(append([]int{0}, cuts...), len(parseSrc))
	c := &chunker{p: p, t: t, src: parseSrc}
	defer c.nodes.free()
	c.strict = slices.ContainsFunc(cuts, func(cut int) bool { return midLine(parseSrc, cut) })
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		ph := h
		if len(cuts) > 0 {
			ph = nil
			if b-a > 2*chunkBytes {
				ph = hugeIn(parseSrc[a:b], spanTop, chunkBytes, true)
			}
		}
		ok, err := c.parseSpanOr(ctx, a, b, spanTop, 0, ph)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errChunks
		}
	}
	trimCHeap()
	nodes := c.nodes.finish(t)
	nodes[0].setLast(int32(len(nodes) - 1))
	t.Nodes = nodes
	return t, nil
}

// chunker gathers the nodes of a source parsed in pieces.
type chunker struct {
	p     *Parser
	t     *Tree
	src   []byte
	nodes nodeStore
	// strict: a piece must parse cleanly (a cut inside a line).
	strict bool
	runs   int    // runs parsed, but those given up (for the tests)
	trims  int    // C heap trims after a tree (for the tests)
	buf    []byte // a run in its wrapper
}

// add appends the nodes of the tree of the top-level piece [a, b) of src:
// the whole tree for the first piece, the root's children for the others.
func (c *chunker) add(ts *sitter.Tree, a, b int) error {
	root := ts.RootNode()
	first := c.nodes.n == 0
	if !first && uint16(root.Symbol()) != c.nodes.at(0).kind() {
		return errChunks
	}
	room, err := c.nodes.room(nodeCount(ts)) // an upper bound: flatten drops punctuation
	if err != nil {
		return err
	}
	c.nodes.commit(flattenInto(ts, c.t, room, uint32(a), c.nodes.n, !first))
	if b == len(c.src) {
		c.nodes.at(0).End = root.EndByte() + uint32(a)
	}
	return nil
}

// parseSpanOr parses the span [x, y) with its huge statement h in runs
// (see parseSpan) or, when they do not parse as the whole would, with the
// huge block that is no chain (a chain tree-sitter does not see as one: a
// directive between links, an else of an if inside a link), or whole.
func (c *chunker) parseSpanOr(ctx context.Context, x, y int, kind spanKind, parent int, h *huge) (bool, error) {
	if h != nil {
		ok, err := c.parseSpan(ctx, x, y, kind, parent, h)
		if ok || err != nil {
			return ok, err
		}
		if h.chain {
			if h = hugeIn(c.src[x:y], kind, chunkBytes, false); h != nil {
				if ok, err = c.parseSpan(ctx, x, y, kind, parent, h); ok || err != nil {
					return ok, err
				}
			}
		}
	}
	return c.parseSpan(ctx, x, y, kind, parent, nil)
}

// parseSpan parses the span [x, y) of the source, of the kind, and
// appends its nodes: a top-level piece's as add does, a run's as children
// of the node at index parent. With h (offsets from x), h's runs are left
// out of the span's parse and each parsed after it (a run holding a huge
// statement of its own the same way): their nodes are inserted after the
// block's statements or the chain's last link, before the span's nodes
// that follow h. false, with nothing added, when a run or the span with h
// left out does not parse cleanly or h is not where the parse puts it:
// the caller parses the span whole (a run is not parsed whole: its span
// is).
func (c *chunker) parseSpan(ctx context.Context, x, y int, kind spanKind, parent int, h *huge) (bool, error) {
	base, runs := c.nodes.n, c.runs
	fail := func(err error) (bool, error) {
		c.nodes.truncate(base)
		c.runs = runs
		return false, err
	}
	buf, head := c.src[x:y], 0
	if kind != spanTop {
		w := wrappers[kind]
		c.buf = append(append(append(c.buf[:0], w[0]...), c.src[x:y]...), w[1]...)
		buf, head = c.buf, len(w[0])
	}
	pp := c.p.p
	if h != nil {
		pp.SetIncludedRanges([]sitter.Range{rangeOf(buf, 0, head+h.cuts[0]), rangeOf(buf, head+h.end, len(buf))})
	}
	ts, err := pp.ParseCtx(ctx, nil, buf)
	if h != nil {
		pp.SetIncludedRanges([]sitter.Range{{EndByte: math.MaxUint32, EndPoint: sitter.Point{Row: math.MaxUint32, Column: math.MaxUint32}}})
	}
	if err != nil {
		return false, err
	}
	clean := !ts.RootNode().HasError()
	switch {
	case kind == spanTop && !clean && h == nil && c.strict:
		err = errChunks
	case kind == spanTop && (clean || h == nil):
		err = c.add(ts, x, y)
	case clean:
		err = c.flattenRun(ts, kind, uint32(x-head), parent)
	default:
		err = errChunks
	}
	// A tree of over 1.5 pieces' text (bytes, not nodes: code of
	// uniformly many nodes a byte, a table, is no bigger than its next
	// piece) leaves malloc more free pages than the next piece needs.
	parsed := len(buf)
	if h != nil {
		parsed -= h.end - h.cuts[0]
	}
	ts.Close()
	if parsed > chunkBytes*3/2 {
		// The pieces after this one are smaller (a huge statement's
		// head, e.g. nest-depth's 256 loop levels, and the text around
		// it): what malloc keeps of its tree would stay resident under
		// their nodes.
		trimCHeap()
		c.trims++
	}
	if err == errChunks && (h != nil || kind != spanTop) {
		return fail(nil)
	}
	if err == nil && kind != spanTop {
		c.runs++
	}
	if err != nil || h == nil {
		return err == nil, err
	}
	nm := c.t.names
	// The huge's node, the parent of its runs' statements or links.
	at, runKind := -1, spanLinks
	if !h.chain {
		for i := base; i < c.nodes.n; i++ {
			n := c.nodes.at(i)
			if n.Start == uint32(x+h.start) && n.End == uint32(x+h.end+1) && nm.block[n.kind()] != 0 {
				at, runKind = i, spanStmts
				if nm.kind[n.kind()] == nm.byName["declaration_list"] {
					runKind = spanDecls
				}
				break
			}
		}
	} else {
		cons := nm.field("consequence")
		for i := base; i < c.nodes.n; i++ {
			if n := c.nodes.at(i); n.End == uint32(x+h.cuts[0]) && n.field() == cons && n.parent() >= 0 && c.is(i, "compound_statement") {
				at = int(n.parent())
				break
			}
		}
		if at < 0 || !c.is(at, "if_statement") || c.child(at, "alternative") >= 0 {
			return fail(nil)
		}
	}
	if at < 0 {
		return fail(nil)
	}
	// The nodes after the huge's (what follows it in the span) are set
	// aside while the runs' go in, then moved after them.
	top := at
	for c.is(top, "if_statement") {
		p := int(c.nodes.at(top).parent())
		if p < 0 || !c.is(p, "else_clause") || !c.is(int(c.nodes.at(p).parent()), "if_statement") {
			break
		}
		top = int(c.nodes.at(p).parent())
	}
	s := int(c.nodes.at(top).last()) + 1
	after := c.nodes.cut(s)
	for k, cut := range h.cuts {
		end := h.end
		if k+1 < len(h.cuts) {
			end = h.cuts[k+1]
		}
		rx, ry := x+cut, x+end
		var sub *huge
		if ry-rx > 2*chunkBytes {
			sub = hugeIn(c.src[rx:ry], runKind, chunkBytes, true)
		}
		r0 := c.nodes.n
		ok, err := c.parseSpanOr(ctx, rx, ry, runKind, at, sub)
		if err != nil || !ok {
			return fail(err)
		}
		if h.chain {
			if at = c.lastLink(r0, at, ry, k+1 == len(h.cuts)); at < 0 {
				return fail(nil)
			}
		}
	}
	if err := c.nodes.put(after, s, c.nodes.n-s); err != nil {
		return fail(err)
	}
	// The span's nodes before the runs' (the block, the chain's links,
	// their ancestors) were written with the subtrees they had without
	// them.
	c.nodes.settle(base)
	return true, nil
}

// flattenRun appends the nodes of a run parsed in its wrapper (see
// wrappers), moved by off, as children of the node at index parent: the
// statements of the wrapper's block, or the links after the wrapper's if
// (its comments and else clause).
func (c *chunker) flattenRun(ts *sitter.Tree, kind spanKind, off uint32, parent int) error {
	room, err := c.nodes.room(nodeCount(ts))
	if err != nil {
		return err
	}
	marks, start := c.t.names.block, len(wrappers[kind][0])-1
	if kind == spanLinks {
		marks, start = c.t.names.ifs, len("void f() { ")
	}
	base := c.nodes.n
	n, ok := flattenBlock(ts, c.t, uint32(start), marks, room, off, base, parent)
	if !ok {
		return errChunks
	}
	if kind == spanLinks {
		// Drop the wrapper if's keyword, condition and consequence.
		cons := c.t.names.field("consequence")
		k := 0
		for i := 0; i < n; i = int(room[i].last()) - base + 1 {
			if room[i].field() == cons {
				k = int(room[i].last()) - base + 1
				break
			}
		}
		if k == 0 {
			return errChunks
		}
		copy(room, room[k:n])
		n -= k
		for i := range room[:n] {
			r := &room[i]
			p := r.parent()
			if int(p) != parent {
				p -= int32(k)
			}
			r.setLinks(r.index()-int32(k), r.last()-int32(k), p)
		}
	}
	c.nodes.commit(n)
	return nil
}

// lastLink checks the nodes of a run of links at index r0 on, children
// of the node at index prev (the chain's last if so far), and returns the
// chain's last if after them; -1 when they are not one else clause (after
// comments) ending at the run's end, end, or when more runs follow and
// their else would not be the last if's (its consequence is no block
// ending at end).
func (c *chunker) lastLink(r0, prev, end int, last bool) int {
	elseAt := -1
	for i := r0; i < c.nodes.n; i = int(c.nodes.at(i).last()) + 1 {
		if elseAt >= 0 || int(c.nodes.at(i).parent()) != prev {
			return -1
		}
		if c.is(i, "else_clause") {
			elseAt = i
		} else if !c.is(i, "comment") {
			return -1
		}
	}
	if elseAt < 0 || c.nodes.at(elseAt).End != uint32(end) {
		return -1
	}
	at := elseAt
	for {
		next := -1
		if c.is(at, "else_clause") {
			next = c.child(at, "")
			if next < 0 || !c.is(next, "if_statement") {
				if last {
					return at
				}
				return -1
			}
		} else {
			next = c.child(at, "alternative")
			if next < 0 {
				break
			}
		}
		at = next
	}
	if !last {
		cons := c.child(at, "consequence")
		if cons < 0 || !c.is(cons, "compound_statement") || c.nodes.at(cons).End != uint32(end) {
			return -1
		}
	}
	return at
}

// is reports whether the node at index i is of the kind.
func (c *chunker) is(i int, kind string) bool {
	nm := c.t.names
	return nm.kind[c.nodes.at(i).kind()] == nm.byName[kind]
}

// child is the index of the first child of the node at index i in the
// field (for "", a named child but a comment), -1 when none.
func (c *chunker) child(i int, field string) int {
	f := c.t.names.field(field)
	n := c.nodes.at(i)
	for j := i + 1; j <= int(n.last()); j = int(c.nodes.at(j).last()) + 1 {
		if m := c.nodes.at(j); m.field() == f && (field != "" || m.flags()&flagNamed != 0 && !c.is(j, "comment")) {
			return j
		}
	}
	return -1
}

// rangeOf is the range [start, end) of src for tree-sitter.
func rangeOf(src []byte, start, end int) sitter.Range {
	return sitter.Range{StartByte: uint32(start), EndByte: uint32(end), StartPoint: pointOf(src, start), EndPoint: pointOf(src, end)}
}

// pointOf is the row and byte column of offset i of src.
func pointOf(src []byte, i int) sitter.Point {
	nl := bytes.LastIndexByte(src[:i], '\n')
	return sitter.Point{Row: uint32(bytes.Count(src[:i], []byte{'\n'})), Column: uint32(i - nl - 1)}
}
