package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClangdConfig: the flags clangd needs for extern sources (the
// qualifiers defined away, one core's macros, the include folders), printed
// or written into the project root through the one write path; a second
// --write switches the core; a .clangd the user wrote is left alone.
func TestClangdConfig(t *testing.T) {
	dir := trapsTree(t)
	inc := t.TempDir()
	r := runBinary(t, dir, "clangd-config", "-I", inc, ".")
	if r.code != 0 {
		t.Fatalf("clangd-config: exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`"-D__gm__="`, `"-D__aicore__="`, `"-D__global__="`, `"-D__ubuf__="`, `"-D__DAV_C220_VEC__=1"`, `"-D__DAV_VEC__=1"`, `"-I` + inc + `"`, "CompileFlags:\n  Add:\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("clangd-config: no %s in\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "CUBE") {
		t.Errorf("the vector core's flags define a cube macro:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, ".clangd")); err == nil {
		t.Error("clangd-config without --write wrote .clangd")
	}

	r = runBinary(t, dir, "clangd-config", "--write", "--core", "cube", "kernels")
	got, err := os.ReadFile(filepath.Join(dir, ".clangd"))
	if r.code != 0 || err != nil || !strings.Contains(string(got), `"-D__DAV_C220_CUBE__=1"`) || strings.Contains(string(got), "VEC__") {
		t.Fatalf("--write --core cube: exit %d %s, .clangd (%v):\n%s", r.code, r.stderr, err, got)
	}
	if want := "wrote " + filepath.Join(dir, ".clangd") + " (core: cube)"; !strings.Contains(r.stdout, want) {
		t.Errorf("--write said %q, want %q", r.stdout, want)
	}
	r = runBinary(t, dir, "clangd-config", "--write", "--core", "vector", ".")
	if got, _ := os.ReadFile(filepath.Join(dir, ".clangd")); r.code != 0 || !strings.Contains(string(got), `"-D__DAV_C220_VEC__=1"`) {
		t.Errorf("switching to the vector core: exit %d %s\n%s", r.code, r.stderr, got)
	}

	r = runBinary(t, dir, "clangd-config", "--write", "--format", "compile_flags", ".")
	if got, _ := os.ReadFile(filepath.Join(dir, "compile_flags.txt")); r.code != 0 || !strings.Contains(string(got), "\n-D__gm__=\n") {
		t.Errorf("compile_flags.txt: exit %d %s\n%s", r.code, r.stderr, got)
	}

	mine := "CompileFlags:\n  Add: [-DMINE]\n"
	if err := os.WriteFile(filepath.Join(dir, ".clangd"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, dir, "clangd-config", "--write", ".")
	if got, _ := os.ReadFile(filepath.Join(dir, ".clangd")); r.code != 2 || string(got) != mine || !strings.Contains(r.stderr, "was not written by extern-lsp clangd-config") {
		t.Errorf("a user's .clangd: exit %d %s, now:\n%s", r.code, r.stderr, got)
	}
	if r := runBinary(t, dir, "clangd-config", "--core", "both", "."); r.code != 2 || !strings.Contains(r.stderr, `unknown core "both"`) {
		t.Errorf("--core both: exit %d %s", r.code, r.stderr)
	}
}
