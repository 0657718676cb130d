package lsp

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// computedFacts records the facts a server's store computes.
type computedFacts struct {
	mu    sync.Mutex
	facts []string
}

func (r *computedFacts) hook(s *Server) {
	s.store.Computed = func(name string, f *grammar.File, unit string) {
		of := unit
		if f != nil {
			of = "file " + f.Path
			if f.MacroOf != nil {
				of = "macros of " + f.MacroOf.Path
			}
		}
		r.mu.Lock()
		r.facts = append(r.facts, name+" "+of)
		r.mu.Unlock()
	}
}

func (r *computedFacts) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.facts
	r.facts = nil
	sort.Strings(out)
	return out
}

// TestEditRederivesItsFileOnly: on the generated realistic unit (two
// entries, their body header, 45 vendored headers), an edit inside a
// function body of the body header computes the facts of that file's new
// parse and of the units holding it, nothing of the other files (their
// parses, macro bodies included, keep theirs), and each fact once.
func TestEditRederivesItsFileOnly(t *testing.T) {
	dir := t.TempDir()
	units, err := benchgen.WriteUnits(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	u := units[0]
	var rec computedFacts
	c := startServerWith(t, Options{}, rec.hook)
	c.initialize([]string{dir}, pullCaps)
	docs := []*buffer{c.open(u.Entry), c.open(u.RopeEntry), c.open(u.Body)}
	for _, b := range docs {
		pullDiagnostics(c, b)
	}
	body := docs[2]
	rec.take()
	at := find(t, body.text, benchgen.BodyEditMarker, 0)
	at.Line++
	for i := range 16 { // past a few of the store's sweeps
		e := protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: benchgen.BodyEditLine}
		if i%2 == 1 {
			e = protocol.TextEdit{Range: protocol.Range{Start: at, End: protocol.Position{Line: at.Line + 1}}}
		}
		c.edit(body, []protocol.TextEdit{e})
		if got := strings.Contains(pullDiagnostics(c, body), benchgen.BodyEditCode); got != (i%2 == 0) {
			t.Fatalf("edit %d: %s reported %v", i, benchgen.BodyEditCode, got)
		}
		seen := map[string]bool{}
		for _, f := range rec.take() {
			if seen[f] {
				t.Errorf("edit %d computed %s twice", i, f)
			}
			seen[f] = true
			if strings.Contains(f, " file ") || strings.Contains(f, " macros of ") {
				if !strings.HasSuffix(f, " "+filepath.ToSlash(u.Body)) {
					t.Errorf("edit %d of %s computed %s", i, filepath.Base(u.Body), f)
				}
			}
		}
	}
	c.shutdown()
}

// TestScriptedEditsMatchFreshServer: on the generated realistic unit, a
// sequence of edits of each kind (inside a function body, in a signature,
// a function added then removed, in a header the unit includes, in a
// macro and its use) leaves every open document's diagnostics, pulled and
// pushed, equal to a fresh server's on the same texts after each edit.
func TestScriptedEditsMatchFreshServer(t *testing.T) {
	if testing.Short() {
		t.Skip("many fresh servers")
	}
	dir := t.TempDir()
	units, err := benchgen.WriteUnits(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	u := units[0]
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	entry, body, tiling := c.open(u.Entry), c.open(u.Body), c.open(u.Generated)
	bufs := []*buffer{entry, body, tiling, c.open(u.RopeEntry)}
	// at is the range of the first old in b's text, or the empty range
	// after it.
	at := func(b *buffer, old string, after bool) protocol.Range {
		off := strings.Index(b.text, old)
		if off < 0 {
			t.Fatalf("%q not in %s", old, filepath.Base(pathOf(b.uri)))
		}
		l := grammar.NewLines([]byte(b.text))
		r := protocol.Range{Start: posOf(l, uint32(off)), End: posOf(l, uint32(off+len(old)))}
		if after {
			r.Start = r.End
		}
		return r
	}
	insert := func(b *buffer, after, text string) {
		c.edit(b, []protocol.TextEdit{{Range: at(b, after, true), NewText: text}})
	}
	replace := func(b *buffer, old, text string) {
		c.edit(b, []protocol.TextEdit{{Range: at(b, old, false), NewText: text}})
	}
	const helper = "\n__aicore__ inline void probe_barrier() { SyncAll(); }\n"
	steps := []struct {
		name string
		do   func()
	}{
		{"a finding typed in a body", func() { insert(body, benchgen.BodyEditMarker, benchgen.BodyEditLine) }},
		{"lines added above its function", func() {
			// Every finding below moves: its range comes from the new parse.
			insert(body, "}  // namespace attn_meta\n", "// Attention proper:\n// one row per core.\n")
		}},
		{"a GM store in another body", func() {
			insert(body, "uint32_t begin = idx * per;\n", "    *reinterpret_cast<__gm__ uint32_t *>(0) = begin;\n")
		}},
		{"a signature changed", func() {
			replace(body, "run_rope(__gm__ int64_t *args, uint32_t rows)", "run_rope(__gm__ int64_t *args, uint32_t rows, uint32_t skip)")
		}},
		{"a function added", func() { insert(body, "}  // namespace attn_meta\n", helper) }},
		{"its call added", func() { insert(body, "    run_rope<WithRope>(args, 16", ");\n    probe_barrier(") }},
		{"the function removed", func() { replace(body, helper, "\n") }},
		{"a header's struct edited", func() { insert(tiling, "struct AttnTilingData {\n", "    uint32_t probeField;\n") }},
		{"a macro defined and used", func() {
			insert(body, "#define GEN_ATTN_BODY_HPP\n", "#define ATTN_ROW_ID get_block_idx()\n")
			insert(body, benchgen.BodyEditMarker, "  uint32_t probe_macro = ATTN_ROW_ID;\n")
		}},
		{"the macro's body changed", func() {
			replace(body, "#define ATTN_ROW_ID get_block_idx()", "#define ATTN_ROW_ID get_block_idx(args)")
		}},
		{"the first finding deleted", func() { replace(body, benchgen.BodyEditLine, "") }},
	}
	var last string
	changed := 0
	for _, st := range steps {
		st.do()
		now := pullDiagnostics(c, body) + pullDiagnostics(c, entry)
		if now != last {
			changed++
		}
		last = now
		t.Run(st.name, func(t *testing.T) { compareUnitsWithFresh(t, c, bufs, dir) })
	}
	if changed < len(steps)/2 {
		t.Errorf("only %d of %d edits changed the findings: the script no longer exercises the rules", changed, len(steps))
	}
	c.shutdown()
}
