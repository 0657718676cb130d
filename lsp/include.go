package lsp

// An #include's hover and definition: the file it names and which search
// found it (the workspace's one include resolution), or why none did.

import (
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// includeAt is the #include of f whose path spans off, if any, with the
// file's configuration applied to the workspace (build-includes,
// include-dirs), as an analysis of f would.
func (s *view) includeAt(f *grammar.File, off uint32) (grammar.Include, bool) {
	for _, inc := range f.Includes {
		if off >= inc.Start && off < inc.End {
			s.projectConfig(s.ws, f.Path)
			return inc, true
		}
	}
	return grammar.Include{}, false
}

// hoverInclude names the file an #include resolves to and the search
// that found it.
func (s *view) hoverInclude(f *grammar.File, off uint32) *protocol.Hover {
	inc, ok := s.includeAt(f, off)
	if !ok {
		return nil
	}
	r := s.ws.Resolve(f.Path, inc)
	var md string
	switch r.Source {
	case workspace.FromFolder:
		md = "beside the including file"
	case workspace.FromConfig:
		md = "in a folder of `-I`, `include-dirs` or a stub's `include_dirs`"
	case workspace.FromBuild:
		md = fmt.Sprintf("in a folder `%s` names", s.relPath(r.By))
	case workspace.FromSuffix:
		md = fmt.Sprintf("no folder of the build holds it: the one file of the workspace whose path ends with `%s`", inc.Path)
		if r.Candidates > 1 {
			md = fmt.Sprintf("no folder of the build holds it: of the %d files of the workspace whose path ends with `%s`, the one sharing the most folders with this file", r.Candidates, inc.Path)
		}
	default:
		switch {
		case inc.System || workspace.IsSDKHeader(inc.Path):
			md = "not in the workspace (a toolkit or system header)"
		case workspace.IsRuntimeHeader(inc.Path):
			md = "not in the workspace: the pypto runtime's kernel header (the Tensor descriptor, the `get_block_idx(args)` family). In runtime-ABI code the analysis takes it for the runtime's; elsewhere what it declares is unknown (add its folder to `include-dirs`)"
		case r.Ambiguous():
			md = fmt.Sprintf("not resolved: %d files of the workspace end with `%s` and none is nearer this file than the others; name its folder in `include-dirs`", r.Candidates, inc.Path)
		default:
			md = "not resolved: no folder searched holds it; what it declares is unknown to the analysis (add its folder to `include-dirs`)"
		}
		return markdownHover(f.Lines, inc.Start, inc.End, "**"+inc.Path+"**\n\n"+md)
	}
	return markdownHover(f.Lines, inc.Start, inc.End, fmt.Sprintf("**%s**\n\n`%s`, found %s", inc.Path, s.relPath(r.Path), md))
}

// relPath is path relative to the workspace folder holding it.
func (s *view) relPath(path string) string {
	for _, r := range s.ws.Roots() {
		if rel, err := filepath.Rel(r, path); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

// definitionOfInclude is the file an #include at off names.
func (s *view) definitionOfInclude(f *grammar.File, off uint32) []protocol.Location {
	if inc, ok := s.includeAt(f, off); ok {
		if p := s.ws.ResolveInclude(f.Path, inc); p != "" {
			return []protocol.Location{s.location(p, 0, 0)}
		}
	}
	return nil
}
