package lsp

import (
	"context"
	"errors"
	"maps"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Snapshots, in gopls's manner: every change of the session's inputs (an
// edit, an open or close, a file changed on disk, a folder added) makes a
// new snapshot, a fork of the previous workspace with the change applied;
// a request reads the snapshot current when it started, start to end,
// whatever edits arrive meanwhile, and no handler flushes anything. A
// document's new text is made a snapshot when something next reads one:
// a burst of keystrokes (or an editor opening 200 files) nobody read in
// between becomes one fork, not one per message, each dropping the
// include units the next would rebuild.
// Forks share the parses and facts of the files the change left alone
// (workspace.Fork), and a document's new text is parsed (incrementally)
// when first read, once for every snapshot holding it.
//
// A snapshot's workspace is not changed after it is made, but for what is
// derived from its inputs lazily: parses, include resolutions, the index
// walk, the include folders of the project configuration.

// snapshot is the session's inputs at one moment.
type snapshot struct {
	gen  uint64
	ws   *workspace.Workspace
	docs map[string]docView // the open documents, by path
}

// docView is an open document's text in one snapshot.
type docView struct {
	d       *document
	text    []byte
	lines   *grammar.Lines
	version int32
	seq     uint64
	// ctx ends once the document has a newer text (or is closed): the
	// parse of this text is given up then.
	ctx context.Context
}

// current returns the snapshot requests read now, holding every text
// the editor sent so far (nil before initialize).
func (s *Server) current() *snapshot {
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	if len(s.texts) > 0 {
		s.snap = s.nextLocked(nil)
	}
	return s.snap
}

// latest returns the last snapshot made, without making one for the
// texts not read yet: for bookkeeping that reads no document's text (the
// include graph of the open documents, the roots, the parse budget).
func (s *Server) latest() *snapshot {
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	return s.snap
}

// textChanged records an open document's new text (an edit, an open):
// the next snapshot read holds it.
func (s *Server) textChanged(d *document) {
	d.mu.Lock()
	dv := d.view()
	end := d.endText
	dv.ctx, d.endText = context.WithCancel(s.ctx)
	d.mu.Unlock()
	s.snapMu.Lock()
	if s.texts == nil {
		s.texts = map[string]docView{}
	}
	s.texts[d.path] = dv
	s.snapMu.Unlock()
	if end != nil {
		// The previous text's parse is given up only once the new text is
		// pending: a run that found it given up finds a newer snapshot
		// (Server.superseded) and publishes nothing from it.
		end()
	}
	s.invalidate()
}

// change makes the next snapshot: the current one with the texts not yet
// in a snapshot and fn applied to a fork of its workspace and to its
// documents. Changes are serialised; the readers of the previous
// snapshot are not disturbed.
func (s *Server) change(fn func(ws *workspace.Workspace, docs map[string]docView)) *snapshot {
	s.snapMu.Lock()
	next := s.nextLocked(fn)
	s.snap = next
	s.snapMu.Unlock()
	s.invalidate()
	return next
}

// nextLocked makes the snapshot after s.snap (s.snapMu held).
func (s *Server) nextLocked(fn func(ws *workspace.Workspace, docs map[string]docView)) *snapshot {
	cur := s.snap
	next := &snapshot{gen: cur.gen + 1, ws: cur.ws.Fork(), docs: maps.Clone(cur.docs)}
	if next.docs == nil {
		next.docs = map[string]docView{}
	}
	for path, dv := range s.texts {
		next.ws.SetOverlayParse(path, dv.text, dv.version, dv.d.parseFunc(dv.ctx, dv.text))
		next.docs[path] = dv
	}
	clear(s.texts)
	if fn != nil {
		fn(next.ws, next.docs)
	}
	return next
}

// file returns the parse of path in the snapshot (an open document's
// text or the disk).
func (sn *snapshot) file(path string) (*grammar.File, error) {
	f, err := sn.ws.File(path)
	if err == nil && f == nil {
		err = errors.New("document not parsed")
	}
	return f, err
}

// lines returns the line index of path's text in the snapshot.
func (sn *snapshot) lines(path string) *grammar.Lines {
	if dv, ok := sn.docs[path]; ok {
		return dv.lines
	}
	if f, err := sn.ws.File(path); err == nil && f != nil {
		return f.Lines
	}
	if src, err := sn.ws.Source(path); err == nil {
		return grammar.NewLines(src)
	}
	return grammar.NewLines(nil)
}

// view is one reading of the session: a snapshot and the context of the
// request (or background run) reading it, which reaches the analysis
// core: a cancelled request stops its analysis. Feature code is written
// on it; s.ws is the snapshot's workspace.
type view struct {
	*Server
	snap *snapshot
	ws   *workspace.Workspace
	rctx context.Context
	// ran is what the view's analyses cost: their CPU, at most the time
	// they ran (not waited for a slot).
	ran atomic.Int64
}

// viewOf acquires the current snapshot for a reader running under ctx.
func (s *Server) viewOf(ctx context.Context) *view {
	sn := s.current()
	return &view{Server: s, snap: sn, ws: sn.ws, rctx: ctx}
}

// fileFor returns the parsed file for a URI in the view's snapshot.
func (s *view) fileFor(uri string) (*grammar.File, error) {
	path := pathOf(uri)
	if path == "" {
		return nil, errors.New("not a file URI: " + uri)
	}
	return s.snap.file(path)
}

// linesFor returns the line index of a file's text in the view's snapshot.
func (s *view) linesFor(path string) *grammar.Lines { return s.snap.lines(path) }
