package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
)

// The server publishes at most max-findings-per-rule findings of a rule
// in a file and one note for the rest; suppressed findings do not use up
// the cap; the editor's maxFindingsPerRule overrides the project's; and
// fix-all fixes every finding, the unlisted ones too.
func TestMaxFindingsPerRule(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "extern-lsp.toml"), []byte("max-findings-per-rule = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("#include \"kernel_operator.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void capped_entry(__gm__ int64_t *args) {\n")
	for i := range 12 {
		src.WriteString("  AscendC::SyncAll();")
		if i%6 == 0 {
			src.WriteString(" // NOLINT(EXT004)")
		}
		src.WriteString("\n")
	}
	src.WriteString("}\n")

	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.openText(filepath.Join(root, "capped.cpp"), src.String())
	ds := c.diagnosticsFor(b.uri, 1)
	notes := withCode(ds, analysis.InternalCode)
	if n := len(withCode(ds, "EXT004")); n != 4 || len(notes) != 1 {
		t.Fatalf("want 4 EXT004 and a note, got %v", codes(ds))
	}
	want := "EXT004: 6 more findings of syncall-aiv-only in this file are not listed (max-findings-per-rule = 4)"
	if notes[0].Message != want || notes[0].Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("note %+v, want %q", notes[0], want)
	}
	// The first unlisted finding is the sixth SyncAll (line 10): the
	// first and seventh are suppressed.
	if notes[0].Range.Start.Line != 9 {
		t.Errorf("note on line %d, want 10", notes[0].Range.Start.Line+1)
	}

	// The editor's setting wins over the project's.
	n := len(c.published[b.uri])
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"maxFindingsPerRule": 0}}})
	c.waitFor("every finding listed", func() bool {
		ps := c.published[b.uri]
		return len(ps) > n && len(withCode(ps[len(ps)-1].Diagnostics, "EXT004")) == 10 && len(withCode(ps[len(ps)-1].Diagnostics, analysis.InternalCode)) == 0
	})
	n = len(c.published[b.uri])
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"maxFindingsPerRule": 2}}})
	c.waitFor("two findings and a note", func() bool {
		ps := c.published[b.uri]
		if len(ps) <= n {
			return false
		}
		last := ps[len(ps)-1].Diagnostics
		notes := withCode(last, analysis.InternalCode)
		return len(withCode(last, "EXT004")) == 2 && len(notes) == 1 && strings.HasPrefix(notes[0].Message, "EXT004: 8 more findings")
	})

	// Fix all: the ten unsuppressed calls, listed or not.
	c.fixAll(b)
	if got := strings.Count(b.text, "SyncAll<false>()"); got != 10 {
		t.Fatalf("fix-all fixed %d of 10:\n%s", got, b.text)
	}
	if ds := c.diagnosticsFor(b.uri, b.version); len(withCode(ds, "EXT004")) != 0 || len(withCode(ds, analysis.InternalCode)) != 0 {
		t.Fatalf("left after fix-all: %v", codes(ds))
	}
	c.shutdown()
}
