package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// A code lens above each extern entry (and each stub) sums the extern up,
// "args: 17 tensors, 2 scalars · mixed · needs sync_start", and opens its
// args[] table. The command is the clients' own (VS Code and Neovim show
// the externLsp/abiTable markdown in a view); it is not advertised in
// executeCommandProvider, which would make vscode-languageclient register
// the same id a second time. A client without it that sends the command to
// the server gets the markdown back.
const cmdShowAbiTable = "externLsp.showAbiTable"

type codeLens struct {
	Range   protocol.Range    `json:"range"`
	Command *protocol.Command `json:"command,omitempty"`
}

func (s *view) codeLens(ctx context.Context, doc docRequest, p *abiTableParams) (any, error) {
	lenses := []codeLens{}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return lenses, nil
	}
	add := func(start, end uint32, st *abi.Stub, named bool) {
		title := s.lensTitle(st)
		if named {
			title = st.Name + " · " + title
		}
		lenses = append(lenses, codeLens{
			Range:   rangeOf(f.Lines, start, end),
			Command: &protocol.Command{Title: title, Command: cmdShowAbiTable, Arguments: []any{doc.uri}},
		})
	}
	if f.Lang == grammar.Python {
		for _, st := range s.ws.StubsFor(f.Path) {
			add(st.DefStart, st.DefStart, st, false)
		}
		return lenses, nil
	}
	stubs := s.ws.StubsForEntry(f.Path)
	if len(stubs) == 0 {
		return append(lenses, s.launchLenses(f)...), nil
	}
	entries, _ := cxx.Entries(f)
	for i, fn := range entries {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The stubs named like this entry; with none, every stub of the
		// file goes on its first entry.
		var mine []*abi.Stub
		for _, st := range stubs {
			if st.Name == cxx.FunctionName(fn) {
				mine = append(mine, st)
			}
		}
		if len(mine) == 0 && i == 0 {
			mine = stubs
		}
		start := declStart(fn)
		for _, st := range mine {
			add(start, start, st, len(mine) > 1 || st.Name != cxx.FunctionName(fn))
		}
	}
	return lenses, nil
}

// lensTitle is the one-line summary of an extern.
func (s *view) lensTitle(st *abi.Stub) string {
	parts := []string{"args: " + plural(st.Tensors, "tensor") + ", " + plural(st.Scalars, "scalar"), coreOf(st)}
	if st.DualAIVDispatch {
		parts = append(parts, "dual_aiv_dispatch")
	}
	if s.usesBarrier(st) {
		parts = append(parts, "needs sync_start")
	}
	return strings.Join(parts, " · ")
}

// usesBarrier reports whether the extern's C++ waits at a hardware
// barrier its entries' instantiations compile, which is what makes a
// pl.spmd launch need sync_start=True (EXT104's judgement: u.Sync()).
func (s *view) usesBarrier(st *abi.Stub) bool {
	for _, e := range s.ws.StubEntries(st) {
		if u := s.store.ForEntry(s.rctx, s.ws, e); u != nil && u.Sync().Barrier != nil {
			return true
		}
	}
	return false
}

// showAbiTableCommand answers the lens command for clients that send it to
// the server: the markdown of externLsp/abiTable.
func (s *Server) showAbiTableCommand(ctx context.Context, uri string) (any, error) {
	path := pathOf(uri)
	if path == "" || !isSupported(path) {
		return notOurFile(), nil
	}
	return s.viewOf(ctx).abiTable(ctx, docRequest{uri: uri, path: path}, &abiTableParams{})
}
