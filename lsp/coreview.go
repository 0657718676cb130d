package lsp

import (
	"context"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// The per-core view dims the lines the chosen core does not compile or
// run: what its device compile drops (`#ifdef __DAV_C220_CUBE__` in the
// vector view) and the branches of `if ASCEND_IS_AIV {` & co. it never
// takes, as the rules' core model (grammar.File.CoresOf) decides them.
// The view is the coreView setting ("cube", "vector", "off"). Clients get
// it two ways: the externLsp/inactiveRegions request (VS Code and Neovim
// draw their own dimming, like clangd's inactive regions), and semantic
// tokens of type "comment" on those lines for any other client.

// Core views.
const (
	coreViewOff    = "off"
	coreViewCube   = "cube"
	coreViewVector = "vector"
)

// coreOfView maps a view to the core it shows; ok is false for "off" or an
// unknown word.
func coreOfView(view string) (grammar.Cores, bool) {
	switch strings.ToLower(view) {
	case coreViewCube, "aic":
		return grammar.AIC, true
	case coreViewVector, "vec", "aiv":
		return grammar.AIV, true
	}
	return grammar.None, false
}

type inactiveRegionsParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	// Core overrides the coreView setting for this request.
	Core string `json:"core,omitempty"`
}

func (p inactiveRegionsParams) document() textDocumentIdentifier { return p.TextDocument }

type inactiveRegionsResult struct {
	// Core is the view the regions are for ("off" when none).
	Core    string           `json:"core"`
	Regions []protocol.Range `json:"regions"`
}

func (s *Server) coreView() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := coreOfView(s.settings.CoreView); ok {
		return strings.ToLower(s.settings.CoreView)
	}
	return coreViewOff
}

func (s *view) inactiveRegions(ctx context.Context, doc docRequest, p *inactiveRegionsParams) (any, error) {
	view := p.Core
	if view == "" {
		view = s.coreView()
	}
	core, ok := coreOfView(view)
	res := inactiveRegionsResult{Core: coreViewOff, Regions: []protocol.Range{}}
	if !ok {
		return res, nil
	}
	res.Core = strings.ToLower(view)
	if l, _ := grammar.LangOf(doc.path); l != grammar.CPP {
		return res, nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return res, nil
	}
	for _, r := range inactiveLines(ctx, f, core) {
		res.Regions = append(res.Regions, protocol.Range{
			Start: protocol.Position{Line: uint32(r[0])},
			End:   posOf(f.Lines, f.Lines.LineEnd(r[1])),
		})
	}
	return res, nil
}

// inactiveLines returns the [first, last] line runs the core does not
// compile or run. Preprocessor lines stay lit (they are what decides);
// blank lines join the run around them.
func inactiveLines(ctx context.Context, f *grammar.File, core grammar.Cores) [][2]int {
	var out [][2]int
	run := -1
	lastDim := -1
	for line := 0; line < f.Lines.Count(); line++ {
		if line%256 == 0 && ctx.Err() != nil {
			return nil
		}
		start := f.Lines.LineStart(line)
		end := f.Lines.LineEnd(line)
		off := start
		for off < end && (f.Src[off] == ' ' || f.Src[off] == '\t') {
			off++
		}
		if off == end {
			continue // blank: decided by its neighbours
		}
		dim := false
		if f.Src[off] != '#' {
			// The guards are asked at the line itself: a line that starts
			// with a masked qualifier (`__gm__ float *p = ...`) lands in
			// the node around it (the function body), which begins
			// outside the #ifdef.
			n := f.Tree.NodeAt(off, off)
			dim = f.Guards.CoresAt(off)&f.CoresOf(n)&core == 0
		}
		if dim {
			if run < 0 {
				run = line
			}
			lastDim = line
			continue
		}
		if run >= 0 {
			out = append(out, [2]int{run, lastDim})
			run = -1
		}
	}
	if run >= 0 {
		out = append(out, [2]int{run, lastDim})
	}
	return out
}

// semanticLegend is the one token type the server emits.
var semanticLegend = map[string]any{"tokenTypes": []string{"comment"}, "tokenModifiers": []string{}}

type semanticTokens struct {
	Data []uint32 `json:"data"`
}

// semanticTokensFull marks the inactive lines of the current view as
// comments (one token per line: clients do not all take multi-line
// tokens).
func (s *view) semanticTokensFull(ctx context.Context, doc docRequest, p *abiTableParams) (any, error) {
	res := semanticTokens{Data: []uint32{}}
	core, ok := coreOfView(s.coreView())
	if !ok {
		return res, nil
	}
	if l, _ := grammar.LangOf(doc.path); l != grammar.CPP {
		return res, nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return res, nil
	}
	prev := 0
	for _, r := range inactiveLines(ctx, f, core) {
		for line := r[0]; line <= r[1]; line++ {
			start := f.Lines.LineStart(line)
			end := f.Lines.LineEnd(line)
			if end == start {
				continue
			}
			n := posOf(f.Lines, end).Character
			res.Data = append(res.Data, uint32(line-prev), 0, n, 0, 0)
			prev = line
		}
	}
	return res, nil
}

// refreshSemanticTokens asks the client to request the tokens again (the
// view changed).
func (s *Server) refreshSemanticTokens() {
	s.mu.Lock()
	ok := s.caps.Workspace != nil && s.caps.Workspace.SemanticTokens != nil && s.caps.Workspace.SemanticTokens.RefreshSupport
	s.mu.Unlock()
	if !ok {
		return
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		if err := s.call(ctx, "workspace/semanticTokens/refresh", nil, nil); err != nil {
			s.logf(protocol.MessageTypeLog, "workspace/semanticTokens/refresh: %v", err)
		}
	}()
}
