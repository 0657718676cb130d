package main

import (
	"regexp"
	"testing"
)

// TestBenchCommand: `extern-lsp bench` measures check (parse floor, one
// core, two, --statistics) on a tree and drives the server over JSON-RPC
// through the editor session on the generated unit, quiet, beside a busy
// process of --burn threads and beside --burn-sessions busy processes, and
// prints a row for each. The figures themselves are not asserted (they
// are the machine's).
func TestBenchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs checks and a server session")
	}
	tree := trapsTree(t)
	r := runBinary(t, t.TempDir(), "bench", "--runs", "1", "--edits", "3", "--burn", "1", "--burn-sessions", "1", "--clangd", "", tree)
	if r.code != 0 {
		t.Fatalf("bench: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^machine: .*, \d+ cores, `),
		// files, floor, one core's CPU and its ratio to the floor, ...
		regexp.MustCompile(`(?m)^\S+ +[1-9]\d* +[\d.]+s +[\d.]+s +[\d.]+x +[\d.]+s +\d+ +[\d.]+s +[\d.]+x +[\d.]+s +[\d.]+x  \(load `),
		// open (read back, cold), then p50/p99 of edit, hover, code action, completion.
		regexp.MustCompile(`(?m)^extern-lsp +[\d.]+ +[\d.]+ +[\d.]+/[\d.]+ +[\d.]+/[\d.]+ +[\d.]+/[\d.]+ +[\d.]+/[\d.]+ `),
		regexp.MustCompile(`(?m)^\+1 threads +[\d.]+ +[\d.]+ +[\d.]+/[\d.]+ `),
		regexp.MustCompile(`(?m)^\+1 sessions +[\d.]+ +[\d.]+ +[\d.]+/[\d.]+ `),
		regexp.MustCompile(`(?m)^  x quiet +[\d.]+x +[\d.]+x `),
		regexp.MustCompile(`(?m)^clangd: not compared`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("bench: no %s in\n%s", want, r.stdout)
		}
	}
	for _, bad := range [][]string{{"--edits", "1"}, {"--burn-sessions", "-1"}} {
		if r := runBinary(t, t.TempDir(), append([]string{"bench"}, bad...)...); r.code != 2 {
			t.Errorf("bench %v: exit %d, want 2 (a usage error)", bad, r.code)
		}
	}
}
