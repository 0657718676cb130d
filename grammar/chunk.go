package grammar

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// A C++ source longer than chunkAfter is parsed in pieces of about
// chunkBytes. tree-sitter's tree costs about 100 bytes per node while it
// lives, 40-50 bytes per byte of source: more than everything else the
// analysis keeps (a 10 MB file: over 400 MB). Parsed in top-level pieces,
// only one piece's C tree is alive at a time (64 KB: about 3 MB). Shorter
// sources keep their C tree for incremental reparsing. Variables for the
// tests.
var (
	chunkAfter = 512 << 10
	chunkBytes = 64 << 10
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
			i = QuotedEnd(src, i)
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

// blockSplits finds, in a top-level piece of a C++ source, where the piece
// can still be parsed in pieces when it is one huge function: its largest
// top-level brace block (a function's body, a namespace's declarations)
// when less than every bytes precede it, and the cuts inside the block
// every bytes apart, each at the block's own depth outside every #if, just
// after a `;` or a `}` ending its line (the end of a statement or a
// declaration), before an identifier other than `else`, `while` and
// `catch` (or, after a `;`, other code). open and close are the offsets of
// the block's braces; no cuts when there is no such block.
func blockSplits(src []byte, every int) (open, close int, cuts []int) {
	open, close = -1, -1
	start := -1
	walkCode(src, func(i int, c byte, depth, _ int) bool {
		switch {
		case c == '{' && depth == 0:
			start = i
		case c == '}' && depth == 1 && start >= 0:
			if open < 0 || i-start > close-open {
				open, close = start, i
			}
		}
		return true
	})
	if open < 0 || open > every {
		return -1, -1, nil
	}
	body := src[:close]
	next := open + every
	walkCode(body, func(i int, c byte, depth, cond int) bool {
		// A `}` is seen at the depth of the block it closes.
		if !(c == ';' && depth == 1 || c == '}' && depth == 2) || cond != 0 || i < next || close-i < every/2 {
			return true
		}
		w, ok := nextToken(body, i+1)
		if !ok || w == "else" || w == "while" || w == "catch" || c == '}' && (w == "" || !endsLine(body, i+1)) {
			return true
		}
		cuts = append(cuts, i+1)
		next = i + 1 + every
		return true
	})
	return open, close, cuts
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
		return "", false
	}
	n := i
	for n < len(src) && (src[n] == '_' || src[n] >= 'a' && src[n] <= 'z' || src[n] >= 'A' && src[n] <= 'Z' || n > i && src[n] >= '0' && src[n] <= '9') {
		n++
	}
	return string(src[i:n]), true
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
// top-level node fails (the caller parses whole). A piece that is one huge
// function (or namespace) is parsed in smaller pieces still, see
// parseBlock.
func (p *Parser) parseChunks(ctx context.Context, parseSrc, orig []byte, lines *Lines, cuts []int) (*Tree, error) {
	t := &Tree{Src: orig, names: p.lang.info().names, lines: lines}
	bounds := append(append([]int{0}, cuts...), len(parseSrc))
	c := &chunker{p: p, t: t, src: parseSrc}
	defer c.nodes.free()
	strict := slices.ContainsFunc(cuts, func(cut int) bool { return midLine(parseSrc, cut) })
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		if b-a > 2*chunkBytes {
			if open, close, inner := blockSplits(parseSrc[a:b], chunkBytes); len(inner) > 0 {
				// What follows the block (a comment, more
				// declarations) is a top-level piece of its own.
				end := a + close + 1
				if len(bytes.TrimSpace(parseSrc[end:b])) == 0 {
					end = b
				}
				ok, err := c.parseBlock(ctx, a, end, open, close, inner)
				if err != nil {
					return nil, err
				}
				if ok && end == b {
					continue
				}
				if ok {
					a = end
				}
			}
		}
		ts, err := p.p.ParseCtx(ctx, nil, parseSrc[a:b])
		if err != nil {
			return nil, err
		}
		if strict && ts.RootNode().HasError() {
			ts.Close()
			return nil, errChunks
		}
		err = c.add(ts, a, b-a, len(parseSrc)-b)
		ts.Close()
		if err != nil {
			return nil, err
		}
	}
	trimCHeap()
	nodes := c.nodes.finish(t)
	nodes[0].last = int32(len(nodes) - 1)
	t.Nodes = nodes
	return t, nil
}

// errNoRoom is a parse given up because the nodes found no memory.
var errNoRoom = errors.New("grammar: no memory for the nodes")

// chunker gathers the nodes of a source parsed in pieces.
type chunker struct {
	p     *Parser
	t     *Tree
	src   []byte
	nodes nodeStore
}

// add appends the nodes of the tree of the piece of src at a: the whole
// tree for the first piece, the root's children for the others. parsed is
// how many bytes the tree covers, left how many are still to parse (none:
// the tree ends the source).
func (c *chunker) add(ts *sitter.Tree, a, parsed, left int) error {
	root := ts.RootNode()
	first := c.nodes.n == 0
	if !first && uint16(root.Symbol()) != c.nodes.at(0).kind {
		return errChunks
	}
	room := c.nodes.room(nodeCount(ts)) // an upper bound: flatten drops punctuation
	if room == nil {
		return errNoRoom
	}
	c.nodes.commit(flattenInto(ts, c.t, room, uint32(a), c.nodes.n, !first))
	if left == 0 {
		c.nodes.at(0).End = root.EndByte() + uint32(a)
	}
	return nil
}

// parseBlock parses the piece [a, b) of the source, one huge brace block
// (blockSplits: its braces at a+open and a+close, cuts inside it), in
// pieces: first the piece with only the block's statements before the
// first cut (tree-sitter's included ranges keep every offset), then each
// run of statements between cuts inside a copy of the block's head and
// tail, whose statements become the block's children. tree-sitter's tree
// of a statement does not depend on the statements around it, so the
// nodes are those of the whole parse. false, with nothing added, when a
// piece does not parse cleanly or the block is not last in its piece: the
// caller parses the piece whole.
func (c *chunker) parseBlock(ctx context.Context, a, b, open, close int, cuts []int) (bool, error) {
	piece := c.src[a:b]
	at := c.nodes.n
	rollback := func() (bool, error) {
		c.nodes.truncate(at)
		return false, nil
	}
	pp := c.p.p
	pp.SetIncludedRanges([]sitter.Range{rangeOf(piece, 0, cuts[0]), rangeOf(piece, close, len(piece))})
	ts, err := pp.ParseCtx(ctx, nil, piece)
	pp.SetIncludedRanges([]sitter.Range{{EndByte: math.MaxUint32, EndPoint: sitter.Point{Row: math.MaxUint32, Column: math.MaxUint32}}})
	if err != nil {
		return false, err
	}
	clean := !ts.RootNode().HasError()
	if clean {
		// The tree ends where the whole piece does: the range after the
		// block is parsed.
		err = c.add(ts, a, cuts[0]+len(piece)-close, len(c.src)-b+close-cuts[0])
		if err == nil && b == len(c.src) {
			c.nodes.at(0).End = ts.RootNode().EndByte() + uint32(a)
		}
	}
	ts.Close()
	if err == errNoRoom {
		return false, err
	}
	if err != nil || !clean {
		return rollback()
	}
	// The block is the last node written but its punctuation: the
	// statements of the other pieces go at the end of the array.
	block := -1
	for i := c.nodes.n - 1; i >= at; i-- {
		if n := c.nodes.at(i); n.Start == uint32(a+open) && c.t.names.block[n.kind] != 0 {
			block = i
			break
		}
	}
	if block < 0 || int(c.nodes.at(block).last) != c.nodes.n-1 || c.nodes.at(block).End != uint32(a+close+1) {
		return rollback()
	}
	var buf []byte
	for k, cut := range cuts {
		end := close
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		buf = append(append(append(buf[:0], piece[:open+1]...), piece[cut:end]...), piece[close:]...)
		ts, err := pp.ParseCtx(ctx, nil, buf)
		if err != nil {
			return false, err
		}
		ok := !ts.RootNode().HasError()
		if ok {
			room := c.nodes.room(nodeCount(ts))
			if room == nil {
				ts.Close()
				return false, errNoRoom
			}
			var n int
			n, ok = flattenBlock(ts, c.t, uint32(open), room, uint32(a+cut-open-1), c.nodes.n, block)
			if ok {
				c.nodes.commit(n)
			}
		}
		ts.Close()
		if !ok {
			return rollback()
		}
	}
	for i := block; i >= 0; i = int(c.nodes.at(i).parent) {
		c.nodes.at(i).last = int32(c.nodes.n - 1)
	}
	return true, nil
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
