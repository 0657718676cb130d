package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/coverage"
)

// The server's status is what the workspace keeps it from seeing (see
// package coverage): a folder opened below its stubs turns hovers, inlay
// hints and the args[] rules off, and without a word the editor would
// look healthy. After each index the server sends the notification
// externLsp/status ({ok, gaps: [{kind, message, fix, paths, root}]});
// externLsp/status as a request returns the same. A client that shows it
// itself (VS Code's status item, the Neovim plugin) says so with the
// experimental capability externLspStatus; any other client gets the
// gaps as one window/showMessage warning.

type statusResult struct {
	OK   bool           `json:"ok"`
	Gaps []coverage.Gap `json:"gaps"`
}

func (s *Server) status(context.Context, *struct{}) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return statusResult{OK: len(s.gaps) == 0, Gaps: append([]coverage.Gap{}, s.gaps...)}, nil
}

// reportGaps records the gaps and tells the client.
func (s *Server) reportGaps(gaps []coverage.Gap) {
	if gaps == nil {
		gaps = []coverage.Gap{}
	}
	s.mu.Lock()
	s.gaps = gaps
	shows := s.caps.Experimental != nil && s.caps.Experimental.ExternLspStatus
	s.mu.Unlock()
	for _, g := range gaps {
		s.logf(protocol.MessageTypeWarning, "%s", g.String())
	}
	// The warning goes first: a client that sees the status has seen it.
	if !shows && len(gaps) > 0 {
		lines := make([]string, 0, len(gaps))
		for _, g := range gaps {
			lines = append(lines, g.String())
		}
		s.notify("window/showMessage", &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "extern-lsp: " + strings.Join(lines, "\n")})
	}
	s.notify("externLsp/status", statusResult{OK: len(gaps) == 0, Gaps: gaps})
}
