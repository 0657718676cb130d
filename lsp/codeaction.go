package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

const (
	// fixAllKind applies every safe fix of a file (codeActionsOnSave).
	fixAllKind = "source.fixAll.extern-lsp"
	// cmdShowDocumentation opens a rule's documentation page; arguments:
	// the rule code.
	cmdShowDocumentation = "extern-lsp.showDocumentation"
)

// kindAllowed applies a code action request's `only` filter: a kind is
// wanted when it equals or refines one of the requested kinds.
func kindAllowed(only []string, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

func (s *view) codeAction(ctx context.Context, doc docRequest, p *codeActionParams) (any, error) {
	path := doc.path
	diags, _, err := s.diagnosticsOf(ctx, path)
	if err != nil {
		return nil, err
	}
	lines := s.linesFor(path)
	start, end := offsetOf(lines, p.Range.Start), offsetOf(lines, p.Range.End)
	if end < start {
		start, end = end, start
	}
	actions := []protocol.CodeAction{}
	if kindAllowed(p.Context.Only, string(protocol.QuickFix)) {
		// The text the findings were computed on, for suppression edits.
		file, _ := s.fileFor(doc.uri)
		suppressed := map[string]bool{}
		documented := map[string]bool{}
		verified := 0
		for _, d := range diags {
			if d.File != path || d.Start > end || d.End < start {
				continue
			}
			pd := s.convert(lines, d)
			preferred := false
			for _, fix := range d.Fixes {
				if fix.Applicability == analysis.DisplayOnly || len(fix.Edits) == 0 {
					continue
				}
				title := fix.Title
				if fix.Applicability == analysis.Unsafe {
					title += " (unsafe: review the change)"
				}
				safe := fix.Applicability == analysis.Safe
				edit := s.workspaceEdit(fix.Edits)
				if edit == nil {
					continue
				}
				// Each fix offered is proved first (verdicts are cached
				// while the unit is unchanged); a request covering many
				// findings proves a bounded number and offers only those.
				if verified++; verified > maxVerifiedFixes {
					continue
				}
				if why := s.recheck.Verify(ctx, s.ws, d, &fix); why != "" {
					s.logf(protocol.MessageTypeLog, "fix not offered: %s", engine.Dropped{File: d.File, Code: d.Code, Title: fix.Title, Why: why})
					continue
				}
				actions = append(actions, protocol.CodeAction{
					Title:       title,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{pd},
					IsPreferred: safe && !preferred,
					Edit:        edit,
				})
				preferred = preferred || safe
			}
			if d.Code == analysis.InternalCode {
				continue
			}
			line, _ := lines.Position(d.Start)
			key := d.Code + "@" + strconv.Itoa(line)
			if !suppressed[key] {
				if file != nil {
					if edit, ok := analysis.SuppressEdit(file, line, d.Code); ok {
						suppressed[key] = true
						if we := s.workspaceEdit([]analysis.TextEdit{edit}); we != nil {
							actions = append(actions, protocol.CodeAction{
								Title:       "Suppress " + d.Code + " on this line",
								Kind:        protocol.QuickFix,
								Diagnostics: []protocol.Diagnostic{pd},
								Edit:        we,
							})
						}
					}
				}
			}
			if !documented[d.Code] {
				documented[d.Code] = true
				title := "Show documentation for " + d.Code
				actions = append(actions, protocol.CodeAction{
					Title:       title,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{pd},
					Command:     &protocol.Command{Title: title, Command: cmdShowDocumentation, Arguments: []any{d.Code}},
				})
			}
		}
	}
	if kindAllowed(p.Context.Only, fixAllKind) {
		if edits := s.fixAllEdits(ctx, path, diags); len(edits) > 0 {
			if we := s.workspaceEdit(edits); we != nil {
				actions = append(actions, protocol.CodeAction{
					Title: "Fix all safe extern-lsp findings",
					Kind:  fixAllKind,
					Edit:  we,
				})
			}
		}
	}
	out := make([]any, 0, len(actions))
	for _, a := range actions {
		out = append(out, a)
	}
	if kindAllowed(p.Context.Only, renumberKind) {
		for _, a := range s.renumberActions(ctx, doc, p.Range) {
			out = append(out, a)
		}
	}
	return out, nil
}

// fixAllEdits applies every safe fix of a file's findings with the
// engine's fixer (the one `check --fix` runs: conflicts wait for the next
// round, fixes that break the parse are dropped, to a fixed point) on a
// fork of the workspace, and returns the difference as edits. diags are
// the file's current findings; only fixes to files the server may edit
// apply.
func (s *view) fixAllEdits(ctx context.Context, path string, diags []analysis.Diagnostic) []analysis.TextEdit {
	opts, ok := s.optionsFor(s.ws, path)
	if !ok {
		return nil
	}
	// Fix-all fixes every finding, the ones past max-findings-per-rule
	// too: when the published list was capped, the first round runs the
	// rules again without the cap, and so do the later ones.
	opts.MaxFindingsPerRule = 0
	capped := false
	for _, d := range diags {
		capped = capped || d.Unlisted != nil && d.File == path
	}
	if capped {
		ds, err := s.analyse(ctx, path, true)
		if err != nil {
			return nil
		}
		diags = ds
	}
	fixable := false
	for _, d := range diags {
		for _, f := range d.Fixes {
			fixable = fixable || d.File == path && d.Suppressed == "" && f.Applicability == analysis.Safe && len(f.Edits) > 0
		}
	}
	if !fixable {
		return nil
	}
	ws := s.ws.Fork()
	only := func(ds []analysis.Diagnostic) []analysis.Diagnostic {
		var out []analysis.Diagnostic
		for _, d := range ds {
			if d.File == path {
				out = append(out, d)
			}
		}
		return out
	}
	fx := engine.Fixer{WS: ws, Allow: s.editable, Recheck: s.recheck, Ctx: ctx, Check: func(round int) ([]analysis.Diagnostic, error) {
		if round == 0 {
			return only(diags), nil
		}
		ds, err := engine.Analyse(ctx, ws, path, opts)
		return only(ds), err
	}}
	out, err := fx.Run()
	if err != nil {
		return nil
	}
	for _, d := range out.Dropped {
		s.logf(protocol.MessageTypeLog, "fix-all left out a fix: %s", d)
	}
	var edits []analysis.TextEdit
	for _, file := range out.Changed(ws) {
		fixed, _ := ws.Source(file)
		edits = append(edits, engine.DiffEdit(file, out.Orig[file], fixed)...)
	}
	return edits
}

// maxVerifiedFixes bounds the fixes one code action request proves: each
// costs an analysis of its unit the first time.
const maxVerifiedFixes = 16

// recheckRun analyses a file of a fork for the fix recheck, under the
// file's settings, every finding listed.
func (s *Server) recheckRun(ctx context.Context, ws *workspace.Workspace, path string, store *unit.Store) ([]analysis.Diagnostic, error) {
	opts, ok := s.optionsFor(ws, path)
	if !ok {
		return nil, nil
	}
	opts.MaxFindingsPerRule = 0
	opts.Store = store
	opts.Budget = s.opts.Budget
	return engine.Analyse(ctx, ws, path, opts)
}

// workspaceEdit converts fix edits (possibly in several files); nil when
// an edit touches a file the server must not change (see editable).
func (s *view) workspaceEdit(edits []analysis.TextEdit) *protocol.WorkspaceEdit {
	byFile := map[string][]analysis.TextEdit{}
	for _, e := range edits {
		if !s.editable(e.File) {
			s.logf(protocol.MessageTypeLog, "not offered: an edit of %s, outside the workspace folders %v (or reached through a symlink leading out)", e.File, s.ws.Roots())
			return nil
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	we := &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}
	for file, es := range byFile {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		lines := s.linesFor(file)
		var out []protocol.TextEdit
		for _, e := range es {
			out = append(out, protocol.TextEdit{Range: rangeOf(lines, e.Start, e.End), NewText: e.NewText})
		}
		we.Changes[protocol.DocumentURI(s.uriFor(file))] = out
	}
	return we
}

// editable reports whether the server may propose edits to a file: one
// inside the workspace folders, also after following symlinks (the same
// boundary `check --fix` writes within). Being open in the editor does not
// make a file editable: a header or stub opened from elsewhere, or through
// a symlink leading out, belongs to another tree.
func (s *Server) editable(path string) bool {
	return fsys.Inside(s.latest().ws.Roots(), path)
}

func (s *Server) executeCommand(ctx context.Context, p *executeCommandParams) (any, error) {
	if p.Command == cmdShowAbiTable {
		var uri string
		if len(p.Arguments) == 0 || json.Unmarshal(p.Arguments[0], &uri) != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s wants a document URI", cmdShowAbiTable)
		}
		return s.showAbiTableCommand(ctx, uri)
	}
	if p.Command == cmdWriteClangdConfig {
		return s.writeClangdConfigCommand(p.Arguments)
	}
	if p.Command != cmdShowDocumentation {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
	}
	var code string
	if len(p.Arguments) == 0 || json.Unmarshal(p.Arguments[0], &code) != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s wants a rule code", cmdShowDocumentation)
	}
	a := s.lookupRule(code)
	if a == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown rule %q", code)
	}
	s.mu.Lock()
	canShow := s.caps.Window != nil && s.caps.Window.ShowDocument != nil && s.caps.Window.ShowDocument.Support
	s.mu.Unlock()
	if canShow {
		var res struct {
			Success bool `json:"success"`
		}
		err := s.call(ctx, "window/showDocument", map[string]any{"uri": a.DocURL(), "external": true}, &res)
		if err == nil && res.Success {
			return nil, nil
		}
	}
	s.notify("window/showMessage", &protocol.ShowMessageParams{
		Type:    protocol.MessageTypeInfo,
		Message: a.Code + " " + a.Name + ": " + a.Doc.Summary + " — " + a.DocURL(),
	})
	return nil, nil
}

// lookupRule finds one of the server's analyzers by code or name.
func (s *Server) lookupRule(codeOrName string) *analysis.Analyzer {
	return analysis.Lookup(s.opts.Analyzers, codeOrName)
}
