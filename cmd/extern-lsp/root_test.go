package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runBinary runs the real command (this test binary through TestMain, same
// main and flags) in dir.
func runBinary(t *testing.T, dir string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EXTERN_LSP_RUN_MAIN=1", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return runResult{code, out.String(), errb.String()}
}

// noRootTree copies testdata/noroot (the pypto-lib layout) outside the
// repository, so no .git or pyproject.toml lies above it.
func noRootTree(t *testing.T) (root, kernel string) {
	t.Helper()
	root = copyTree(t, "../../testdata/noroot")
	return root, filepath.Join(root, "models", "rms", "kernels", "rms_norm", "kernel")
}

// TestRootWithoutGit: a body header below its entries, checked alone from
// its own folder, finds the stub above them; --root narrows it on purpose.
func TestRootWithoutGit(t *testing.T) {
	root, kernel := noRootTree(t)
	stubDir := filepath.Join(root, "models", "rms")
	want := []string{
		"rms_body.hpp:8:20: error: EXT101 args[2] is tensor `y`",
		"rms_body.hpp:9:20: error: EXT102 args[4] is past the end for extern `rms_norm`",
	}
	for _, args := range [][]string{
		{"check", "--format", "concise", "rms_body.hpp"},
		{"check", "--format", "concise", "."},
		{"check", "--format", "concise", "--root", stubDir, "rms_body.hpp"},
	} {
		r := runBinary(t, kernel, args...)
		if r.code != 1 {
			t.Errorf("%v: exit %d, want 1\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		for _, w := range want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: no %q in\n%s", args, w, r.stdout)
			}
		}
	}
	// The stub's folder is the root of the header, the entry and the stub.
	for _, p := range []string{"rms_body.hpp", "../entry/entry.cpp", "../../../rms_ops.py", "."} {
		r := runBinary(t, kernel, "root", p)
		if r.code != 0 || strings.TrimSpace(r.stdout) != stubDir {
			t.Errorf("root %s = %q (exit %d, %s), want %s", p, r.stdout, r.code, r.stderr, stubDir)
		}
	}
	// A root that does not hold the stub: the header alone, nothing to say.
	r := runBinary(t, kernel, "check", "--root", ".", "rms_body.hpp")
	if r.code != 0 || strings.Contains(r.stdout, "EXT10") {
		t.Errorf("--root . : exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, kernel, "abi", "rms_body.hpp")
	if r.code != 1 || !strings.Contains(r.stdout, "extern rms_norm") { // 1: the planted reads disagree
		t.Errorf("abi rms_body.hpp: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, sub := range []string{"check", "abi", "root", "serve"} {
		r := runBinary(t, kernel, sub, "--root", "no/such/dir", "rms_body.hpp")
		if r.code != 2 || !strings.Contains(r.stderr, "--root no/such/dir: not a folder") {
			t.Errorf("%s --root no/such/dir: exit %d, stderr %q", sub, r.code, r.stderr)
		}
	}
}
