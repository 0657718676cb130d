package grammar

import (
	"bytes"
	"context"
	"errors"
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

// topLevelSplits returns the line starts where a C++ source can be cut into
// pieces of at least every bytes that parse as the whole does: after a line
// ending a top-level declaration (`;` or `}` outside every brace, bracket,
// parenthesis and #if). A source wrapped in one namespace has none.
func topLevelSplits(src []byte, every int) []int {
	var out []int
	depth, cond := 0, 0
	var last byte
	lineStart := true
	next := every
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			i++
			lineStart = true
			if i >= next && depth == 0 && cond == 0 && (last == ';' || last == '}') && len(src)-i >= every/2 {
				out = append(out, i)
				next = i + every
			}
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
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
		case c == '"' || c == '\'':
			i = QuotedEnd(src, i)
		case c == '{' || c == '(' || c == '[':
			depth++
			i++
		case c == '}' || c == ')' || c == ']':
			depth--
			i++
		default:
			i++
		}
		last = c
		lineStart = false
	}
	return out
}

var errChunks = errors.New("pieces do not parse as a translation unit")

// parseChunks parses src in the pieces between cuts and joins them under
// one root, as if parsed whole; a piece whose root is not the language's
// top-level node fails (the caller parses whole).
func (p *Parser) parseChunks(ctx context.Context, parseSrc, orig []byte, lines *Lines, cuts []int) (*Tree, error) {
	t := &Tree{Src: orig, names: p.lang.info().names, lines: lines}
	bounds := append(append([]int{0}, cuts...), len(parseSrc))
	var nodes []Node
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		ts, err := p.p.ParseCtx(ctx, nil, parseSrc[a:b])
		if err != nil {
			return nil, err
		}
		need := nodeCount(ts) // an upper bound: flatten drops punctuation
		root := ts.RootNode()
		if i == 0 {
			// Room for every piece at the first one's density: capacity
			// never written is never resident.
			kept := keptCount(ts, t)
			nodes = make([]Node, kept, kept+kept*(len(parseSrc)-b)/max(b-a, 1)*5/4)
			nodes = nodes[:flattenInto(ts, t, nodes, 0, 0, false)]
		} else if uint16(root.Symbol()) != nodes[0].kind {
			ts.Close()
			return nil, errChunks
		} else {
			at := len(nodes)
			if at+need > cap(nodes) {
				nodes = append(nodes[:cap(nodes)], make([]Node, at+need-cap(nodes))...)[:at]
			}
			nodes = nodes[:at+flattenInto(ts, t, nodes[at:at+need], uint32(a), at, true)]
		}
		if i+2 == len(bounds) {
			nodes[0].End = root.EndByte() + uint32(a)
		}
		ts.Close()
	}
	trimCHeap()
	nodes[0].last = int32(len(nodes) - 1)
	for i := range nodes {
		nodes[i].tree = t
	}
	t.Nodes = nodes
	return t, nil
}
