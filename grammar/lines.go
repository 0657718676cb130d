package grammar

import (
	"bytes"
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Lines indexes line starts of a source for offset ↔ position conversion.
type Lines struct {
	src    []byte
	starts []uint32
}

// NewLines indexes src. Lines end at '\n'; a '\r' before it belongs to the
// line's text for column purposes, as in LSP.
func NewLines(src []byte) *Lines {
	// Counted first (a fast scan): the index is made at its size, with
	// no room and no growth garbage, as long-lived as the file.
	starts := make([]uint32, 1, bytes.Count(src, []byte{'\n'})+1)
	for at := 0; ; {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			break
		}
		at += i + 1
		starts = append(starts, uint32(at))
	}
	return &Lines{src: src, starts: starts}
}

// Count is the number of lines (a trailing newline starts an empty line).
func (l *Lines) Count() int { return len(l.starts) }

// LineStart returns the byte offset of the 0-based line (clamped).
func (l *Lines) LineStart(line int) uint32 {
	if line < 0 {
		return 0
	}
	if line >= len(l.starts) {
		return uint32(len(l.src))
	}
	return l.starts[line]
}

// LineEnd returns the offset of the line's end, before "\n" or "\r\n".
func (l *Lines) LineEnd(line int) uint32 {
	if line < 0 {
		return 0
	}
	if line+1 >= len(l.starts) {
		return uint32(len(l.src))
	}
	e := l.starts[line+1] - 1
	if e > l.starts[line] && l.src[e-1] == '\r' {
		e--
	}
	return e
}

// LineText returns the text of a 0-based line without its terminator.
func (l *Lines) LineText(line int) string {
	return string(l.src[l.LineStart(line):l.LineEnd(line)])
}

// Position returns the 0-based line and byte column of an offset.
func (l *Lines) Position(off uint32) (line, col int) {
	if off > uint32(len(l.src)) {
		off = uint32(len(l.src))
	}
	line = sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return line, int(off - l.starts[line])
}

// Offset returns the offset of a 0-based line and byte column, clamped to the
// line's end and the source's end.
func (l *Lines) Offset(line, col int) uint32 {
	if line >= len(l.starts) {
		return uint32(len(l.src))
	}
	s, e := l.LineStart(line), l.LineEnd(line)
	if col < 0 {
		col = 0
	}
	if uint32(col) > e-s {
		return e
	}
	return s + uint32(col)
}

// UTF16Col converts a byte column on a line into UTF-16 code units.
func (l *Lines) UTF16Col(line, byteCol int) int {
	s := l.LineStart(line)
	e := l.LineEnd(line)
	end := s + uint32(byteCol)
	if end > e {
		end = e
	}
	n := 0
	for i := s; i < end; {
		r, size := utf8.DecodeRune(l.src[i:end])
		if r == utf8.RuneError && size <= 1 {
			n++
			i++
			continue
		}
		n += len(utf16.Encode([]rune{r}))
		i += uint32(size)
	}
	return n
}

// ByteCol converts a UTF-16 column on a line into a byte column, clamped to
// the line's end.
func (l *Lines) ByteCol(line, utf16Col int) int {
	s := l.LineStart(line)
	e := l.LineEnd(line)
	n := 0
	i := s
	for i < e && n < utf16Col {
		r, size := utf8.DecodeRune(l.src[i:e])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += uint32(size)
	}
	return int(i - s)
}

// OffsetUTF16 converts an LSP position (line, UTF-16 column) to a byte offset.
func (l *Lines) OffsetUTF16(line, utf16Col int) uint32 {
	if line >= len(l.starts) {
		return uint32(len(l.src))
	}
	return l.LineStart(line) + uint32(l.ByteCol(line, utf16Col))
}

// PositionUTF16 converts a byte offset to an LSP position.
func (l *Lines) PositionUTF16(off uint32) (line, col int) {
	line, bc := l.Position(off)
	return line, l.UTF16Col(line, bc)
}
