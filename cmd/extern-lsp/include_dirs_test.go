package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// An exit-drain helper in a folder the build passes with -I: found through
// `-I DIR` or `include-dirs`, its drain counts; without either the finding
// says it could not see the helper, at info.
func TestIncludeDirs(t *testing.T) {
	pinRules(t, rules.MissingPipeDrain)
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("kernels", 0o755)
	os.MkdirAll("sdk/incore", 0o755)
	os.WriteFile("sdk/incore/exit_sync.h", []byte("#pragma once\nstatic __aicore__ inline void exit_sync() {\n  pipe_barrier(PIPE_ALL);\n}\n"), 0o644)
	os.WriteFile("kernels/k.cpp", []byte("#include \"exit_sync.h\"\nextern \"C\" __aicore__ void k(__gm__ int64_t *args) {\n  TSTORE(outGlobal, outTile);\n  exit_sync();\n}\n"), 0o644)

	r := runCmd("check", "--no-progress", "kernels")
	if r.code != 0 || !strings.Contains(r.stdout, "info: ") || !strings.Contains(r.stdout, "unless `exit_sync()` drains it") {
		t.Errorf("unresolved: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd("check", "--no-progress", "-I", filepath.Join("sdk", "incore"), "kernels")
	if r.code != 0 || !strings.Contains(r.stdout, "0 errors, 0 warnings, 0 infos") {
		t.Errorf("-I: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile("extern-lsp.toml", []byte("include-dirs = [\"sdk/incore\"]\n"), 0o644)
	r = runCmd("check", "--no-progress", "kernels")
	if r.code != 0 || !strings.Contains(r.stdout, "0 errors, 0 warnings, 0 infos") {
		t.Errorf("include-dirs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile("extern-lsp.toml", []byte("include-dirs = \"sdk\"\n"), 0o644)
	if r = runCmd("check", "--no-progress", "kernels"); r.code != 2 || !strings.Contains(r.stderr, "include-dirs") {
		t.Errorf("bad include-dirs: exit %d %s", r.code, r.stderr)
	}
}
