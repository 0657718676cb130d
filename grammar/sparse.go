package grammar

import (
	"bytes"
	"context"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// ParseSparse parses a C++ text that is blank (spaces, tabs and newlines)
// outside ranges, sorted and disjoint [start, end) byte pairs: the result
// is the File ParseFile returns for src, but the parser and the masker
// read the ranges only (all of src when the ranges do not parse cleanly). A macro shadow (analysis/cxx/macros.go) holds a
// few #define bodies at their offsets in a blank copy of a whole file;
// reading every blank byte cost more than parsing the bodies.
func ParseSparse(ctx context.Context, path string, src []byte, ranges [][2]uint32) (*File, error) {
	if len(ranges) == 0 || !sparse(src, ranges) {
		return ParseFile(ctx, nil, path, src, nil)
	}
	// Blank bytes are ASCII: the text is valid UTF-8 when its ranges are.
	valid := true
	for _, r := range ranges {
		valid = valid && utf8.Valid(src[r[0]:r[1]])
	}
	f := &File{Path: path, Lang: CPP, Src: src, Lines: NewLines(src), ValidUTF8: valid}
	f.Guards = ScanGuards(src)
	f.Includes = IncludesOf(f)
	// The masker's state is its start state over blank text, so masking
	// from the line of the first range to the end of the last one masks
	// as the whole text would.
	lo := f.Lines.LineStart(lineOf(f.Lines, ranges[0][0]))
	hi := ranges[len(ranges)-1][1]
	masked, spans := Mask(src[lo:hi])
	parseSrc := src
	if len(spans) > 0 {
		parseSrc = append([]byte(nil), src...)
		copy(parseSrc[lo:], masked)
		for i := range spans {
			spans[i].Start += lo
			spans[i].End += lo
		}
		f.Masks = spans
	}
	p := NewParser(CPP)
	defer p.p.Close()
	rs := make([]sitter.Range, len(ranges))
	for i, r := range ranges {
		sr, sc := f.Lines.Position(r[0])
		er, ec := f.Lines.Position(r[1])
		rs[i] = sitter.Range{
			StartByte: r[0], EndByte: r[1],
			StartPoint: sitter.Point{Row: uint32(sr), Column: uint32(sc)},
			EndPoint:   sitter.Point{Row: uint32(er), Column: uint32(ec)},
		}
	}
	p.p.SetIncludedRanges(rs)
	ts, err := p.p.ParseCtx(ctx, nil, parseSrc)
	if err != nil {
		return nil, err
	}
	t := &Tree{Src: src, ts: ts, names: p.lang.info().names, lines: f.Lines}
	if t.Nodes, err = flatten(ts, t); err != nil {
		ts.Close()
		return nil, err
	}
	if t.HasError() {
		// The same tokens parse to the same tree, but error recovery
		// weighs the bytes it skips, blanks included: parse whole.
		t.Close()
		return ParseFile(ctx, nil, path, src, nil)
	}
	if len(t.Nodes) > 0 {
		// A whole parse's root ends with the text; a ranged one's with
		// the last range.
		t.Nodes[0].End = uint32(len(src))
	}
	f.Tree = t
	return f, nil
}

func lineOf(l *Lines, off uint32) int {
	line, _ := l.Position(off)
	return line
}

// sparse reports whether src is blank outside ranges (and the ranges are
// sorted, disjoint and inside src).
func sparse(src []byte, ranges [][2]uint32) bool {
	at := uint32(0)
	for _, r := range ranges {
		if r[0] < at || r[1] < r[0] || r[1] > uint32(len(src)) || !blank(src[at:r[0]]) {
			return false
		}
		at = r[1]
	}
	return blank(src[at:]) && bytes.IndexByte(src, 0) < 0
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}
