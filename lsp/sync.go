package lsp

import (
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Document sync: open buffers become workspace overlays; saves, watched
// files, settings and folder changes invalidate what they touch. Requests
// read documents through snapshot/fileFor.

// invalidate records that some input changed: every cached result is stale
// and long-polling workspace diagnostics wake up.
func (s *Server) invalidate() {
	s.gen.Add(1)
	s.mu.Lock()
	close(s.genCh)
	s.genCh = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.genCh
}

func (s *Server) didOpen(p *didOpenParams) error {
	path := pathOf(p.TextDocument.URI)
	if path == "" || !isSupported(path) {
		return nil
	}
	s.mu.Lock()
	auto := s.autoRoots
	s.mu.Unlock()
	if auto {
		// Before the document is listed: no run may see it without its root.
		s.addProjectRoot(path)
	}
	d := newDocument(p.TextDocument.URI, path, p.TextDocument.LanguageID, p.TextDocument.Version, []byte(p.TextDocument.Text))
	s.mu.Lock()
	if old := s.docs[path]; old != nil {
		old.mu.Lock()
		old.closed = true
		if old.timer != nil {
			old.timer.Stop()
		}
		old.mu.Unlock()
		old.end()
	}
	s.docs[path] = d
	s.mu.Unlock()
	s.textChanged(d)
	s.edited(d, true)
	return nil
}

// addProjectRoot makes the project root of a file opened outside every
// root a workspace folder, when the client named none: without a root no
// stub is found, and hovers, hints and definitions would be empty.
func (s *Server) addProjectRoot(path string) {
	for _, r := range s.latest().ws.Roots() {
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) {
			return
		}
	}
	root := workspace.ProjectRoot(path)
	s.logf(protocol.MessageTypeLog, "no workspace folder from the client: using %s for %s", root, path)
	s.change(func(ws *workspace.Workspace, _ map[string]docView) { ws.AddRoot(root) })
	s.reloadFileSettings()
	s.mu.Lock()
	others := len(s.docs) > 0
	s.mu.Unlock()
	if others {
		// Files already open may belong to the new root's units.
		s.pending.Add(1)
		go func() {
			defer s.pending.Done()
			s.afterExternalChange("")
		}()
	}
}

func (s *Server) didChange(p *didChangeParams) error {
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return nil
	}
	d.mu.Lock()
	d.applyChanges(p.TextDocument.Version, p.ContentChanges)
	d.mu.Unlock()
	s.textChanged(d)
	s.edited(d, false)
	return nil
}

func (s *Server) didSave(p *didSaveParams) error {
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		// A file saved without being open (or not ours): reread it.
		if path := pathOf(p.TextDocument.URI); path != "" && s.latest() != nil {
			if isConfigFile(path) {
				s.reloadFileSettings()
				s.invalidate()
			} else {
				s.change(func(ws *workspace.Workspace, _ map[string]docView) { ws.Invalidate(path) })
			}
			s.afterExternalChange(path)
		}
		return nil
	}
	if p.Text != nil {
		d.mu.Lock()
		changed := string(d.text) != *p.Text
		if changed {
			d.setText(d.version, []byte(*p.Text))
		}
		d.mu.Unlock()
		if changed {
			s.textChanged(d)
		}
	}
	return nil
}

func (s *Server) didClose(p *didCloseParams) error {
	path := pathOf(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[path]
	delete(s.docs, path)
	if s.focus == d {
		s.focus = nil
	}
	pull := s.pull
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	d.mu.Lock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.cancelRun != nil {
		// Its findings will not be published, and facts computed from the
		// closed buffer after the sweep below would outlive it.
		d.cancelRun()
	}
	d.mu.Unlock()
	d.end()
	sn := s.change(func(ws *workspace.Workspace, docs map[string]docView) {
		ws.ClearOverlay(path)
		delete(docs, path)
	})
	// The closed buffer's parse is no longer current: release the facts
	// of its units, and the parses of the headers only it read (past the
	// budget of recent ones).
	s.store.Sweep(sn.ws)
	if !pull {
		d.pubMu.Lock()
		s.notify("textDocument/publishDiagnostics", publishParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
		d.pubMu.Unlock()
	}
	s.trimParses()
	s.rediagnoseAll(d)
	return nil
}

func (s *Server) didChangeConfiguration(p *didChangeConfigurationParams) error {
	// Editors send this for a change of any extension's settings: ours
	// unchanged re-diagnose nothing.
	if ed, ok := parseSettings(p.Settings); ok {
		if s.setEditorSettings(ed) {
			s.configChanged()
		}
		return nil
	}
	// Settings not pushed (or not ours): pull them.
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		if s.fetchConfiguration() {
			s.configChanged()
		}
	}()
	return nil
}

// configChanged re-diagnoses everything: pushed documents are republished,
// pulling clients are asked to pull again.
func (s *Server) configChanged() {
	s.cfgGen.Add(1)
	s.invalidate()
	s.rediagnoseAll(nil)
	s.refreshPull(0)
	s.refreshSemanticTokens()
	s.followCoreViewChange()
}

// followCoreViewChange switches the clangd configuration extern-lsp wrote
// when the per-core view switched (not for the settings the server
// starts with).
func (s *Server) followCoreViewChange() {
	view := s.coreView()
	s.mu.Lock()
	prev, seen := s.clangdView, s.clangdSeen
	s.clangdView, s.clangdSeen = view, true
	s.mu.Unlock()
	if seen && view != prev {
		s.followCoreView()
	}
}

func (s *Server) didChangeWatchedFiles(p *didChangeWatchedFilesParams) error {
	cfg := false
	var disk []string
	for _, c := range p.Changes {
		path := pathOf(c.URI)
		if path == "" {
			continue
		}
		if isConfigFile(path) {
			cfg = true
			continue
		}
		if s.doc(c.URI) != nil {
			continue // the editor buffer wins over the disk
		}
		disk = append(disk, path)
	}
	s.change(func(ws *workspace.Workspace, _ map[string]docView) {
		for _, path := range disk {
			ws.Invalidate(path)
		}
	})
	if cfg {
		s.reloadFileSettings()
	}
	s.afterExternalChange("")
	return nil
}

func (s *Server) afterExternalChange(string) {
	s.cfgGen.Add(1)
	s.invalidate()
	s.rediagnoseAll(nil)
	s.refreshPull(0)
	s.refreshInlay(0)
}

func (s *Server) didChangeWorkspaceFolders(p *didChangeFoldersParams) error {
	s.change(func(ws *workspace.Workspace, _ map[string]docView) {
		for _, f := range p.Event.Removed {
			if path := pathOf(f.URI); path != "" {
				ws.RemoveRoot(path)
			}
		}
		for _, f := range p.Event.Added {
			if path := pathOf(f.URI); path != "" {
				ws.AddRoot(path)
			}
		}
	})
	s.reloadFileSettings()
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		s.index()
		s.afterExternalChange("")
	}()
	return nil
}

// doc returns the open document for a URI.
func (s *Server) doc(uri string) *document {
	path := pathOf(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[path]
}

func (s *Server) openDocs() []*document {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// uriFor returns the URI the client uses for a path.
func (s *Server) uriFor(path string) string {
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d != nil {
		return d.uri
	}
	return uriOf(path)
}

func isConfigFile(path string) bool {
	switch filepath.Base(path) {
	case "pyproject.toml", "extern-lsp.toml", ".extern-lsp.toml":
		return true
	}
	return false
}
