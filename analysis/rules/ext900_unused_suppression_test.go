package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func ext900Options(analyzers ...*analysis.Analyzer) analysis.Options {
	return analysis.Options{Analyzers: analyzers, Enabled: func(*analysis.Analyzer) bool { return true }}
}

func TestUnusedSuppression(t *testing.T) {
	analysistest.RunWithFixesOptions(t, "testdata/ext900", ext900Options(SyncAllAIVOnly, UnusedSuppression))
}

// Off by default: without an explicit selection it reports nothing.
func TestUnusedSuppressionDefaultOff(t *testing.T) {
	dir, _ := filepath.Abs("testdata/ext900")
	diags, err := analysis.Run(workspace.New(dir), filepath.Join(dir, "entry.cpp"), analysis.Options{Analyzers: All()})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if d.Code == "EXT900" {
			t.Fatalf("EXT900 must be off unless selected: %s", d.Message)
		}
	}
}

// A suppression naming a rule that did not run cannot be judged.
func TestUnusedSuppressionSkipsRulesThatDidNotRun(t *testing.T) {
	dir, _ := filepath.Abs("testdata/ext900")
	ws := workspace.New(dir)
	diags, err := analysis.Run(ws, filepath.Join(dir, "entry.cpp"), ext900Options(UnusedSuppression))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if d.Code == "EXT900" && !containsAny(d.Message, "EXT04", "EXT999") {
			t.Errorf("reported a suppression of a rule that did not run: %s", d.Message)
		}
	}
	if len(diags) != 2 {
		t.Errorf("want the 2 unknown-code findings, got %d", len(diags))
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if len(s) >= len(x) {
			for i := 0; i+len(x) <= len(s); i++ {
				if s[i:i+len(x)] == x {
					return true
				}
			}
		}
	}
	return false
}

// The fix removes a comment left empty, and the line of an own-line one.
func TestUnusedSuppressionFixRemovesEmptyComments(t *testing.T) {
	dir := t.TempDir()
	src := `#include "kernel_operator.h"
__aicore__ inline void c() { AscendC::Mmad(c, a, b, p); }
__aicore__ inline void v() { AscendC::PipeBarrier<PIPE_V>(); }
extern "C" __global__ __aicore__ void k(__gm__ int64_t *args) {
  AscendC::SyncAll<false>();  // NOLINT(EXT004)
  // NOLINTNEXTLINE(syncall-aiv-only)
  AscendC::SyncAll<false>();
  AscendC::SyncAll<false>(); /* NOLINT(EXT004, EXT04) */
}
`
	want := `#include "kernel_operator.h"
__aicore__ inline void c() { AscendC::Mmad(c, a, b, p); }
__aicore__ inline void v() { AscendC::PipeBarrier<PIPE_V>(); }
extern "C" __global__ __aicore__ void k(__gm__ int64_t *args) {
  AscendC::SyncAll<false>();
  AscendC::SyncAll<false>();
  AscendC::SyncAll<false>();
}
`
	path := filepath.Join(dir, "entry.cpp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace.New(dir)
	diags, err := analysis.Run(ws, path, ext900Options(SyncAllAIVOnly, UnusedSuppression))
	if err != nil {
		t.Fatal(err)
	}
	var edits []analysis.TextEdit
	for _, d := range diags {
		if d.Code != "EXT900" {
			t.Errorf("unexpected %s: %s", d.Code, d.Message)
		}
		for _, f := range d.Fixes {
			edits = append(edits, f.Edits...)
		}
	}
	if len(diags) != 3 {
		t.Fatalf("want 3 findings, got %d", len(diags))
	}
	out, skipped := analysis.ApplyEdits([]byte(src), path, edits)
	if skipped != 0 || string(out) != want {
		t.Errorf("fixed (%d skipped):\n%s\nwant:\n%s", skipped, out, want)
	}
}

func TestUnusedSuppressionFixPython(t *testing.T) {
	dir := t.TempDir()
	src := "x = 1  # noqa: EXT999\ny = 2  # noqa: EXT999 kept prose\nz = 3  # noqa: E501, EXT999\n"
	want := "x = 1\ny = 2  # kept prose\nz = 3  # noqa: E501\n"
	path := filepath.Join(dir, "ops.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	diags, err := analysis.Run(workspace.New(dir), path, ext900Options(UnusedSuppression))
	if err != nil {
		t.Fatal(err)
	}
	var edits []analysis.TextEdit
	for _, d := range diags {
		edits = append(edits, d.Fixes[0].Edits...)
	}
	out, _ := analysis.ApplyEdits([]byte(src), path, edits)
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
