package grammar

// Byte-level skipping shared by the hand-written C++ scanners (qualifier
// masking here, the workspace's text scan): comments, quoted literals and
// directive lines. Each returns the offset just past the construct that
// starts at i; results may exceed len(src) by one for an unterminated
// construct, which callers' `i < len(src)` loops absorb.

// CommentEnd returns the end of a `//` or `/* */` comment at i, and false
// when no comment starts there.
func CommentEnd(src []byte, i int) (int, bool) {
	if src[i] != '/' || i+1 >= len(src) {
		return i, false
	}
	switch src[i+1] {
	case '/':
		for i < len(src) && src[i] != '\n' {
			i++
		}
		return i, true
	case '*':
		j := i + 2
		for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
			j++
		}
		return j + 2, true
	}
	return i, false
}

// QuotedEnd returns the end of the string or character literal opened by
// the quote at i (a literal never spans lines).
func QuotedEnd(src []byte, i int) int {
	q := src[i]
	j := i + 1
	for j < len(src) && src[j] != q && src[j] != '\n' {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	return j + 1
}

// DirectiveEnd returns the end of the preprocessor line at i (before its
// newline), following backslash continuations (of CRLF lines too).
func DirectiveEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		if n := SpliceEnd(src, i); n > 0 {
			i = n
			continue
		}
		i++
	}
	return i
}

// SpliceEnd returns the end of the line splice (a backslash right before
// a newline, CRLF's too) at i, or 0: the compiler joins the two lines
// before anything else reads them.
func SpliceEnd(src []byte, i int) int {
	if src[i] != '\\' {
		return 0
	}
	j := i + 1
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if j < len(src) && src[j] == '\n' {
		return j + 1
	}
	return 0
}
