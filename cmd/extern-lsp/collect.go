package main

import "github.com/extern-lsp/extern-lsp/analysis/workspace"

// rootFor is the workspace root of a command-line path: --root, else the
// project root (workspace.ProjectRoot, the rule the server and the editor
// clients share).
func (r *checkRun) rootFor(path string) string {
	if r.flags.root != "" {
		return r.flags.root
	}
	return workspace.ProjectRoot(path)
}
