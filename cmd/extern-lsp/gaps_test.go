package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSaysWhatIsMissing: a run that cannot see the stubs or the
// includes says so on stderr, with the fix, instead of reporting fewer
// findings without a word.
func TestCheckSaysWhatIsMissing(t *testing.T) {
	dir := trapsTree(t)
	// The whole project: nothing is missing.
	if r := runBinary(t, dir, "check", "--no-progress", "."); strings.Contains(r.stderr, "stub") || strings.Contains(r.stderr, "include folder") {
		t.Errorf("check of the whole project reports a gap:\n%s", r.stderr)
	}
	// Only the kernels folder: the stub is above it.
	kernels := filepath.Join(dir, "kernels")
	r := runBinary(t, dir, "check", "--no-progress", "--root", kernels, kernels)
	for _, want := range []string{"--root (" + kernels + ") is below the stubs of its 1 extern entry", "args[] rules, hovers and inlay hints", "open " + dir + " instead (or pass --root " + dir + ")"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--root kernels: no %q in\n%s", want, r.stderr)
		}
	}
	// A root with neither a stub nor an entry.
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "util.h"), []byte("inline int f() { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, dir, "check", "--no-progress", "--root", empty, empty)
	if !strings.Contains(r.stderr, "--root ("+empty+") holds no `@pl.jit.extern` stub and no extern entry") || !strings.Contains(r.stderr, "point --root at the project") {
		t.Errorf("--root with nothing in it:\n%s", r.stderr)
	}
	// An -I that does not exist.
	r = runBinary(t, dir, "check", "--no-progress", "-I", "no/such/dir", ".")
	if !strings.Contains(r.stderr, "include folder "+filepath.Join(dir, "no", "such", "dir")+" does not exist") {
		t.Errorf("-I no/such/dir:\n%s", r.stderr)
	}
	// An entry no stub names, next to one that is linked.
	entry := filepath.Join(kernels, "orphan", "orphan_entry.cpp")
	if err := os.MkdirAll(filepath.Dir(entry), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, []byte("extern \"C\" __global__ __aicore__ void orphan(__gm__ int64_t *args) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, dir, "check", "--no-progress", "--statistics", ".")
	if !strings.Contains(r.stdout, "entries no stub links         1  (") || !strings.Contains(r.stdout, "\n                                 kernels/orphan/orphan_entry.cpp\n") {
		t.Errorf("an unlinked entry: --statistics does not name it:\n%s", r.stdout)
	}
}
