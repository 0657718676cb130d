package config

import "fmt"

// MaxNesting bounds how deep a configuration file may nest tables, arrays
// and dotted keys. The TOML decoder's cost grows with the square of the
// depth (a 40 KB file of nested inline tables takes gigabytes), and the
// depth is counted over the whole file, since another tool's table in a
// pyproject.toml is decoded too. Real configurations stay under ten.
const MaxNesting = 64

// tooDeep scans TOML text without decoding it and returns the 1-based line
// where the nesting first exceeds MaxNesting, or 0. Brackets and braces
// count one level each, and so does every dot of a key; strings and
// comments are skipped.
func tooDeep(data []byte) int {
	var open []byte // the brackets open now: '[' or '{'
	line, dots := 1, 0
	inKey := true // a key is expected: at a line start, after '{' or ','
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '\n':
			line++
			if len(open) == 0 {
				inKey, dots = true, 0
			}
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipString(data, i, &line)
		case '[', '{':
			open = append(open, c)
			// A table header's brackets hold a key.
			inKey, dots = c == '{' || inKey, 0
		case ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case '=':
			inKey, dots = false, 0
		case ',':
			inKey, dots = len(open) > 0 && open[len(open)-1] == '{', 0
		case '.':
			if inKey {
				dots++
			}
		}
		if len(open)+dots > MaxNesting {
			return line
		}
	}
	return 0
}

// skipString returns the index of the closing quote of the string opening
// at i (basic or literal, single- or multi-line), counting lines.
func skipString(data []byte, i int, line *int) int {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if multi {
		i += 2
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\n':
			*line++
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if !multi {
				return i
			}
			if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
				return i + 2
			}
		}
	}
	return i
}

func nestingError(path string, line int) error {
	return &Error{File: path, Msg: fmt.Sprintf("line %d: nested more than %d levels deep; not read", line, MaxNesting),
		Hint: "flatten the tables (extern-lsp's own settings need two levels)"}
}
