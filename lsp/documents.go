package lsp

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// document is an open editor buffer. Edits change its text and make a new
// snapshot (see snapshot.go) holding that text; the reparse (incremental,
// with the previous tree) happens when a request or an analysis of a
// snapshot first reads the file, once per text.
type document struct {
	mu         sync.Mutex
	uri        string
	path       string
	lang       grammar.Lang
	languageID string
	version    int32
	// seq counts the document's edits. Staleness is judged by it, not by
	// the client's version, which a client may lower or repeat.
	seq   uint64
	text  []byte
	lines *grammar.Lines // of text

	// parseMu serialises the parses of the document's texts (never held
	// with mu: an edit does not wait for a parse).
	parseMu sync.Mutex
	parser  *grammar.Parser
	file    *grammar.File  // the last parse, the next one's old tree
	masked  []byte         // what file's tree describes (edited to the text of a parse given up)
	mlines  *grammar.Lines // masked's line index
	ended   bool           // closed: parses keep no tree
	// endText ends the last text's context (see docView.ctx).
	endText context.CancelFunc

	// Diagnostics: the cached result and the push schedule.
	pubMu sync.Mutex // serialises analysis+publish of this document
	// cancelRun stops the document's running analysis (a newer schedule
	// calls it).
	cancelRun context.CancelFunc
	cache     diagCache
	flight    *flight // the analysis under way
	timer     *time.Timer
	due       time.Time // when timer fires; zero once it has
	published bool      // diagnostics went out at least once
	showAt    time.Time // an early run's findings wait for it (the debounce floor)
	// pubVersion and pubID identify the last publication (resultID).
	pubVersion int32
	pubID      string
	lastCost   time.Duration
	// deps are the documents the last edit scheduled (their findings read
	// this one); depsSeq is the edit whose analysis looked for new ones
	// (see rescheduleNewDependents).
	deps    []*document
	depsSeq uint64
	// depsDue: an edit's dependents are still to be scheduled (when its
	// debounce ends). publishing: a publication runs; again: another is
	// due after it.
	depsDue, publishing, again bool
	closed                     bool
}

// isSupported reports whether extern-lsp analyses a path (C++ or Python).
func isSupported(path string) bool {
	_, ok := grammar.LangOf(path)
	return ok
}

func newDocument(uri, path, languageID string, version int32, text []byte) *document {
	lang, _ := grammar.LangOf(path)
	return &document{
		uri: uri, path: path, lang: lang, languageID: languageID, version: version,
		text: text, lines: grammar.NewLines(text),
	}
}

// applyChanges applies didChange content changes in order: a change with a
// range replaces that range (positions in UTF-16, clamped to the document),
// one without replaces the whole text.
func (d *document) applyChanges(version int32, changes []contentChange) {
	text := d.text
	lines := d.lines
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
		} else {
			start := offsetOf(lines, c.Range.Start)
			end := offsetOf(lines, c.Range.End)
			if end < start {
				start, end = end, start
			}
			nt := make([]byte, 0, len(text)-int(end-start)+len(c.Text))
			nt = append(nt, text[:start]...)
			nt = append(nt, c.Text...)
			nt = append(nt, text[end:]...)
			text = nt
		}
		lines = grammar.NewLines(text)
	}
	d.text, d.lines, d.version = text, lines, version
	d.seq++
}

// setText replaces the whole text (open, or a full change).
func (d *document) setText(version int32, text []byte) {
	d.text, d.lines, d.version = text, grammar.NewLines(text), version
	d.seq++
}

// view is the document as it is now, for a snapshot (d.mu held).
func (d *document) view() docView {
	return docView{d: d, text: d.text, lines: d.lines, version: d.version, seq: d.seq}
}

// parseFunc parses src, one of the document's texts, for the snapshots
// holding it (the workspace calls it once per text, when first asked),
// until ctx ends: a text the document no longer has is not worth the
// seconds a big file's parse takes, nor the wait of the next text's.
func (d *document) parseFunc(ctx context.Context, src []byte) func() (*grammar.File, error) {
	return func() (*grammar.File, error) {
		d.parseMu.Lock()
		defer d.parseMu.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return d.parse(ctx, src)
	}
}

// parse parses src, reusing the previous tree: it is told the one edit
// that turns the previous parser input into the new one, which the
// common prefix and suffix of the two masked buffers bound. Masking is
// context dependent (a declaration macro is blanked because of the word
// after it), so diffing the masked buffers rather than trusting the
// client's ranges keeps the incremental tree equal to a fresh parse, and
// lets a snapshot older than the last parse be parsed too. Called with
// d.parseMu held.
func (d *document) parse(ctx context.Context, src []byte) (*grammar.File, error) {
	if grammar.IsBinary(src) {
		return nil, grammar.ErrBinary
	}
	if d.ended {
		// Closed: an old snapshot still reading it parses afresh.
		return grammar.ParseFile(context.Background(), nil, d.path, src, nil)
	}
	masked, masks := src, []grammar.Span(nil)
	if d.lang == grammar.CPP {
		masked, masks = grammar.Mask(src)
	}
	if d.parser == nil {
		d.parser = grammar.NewParser(d.lang)
	}
	lines := grammar.NewLines(src)
	var old *grammar.File
	if d.file != nil && d.file.Tree != nil && d.masked != nil {
		old = d.file
		old.Tree.ApplyEdit(diffEdit(d.masked, masked, d.mlines, lines))
	}
	f, err, stopped := parseUntil(ctx, func(ctx context.Context) (*grammar.File, error) {
		return grammar.ParseMasked(ctx, d.parser, d.path, src, masked, masks, lines, old)
	}, len(src))
	if stopped {
		// tree-sitter resumes a cancelled parse on the next input, and
		// the cancel flag its watcher raises may land after the parse.
		d.parser = nil
	}
	if err != nil && stopped && old != nil {
		// The old tree, edited to this text, is the next parse's base.
		d.masked, d.mlines = masked, lines
		return nil, err
	}
	// The Go-side nodes of the old file stay valid for readers still
	// holding it; only the C tree, needed for the next reparse, is freed
	// (an edited tree is no base for another edit).
	d.closeTree()
	if err != nil {
		d.file, d.masked, d.mlines = nil, nil, nil
		return nil, err
	}
	d.file, d.masked, d.mlines = f, masked, f.Lines
	return f, nil
}

// parseUntil runs parse (of a text of size bytes), given up when ctx
// ends, and says whether it was (the parser is then not to be used
// again). The parse runs under a context of its own cancelled only while
// the parse runs: tree-sitter's watcher of a context cancelled later
// could raise the parser's cancel flag after the parse, failing the next
// one. A text under stopBytes is
// not worth stopping (its parse takes a few ms at most): it parses with
// no watcher, one goroutine and thread wake less per keystroke.
func parseUntil(ctx context.Context, parse func(context.Context) (*grammar.File, error), size int) (*grammar.File, error, bool) {
	if size < stopBytes {
		f, err := parse(context.Background())
		return f, err, false
	}
	pctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	running, stopped := true, false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if running {
			stopped = true
			cancel()
		}
	})
	f, err := parse(pctx)
	mu.Lock()
	running = false
	mu.Unlock()
	stop()
	return f, err, stopped
}

// stopBytes is the size from which a document's parse is given up when
// its text is no longer current.
const stopBytes = 64 << 10

// end frees the document's tree once it is closed.
func (d *document) end() {
	d.mu.Lock()
	if d.endText != nil {
		d.endText()
	}
	d.mu.Unlock()
	d.parseMu.Lock()
	defer d.parseMu.Unlock()
	d.closeTree()
	d.file, d.masked, d.mlines, d.ended = nil, nil, nil, true
}

// closeTree frees the C tree of the last parse (d.parseMu held).
func (d *document) closeTree() {
	if d.file != nil && d.file.Tree != nil {
		d.file.Tree.Close()
	}
}

// diffEdit describes the change from a to b as one tree-sitter edit.
func diffEdit(a, b []byte, la, lb *grammar.Lines) grammar.Edit {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	s := 0
	for s < n-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	start, oldEnd, newEnd := uint32(p), uint32(len(a)-s), uint32(len(b)-s)
	sr, sc := la.Position(start)
	or, oc := la.Position(oldEnd)
	nr, nc := lb.Position(newEnd)
	return grammar.Edit{
		StartByte: start, OldEndByte: oldEnd, NewEndByte: newEnd,
		StartRow: uint32(sr), StartCol: uint32(sc),
		OldEndRow: uint32(or), OldEndCol: uint32(oc),
		NewEndRow: uint32(nr), NewEndCol: uint32(nc),
	}
}

// offsetOf converts an LSP position to a byte offset; positions past the end
// of a line or of the file clamp to it.
func offsetOf(l *grammar.Lines, p protocol.Position) uint32 {
	return l.OffsetUTF16(int(p.Line), int(p.Character))
}

// posOf converts a byte offset to an LSP position (UTF-16 columns).
func posOf(l *grammar.Lines, off uint32) protocol.Position {
	line, col := l.PositionUTF16(off)
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func rangeOf(l *grammar.Lines, start, end uint32) protocol.Range {
	return protocol.Range{Start: posOf(l, start), End: posOf(l, end)}
}

// pathOf returns the file path of a file: URI, or "" for other schemes.
func pathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	// file:///C:/x on Windows.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if p == "" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// uriOf returns the file: URI of a path.
func uriOf(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
