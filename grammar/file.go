package grammar

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Include is one #include directive.
type Include struct {
	Path       string // as written, without quotes or brackets
	System     bool   // <...> rather than "..."
	Line       int
	Start, End uint32 // the path's span including its delimiters
}

// File is a parsed source file with everything rules need about its text.
type File struct {
	Path     string
	Lang     Lang
	Src      []byte
	Tree     *Tree
	Masks    []Span // C++ only: the qualifier spans hidden from the parser
	Guards   *Guards
	Lines    *Lines
	Includes []Include
	// ValidUTF8 is false when the text is not UTF-8; positions still work
	// on bytes.
	ValidUTF8 bool
	// MacroOf is set on a macro shadow (analysis/cxx/macros.go): the file
	// whose #define bodies it holds as functions, at the same offsets.
	MacroOf *File

	coreIfs coreIndex
}

// ErrBinary is returned for files that contain NUL bytes.
var ErrBinary = errors.New("binary file (contains NUL bytes)")

// IsBinary reports whether src is a binary file's text (ErrBinary): no
// parse, no findings.
func IsBinary(src []byte) bool { return bytes.IndexByte(src, 0) >= 0 }

// LangOf returns the language for a file name and whether extern-lsp reads it.
func LangOf(path string) (Lang, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cpp", ".cc", ".cxx", ".cce", ".asc", ".hpp", ".hh", ".hxx", ".h", ".inc":
		return CPP, true
	case ".py", ".pyi":
		return Python, true
	}
	return CPP, false
}

// ParseFile parses src as the language of path, using p (which may be nil)
// and the previous tree old for incremental reparsing.
func ParseFile(ctx context.Context, p *Parser, path string, src []byte, old *File) (*File, error) {
	if IsBinary(src) {
		return nil, ErrBinary
	}
	parseSrc, masks := src, []Span(nil)
	if lang, _ := LangOf(path); lang == CPP {
		parseSrc, masks = Mask(src)
	}
	return ParseMasked(ctx, p, path, src, parseSrc, masks, NewLines(src), old)
}

// ParseMasked is ParseFile given what Mask(src) and NewLines(src) return,
// for an editor that has them already (it diffs masked texts to tell the
// parser its edit).
func ParseMasked(ctx context.Context, p *Parser, path string, src, masked []byte, masks []Span, lines *Lines, old *File) (*File, error) {
	lang, _ := LangOf(path)
	if IsBinary(src) {
		return nil, ErrBinary
	}
	if p == nil || p.lang != lang {
		batch := p != nil && p.batch
		p = NewParser(lang)
		p.batch = batch
	}
	f, masked := newFile(path, lang, src, masked, masks, lines)
	var oldTree *Tree
	if old != nil {
		oldTree = old.Tree
	}
	t, err := p.parse(ctx, masked, src, oldTree, f.Lines)
	if err != nil {
		return nil, err
	}
	f.Tree = t
	return f, nil
}

// newFile is the file of a parse but its tree, and the text to parse.
func newFile(path string, lang Lang, src, masked []byte, masks []Span, lines *Lines) (*File, []byte) {
	f := &File{Path: path, Lang: lang, Src: src, Lines: lines, ValidUTF8: utf8.Valid(src)}
	if lang == CPP {
		f.Masks = masks
		f.Guards = ScanGuards(src)
		f.Includes = IncludesOf(f)
	} else {
		masked = src
		f.Guards = &Guards{}
	}
	return f, masked
}

// IncludesOf lists the #include directives of a file from its guard scan.
func IncludesOf(f *File) []Include {
	var out []Include
	macros := IncludeMacros{}
	for _, d := range f.Guards.Directives {
		at := int(d.Start) + max(bytes.IndexByte(f.Src[d.Start:d.End], '#'), 0)
		if inc, ok := IncludeOf(f.Src[at:d.End], at, macros); ok {
			inc.Line = d.Line
			out = append(out, inc)
		}
	}
	return out
}

// IncludeOf reads a directive's text (line, from its '#', at offset start
// of the file) as an #include; macros follows the #defines of include
// paths before it, for a computed `#include NAME`. It is the one reading
// of #include lines: the workspace's text scan and a parse's Includes.
func IncludeOf(line []byte, start int, macros IncludeMacros) (Include, bool) {
	i := 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	for _, kind := range []string{"define", "undef"} {
		if bytes.HasPrefix(line[i:], []byte(kind)) {
			macros.Directive(kind, string(line[i+len(kind):]))
			return Include{}, false
		}
	}
	if !bytes.HasPrefix(line[i:], []byte("include")) {
		return Include{}, false
	}
	i += len("include")
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if op := macros.Resolve(string(line[i:])); op != "" {
		name := bytes.TrimSpace(line[i:])
		if k := bytes.IndexAny(name, " \t/"); k >= 0 {
			name = name[:k]
		}
		return Include{Path: op[1 : len(op)-1], System: op[0] == '<',
			Start: uint32(start + i), End: uint32(start + i + len(name))}, true
	}
	if i >= len(line) || line[i] != '"' && line[i] != '<' {
		return Include{}, false
	}
	closeCh := byte('"')
	if line[i] == '<' {
		closeCh = '>'
	}
	j := bytes.IndexByte(line[i+1:], closeCh)
	if j < 0 {
		return Include{}, false
	}
	return Include{Path: string(line[i+1 : i+1+j]), System: closeCh == '>',
		Start: uint32(start + i), End: uint32(start + i + j + 2)}, true
}

// QualifiersIn returns the masked qualifier texts within [start, end).
func (f *File) QualifiersIn(start, end uint32) []string {
	var out []string
	// Masks are in text order: start at the first at or after start, not
	// at the file's first (a scan from 0 per node made one file of many
	// kernels quadratic: a third of an 8 MB file's CPU).
	first, _ := slices.BinarySearchFunc(f.Masks, start, func(s Span, off uint32) int { return cmp.Compare(s.Start, off) })
	for _, s := range f.Masks[first:] {
		if s.Start >= end {
			break
		}
		if s.Start >= start && s.End <= end {
			out = append(out, s.Text)
		}
	}
	return out
}

// NodeQualifiers returns the masked qualifiers that belong to n: those
// inside it and those just before it (tree-sitter starts a declaration at
// its first real token, so a leading `__gm__` lies before the node).
func (f *File) NodeQualifiers(n *Node) []string {
	start := uint32(0)
	if prev := n.PrevSibling(); prev != nil {
		start = prev.End
	} else if p := n.Parent(); p != nil {
		start = p.Start
	}
	return f.QualifiersIn(start, n.End)
}

// NodeHasQualifier reports whether qualifier q (e.g. "__gm__") belongs to n
// (see NodeQualifiers).
func (f *File) NodeHasQualifier(n *Node, q string) bool {
	return slices.Contains(f.NodeQualifiers(n), q)
}

// Close releases the file's C tree.
func (f *File) Close() {
	if f != nil {
		f.Tree.Close()
	}
}

// IncludeMacros tracks, through a file's directives in order, the
// object-like macros defined as an include path (`#define KERNEL_HDR
// "impl/body.h"`), so a computed `#include KERNEL_HDR` resolves like the
// include it expands to.
type IncludeMacros map[string]string

// Directive records a #define or #undef (kind without '#', rest the text
// after the directive name).
func (m IncludeMacros) Directive(kind, rest string) {
	name := firstWord(rest)
	if name == "" || strings.Contains(name, "(") {
		return
	}
	switch kind {
	case "undef":
		delete(m, name)
	case "define":
		body := strings.TrimSpace(stripComment(strings.TrimSpace(rest)[len(name):]))
		if len(body) >= 2 && (body[0] == '"' && body[len(body)-1] == '"' || body[0] == '<' && body[len(body)-1] == '>') {
			m[name] = body
		} else {
			delete(m, name)
		}
	}
}

// Resolve returns the operand a computed include expands to (`"impl/body.h"`
// with its delimiters), or "" when operand is not such a macro.
func (m IncludeMacros) Resolve(operand string) string {
	return m[strings.TrimSpace(stripComment(operand))]
}
