package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
)

// TestParseCacheOpenMatchesParse: on the generated realistic unit, a
// server started again on the same files reads the trees of the files it
// parsed from disk back from its parse cache (none parsed again), and
// its first diagnostics of every open document, pulled, are those of the
// server that parsed them and of a server with no cache.
func TestParseCacheOpenMatchesParse(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	units, err := benchgen.WriteUnits(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	u := units[0]
	// A finding in the body header, to compare.
	src, err := os.ReadFile(u.Body)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(src), benchgen.BodyEditMarker)
	at += strings.IndexByte(string(src[at:]), '\n') + 1
	if err := os.WriteFile(u.Body, []byte(string(src[:at])+benchgen.BodyEditLine+string(src[at:])), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(opts Options) (diags []string, log string) {
		c := startServer(t, opts)
		c.initialize([]string{dir}, pullCaps)
		for _, p := range []string{u.Body, u.Entry, u.Stub} {
			diags = append(diags, pullDiagnostics(c, c.open(p)))
		}
		c.shutdown()
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range c.notes {
			var p struct{ Message string }
			if m.Method == "window/logMessage" && json.Unmarshal(m.Params, &p) == nil {
				log += p.Message + "\n"
			}
		}
		return diags, log
	}
	parsed, log1 := open(Options{ParseCache: cache})
	read, log2 := open(Options{ParseCache: cache})
	fresh, log3 := open(Options{})
	// Vendored headers of the same text share a tree: the first server
	// reads some back already.
	var same, headers int
	if _, err := fmt.Sscanf(firstMatch(log1, "parse cache: "), "parse cache: %d trees read, %d parsed", &same, &headers); err != nil || headers < 40 {
		t.Fatalf("the first server parsed %d files (%v):\n%s", headers, err, log1)
	}
	// The first server parsed the stub and entry texts on disk or as
	// opened, as their requests came: the headers are read back.
	var back int
	if _, err := fmt.Sscanf(firstMatch(log2, "parse cache: "), "parse cache: %d trees read, 0 parsed", &back); err != nil || back < 45 {
		t.Fatalf("the second server read %d trees back (%v):\n%s", back, err, log2)
	}
	if firstMatch(log3, "parse cache:") != "" {
		t.Fatalf("a server with no cache logged one:\n%s", log3)
	}
	for i := range parsed {
		if read[i] != parsed[i] || fresh[i] != parsed[i] {
			t.Errorf("document %d: read back %s\nparsed %s\nno cache %s", i, read[i], parsed[i], fresh[i])
		}
	}
	if !strings.Contains(parsed[0], benchgen.BodyEditCode) {
		t.Fatalf("the body header has no findings to compare: %s", parsed[0])
	}
}

// firstMatch is the line of log starting with prefix ("" when none).
func firstMatch(log, prefix string) string {
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
