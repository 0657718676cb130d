package unit

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// An edit inside a function body leaves a unit's include guards to be
// re-keyed, not computed: the edited header, compiled under a macro its
// includer defines, is scanned again under that state; an edit of a
// directive computes them afresh. Either way they are what a fresh
// computation gives.
func TestIncludeGuardsFollowBodyEdits(t *testing.T) {
	dir := t.TempDir()
	entry, body := dir+"/entry.cpp", dir+"/body.h"
	os.WriteFile(entry, []byte("#define NO_ENTRY\n#include \"body.h\"\n#undef NO_ENTRY\n__global__ __aicore__ void kern() { helper(); }\n"), 0o644)
	text := func(stmt string) string {
		return "#pragma once\n__aicore__ inline void helper() {\n" + stmt + "}\n#ifndef NO_ENTRY\n__global__ __aicore__ void own() { helper(); }\n#endif\n"
	}
	os.WriteFile(body, []byte(text("    int a = 1;\n")), 0o644)
	ws := workspace.New(dir)
	s := NewStore()
	computed := 0
	compute := includeGuardsKey.Compute
	includeGuardsKey.Compute = func(ctx context.Context, u *Unit) *unitGuards {
		computed++
		return compute(ctx, u)
	}
	defer func() { includeGuardsKey.Compute = compute }()
	for i, c := range []struct {
		text     string
		computes int
	}{
		{text("    int a = 1;\n"), 1},
		{text("    int a = 1;\n    int b = 2;\n    int c = 3;\n"), 0},
		{text(""), 0},
		{"#define EXTRA 1\n" + text(""), 1},
	} {
		ws = ws.Fork()
		ws.SetOverlay(body, []byte(c.text), int32(i+1))
		u := s.ForEntry(context.Background(), ws, entry)
		computed = 0
		got := Fact(u, includeGuardsKey)
		if computed != c.computes {
			t.Errorf("edit %d: computed %d times, want %d", i, computed, c.computes)
		}
		want := compute(context.Background(), u)
		h := u.File(body)
		if h == nil || got.byFile[h] == nil || want.byFile[h] == nil {
			t.Fatalf("edit %d: the header has no guards of the unit's (%v)", i, h)
		}
		for off := range uint32(len(h.Src)) {
			if g, w := got.byFile[h].CoresAt(off), want.byFile[h].CoresAt(off); g != w {
				t.Fatalf("edit %d: byte %d compiled for %v, want %v", i, off, g, w)
			}
		}
		own := slices.IndexFunc(cxx.Functions(h), func(n *grammar.Node) bool { return cxx.FunctionName(n) == "own" })
		if own < 0 || u.IncludeGuards(h).CoresAt(cxx.Functions(h)[own].Start) != grammar.None {
			t.Errorf("edit %d: the header's entry is compiled", i)
		}
	}
}
