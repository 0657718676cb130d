package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/clangd"
)

// cmdWriteClangdConfig writes the project's .clangd for the core of the
// per-core view (vector when the view is off); arguments: optionally
// {"core": "cube"|"vector", "format": "clangd"|"compile_flags"}. It
// answers {path, core}. Once written, switching the view rewrites it, so
// clangd's inactive regions stay the ones the view dims.
const cmdWriteClangdConfig = "extern-lsp.writeClangdConfig"

type clangdConfigArgs struct {
	Core   string `json:"core"`
	Format string `json:"format"`
}

type clangdConfigResult struct {
	Path string `json:"path"`
	Core string `json:"core"`
}

func (s *Server) writeClangdConfigCommand(args []json.RawMessage) (any, error) {
	var a clangdConfigArgs
	if len(args) > 0 {
		if err := json.Unmarshal(args[0], &a); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", cmdWriteClangdConfig, err)
		}
	}
	if a.Core == "" {
		a.Core = s.coreView()
	}
	if a.Format == "" {
		a.Format = clangd.FormatClangd
	}
	res, err := s.writeClangdConfig(a.Core, a.Format)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	return res, nil
}

func (s *Server) writeClangdConfig(view, format string) (clangdConfigResult, error) {
	core, err := clangd.CoreOf(view)
	if err != nil {
		return clangdConfigResult{}, err
	}
	ws := s.current().ws
	roots := ws.Roots()
	if len(roots) == 0 {
		return clangdConfigResult{}, errNoRoot
	}
	data := clangd.Render(format, core, clangd.Flags(core, ws.IncludeDirs()))
	path, err := clangd.Write(roots[0], format, data)
	if err != nil {
		return clangdConfigResult{}, err
	}
	s.logf(protocol.MessageTypeInfo, "wrote %s (core: %s)", path, core)
	return clangdConfigResult{Path: path, Core: core}, nil
}

var errNoRoot = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no workspace folder to write the clangd configuration into")

// followCoreView rewrites the clangd configuration files extern-lsp wrote
// (and only those) for the view's core.
func (s *Server) followCoreView() {
	roots := s.current().ws.Roots()
	if len(roots) == 0 {
		return
	}
	for _, format := range []string{clangd.FormatClangd, clangd.FormatCompileFlags} {
		if _, err := os.Stat(filepath.Join(roots[0], clangd.FileName(format))); err != nil {
			continue
		}
		if _, err := s.writeClangdConfig(s.coreView(), format); err != nil {
			s.logf(protocol.MessageTypeLog, "clangd configuration not switched: %v", err)
		}
	}
}
