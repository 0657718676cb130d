package main

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// gcSettings reads the collector's target and soft memory limit.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// A check applies the large-input policy when a file is 1 MB or more, and
// never when the user set GOGC or GOMEMLIMIT.
func TestMemPolicyFor(t *testing.T) {
	dir := t.TempDir()
	small, medium, big := filepath.Join(dir, "small.cpp"), filepath.Join(dir, "medium.cpp"), filepath.Join(dir, "big.cpp")
	os.WriteFile(small, []byte("int x;\n"), 0o644)
	os.WriteFile(medium, bytes.Repeat([]byte("int x;\n"), mediumInput/7+1), 0o644)
	os.WriteFile(big, bytes.Repeat([]byte("int x;\n"), largeInput/7+1), 0o644)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if p := gcPercentFor(nil, []string{small}); p != 0 {
		t.Errorf("small files: GOGC %d, want the runtime's settings", p)
	}
	if p, want := gcPercentFor(nil, []string{small, medium}), mediumInputGCPercent; p != want {
		t.Errorf("a 128 KB file: GOGC %d, want %d", p, want)
	}
	if p, want := gcPercentFor(nil, []string{small, big, medium}), largeInputGCPercent; p != want {
		t.Errorf("a 1 MB file: GOGC %d, want %d", p, want)
	}
	t.Setenv("GOGC", "200")
	if p := gcPercentFor(nil, []string{big}); p != 0 {
		t.Errorf("GOGC set: GOGC %d, want the user's settings", p)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	if p := gcPercentFor(nil, []string{big}); p != 0 {
		t.Errorf("GOMEMLIMIT set: GOGC %d, want the user's settings", p)
	}
}

// gcProbe records the collector's settings while the rules run.
type gcProbe struct{ percent, limit uint64 }

func (g *gcProbe) analyzer() *analysis.Analyzer {
	return &analysis.Analyzer{
		Code: "EXT997", Name: "test-gc-probe", Severity: analysis.SeverityInfo, Lang: grammar.CPP,
		Run: func(p *analysis.Pass) { g.percent, g.limit = gcSettings() },
	}
}

// check applies the policy to a large input only, and the user's GOGC or
// GOMEMLIMIT turns it off; the runtime's settings come back after the run.
func TestCheckMemPolicy(t *testing.T) {
	basePercent, baseLimit := gcSettings()
	if baseLimit != math.MaxInt64 || basePercent == largeInputGCPercent || basePercent == mediumInputGCPercent {
		t.Skip("the test process runs under a GC setting of its own")
	}
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	// The extern's source, then made large by a comment.
	const file = "kernels/aiv/entry.cpp"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	large := append(src, bytes.Repeat([]byte("// a comment making the input large\n"), largeInput/36+1)...)
	run := func(file string) gcProbe {
		t.Helper()
		var g gcProbe
		pinRules(t, g.analyzer())
		if r := runCmd("check", "--quiet", "-j", "1", file); r.code == 2 {
			t.Fatalf("check failed: %s", r.stderr)
		}
		if p, l := gcSettings(); p != basePercent || l != baseLimit {
			t.Errorf("after the run: GC percent %d, limit %d; want %d, %d back", p, l, basePercent, baseLimit)
		}
		return g
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if g := run(file); g.percent != basePercent || g.limit != baseLimit {
		t.Errorf("small input: GC percent %d, limit %d; want the runtime's %d, %d", g.percent, g.limit, basePercent, baseLimit)
	}
	os.WriteFile(file, large, 0o644)
	if g := run(file); g.percent != largeInputGCPercent || g.limit != baseLimit {
		t.Errorf("large input: GC percent %d, limit %d; want %d, %d", g.percent, g.limit, largeInputGCPercent, baseLimit)
	}
	t.Setenv("GOGC", "100")
	if g := run(file); g.percent != basePercent || g.limit != baseLimit {
		t.Errorf("GOGC set: GC percent %d, limit %d; want the runtime's %d, %d", g.percent, g.limit, basePercent, baseLimit)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "8GiB")
	if g := run(file); g.percent != basePercent || g.limit != baseLimit {
		t.Errorf("GOMEMLIMIT set: GC percent %d, limit %d; want the runtime's %d, %d", g.percent, g.limit, basePercent, baseLimit)
	}
}

// The server never applies check's policy, whatever the size of what it
// analyses: it keeps its heap headroom (the runtime's target or more),
// and the runtime's settings come back when it ends.
func TestServeGCPolicy(t *testing.T) {
	basePercent, baseLimit := gcSettings()
	if baseLimit != math.MaxInt64 || basePercent == largeInputGCPercent || basePercent == mediumInputGCPercent {
		t.Skip("the test process runs under a GC setting of its own")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	file := filepath.Join(dir, "kernels", "aiv", "entry.cpp")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	large := append(src, bytes.Repeat([]byte("// a comment making the input large\n"), largeInput/36+1)...)
	os.WriteFile(file, large, 0o644)
	var g gcProbe
	pinRules(t, g.analyzer())
	// runServe speaks on os.Stdin and os.Stdout.
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	t.Cleanup(func() { os.Stdin, os.Stdout = oldIn, oldOut })
	done := make(chan int, 1)
	go func() {
		code := testCLI(nil, io.Discard, io.Discard).run([]string{"serve", "--root", dir})
		outW.Close()
		done <- code
	}()
	p := &lspProc{t: t, in: inW, out: bufio.NewReader(outR)}
	uri := "file://" + filepath.ToSlash(dir)
	id := p.request("initialize", map[string]any{"processId": nil, "rootUri": uri, "capabilities": map[string]any{}})
	p.next(func(f frame) bool { return f.ID != nil && *f.ID == id })
	p.notify("initialized", map[string]any{})
	doc := "file://" + filepath.ToSlash(file)
	p.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": doc, "languageId": "cpp", "version": 1, "text": string(large)}})
	p.next(func(f frame) bool {
		return f.Method == "textDocument/publishDiagnostics" && strings.Contains(string(f.Params), doc)
	})
	id = p.request("shutdown", nil)
	p.next(func(f frame) bool { return f.ID != nil && *f.ID == id })
	p.notify("exit", nil)
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d", code)
	}
	if g.percent == 0 {
		t.Fatal("the probe rule did not run")
	}
	if g.percent < basePercent || g.limit != baseLimit {
		t.Errorf("server on a large input: GC percent %d, limit %d; want %d or more, %d", g.percent, g.limit, basePercent, baseLimit)
	}
	if p, l := gcSettings(); p != basePercent || l != baseLimit {
		t.Errorf("after the server: GC percent %d, limit %d; want the runtime's %d, %d", p, l, basePercent, baseLimit)
	}
}

// Allocations are sampled for a heap profile only when one was asked for.
func TestMemProfileRate(t *testing.T) {
	if got := memProfileRate(""); got != 0 {
		t.Errorf("memProfileRate(\"\") = %d, want 0 (no profile asked for)", got)
	}
	if got := memProfileRate("/tmp/peak.pb.gz"); got != runtime.MemProfileRate || got == 0 {
		t.Errorf("memProfileRate(path) = %d, want the runtime's rate %d", got, runtime.MemProfileRate)
	}
}

// The collector target leaves at least the headroom (here 24 MB) past a small
// live heap, and is the runtime's default once the live heap is that big.
func TestHeadroomPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{8 << 20, 300},   // 8 MB live: 24 MB of headroom is 300%
		{12 << 20, 200},  // 12 MB: 200%
		{24 << 20, 100},  // as large as the headroom: the default
		{200 << 20, 100}, // larger: the default
		{0, 100},         // nothing measured yet
		{1 << 10, 10000}, // a tiny heap: capped
	} {
		if got := headroomPercent(c.live, 24<<20); got != c.want {
			t.Errorf("headroomPercent(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
