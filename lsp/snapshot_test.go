package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// gate is a test rule that reports every line holding MARK and, on a file
// holding HOLD, stops at its first run there until its context ends
// (when hold is set) or until released: it stands for an analysis long
// enough for a cancel, an edit or foreground work to arrive meanwhile.
type gate struct {
	hold    bool
	entered chan struct{} // closed when the first held run starts
	release chan struct{} // closed by the test to let a held run go on
	stopped chan error    // the held run's context.Cause, once it ends
	// onStop, when set, runs in the held run once its context ended and
	// before the rule returns: ordered before anything the analysis's end
	// lets happen.
	onStop func()
	mu     sync.Mutex
	runs   map[string]int
}

func newGate(hold bool) *gate {
	return &gate{hold: hold, entered: make(chan struct{}), release: make(chan struct{}), stopped: make(chan error, 1), runs: map[string]int{}}
}

func (g *gate) analyzer() *analysis.Analyzer {
	return &analysis.Analyzer{
		Code: "EXT996", Name: "test-gate", Severity: analysis.SeverityWarning, Lang: grammar.CPP,
		Run: func(p *analysis.Pass) {
			g.mu.Lock()
			g.runs[filepath.Base(p.File.Path)]++
			first := g.runs[filepath.Base(p.File.Path)] == 1
			g.mu.Unlock()
			if first && strings.Contains(string(p.File.Src), "HOLD") {
				close(g.entered)
				if g.hold {
					<-p.Context().Done()
					if g.onStop != nil {
						g.onStop()
					}
					g.stopped <- contextCause(p)
					return
				}
				<-g.release
			}
			src := string(p.File.Src)
			for off := 0; ; {
				i := strings.Index(src[off:], "MARK")
				if i < 0 {
					break
				}
				p.Report(analysis.Diagnostic{Start: uint32(off + i), End: uint32(off + i + 4), Message: "mark"})
				off += i + 4
			}
		},
	}
}

func (g *gate) runsOf(name string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.runs[name]
}

func kernelText(body string) string {
	return "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n" + body + "}\n"
}

var pullCaps = map[string]any{
	"textDocument": map[string]any{"diagnostic": map[string]any{}},
	"workspace":    map[string]any{"diagnostics": map[string]any{}},
}

type pullReport struct {
	Kind  string                `json:"kind"`
	Items []protocol.Diagnostic `json:"items"`
}

// A $/cancelRequest reaches the rules of the cancelled request's analysis:
// the request is answered RequestCancelled and the analysis under way
// ends with it (the rule below returns only when its context ends).
func TestCancelledRequestStopsAnalysis(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	os.WriteFile(path, []byte(kernelText("  // HOLD\n")), 0o644)
	g := newGate(true)
	c := startServer(t, Options{Analyzers: []*analysis.Analyzer{g.analyzer()}, Budget: time.Hour})
	c.initialize([]string{dir}, pullCaps)
	b := c.open(path)
	id := json.RawMessage(`"pull"`)
	ch := c.send(id, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}})
	<-g.entered
	c.notify("$/cancelRequest", map[string]any{"id": id})
	m := c.wait(ch, "the cancelled pull")
	if m.Error == nil || m.Error.Code != int(codeRequestCancelled) {
		t.Fatalf("cancelled pull: want error %d, got %+v", codeRequestCancelled, m)
	}
	select {
	case cause := <-g.stopped:
		if cause == errPreempted {
			t.Errorf("the analysis stopped as preempted, not cancelled")
		}
	case <-hangGuard(t):
		t.Fatal("the analysis of the cancelled request never stopped")
	}
	c.shutdown()
}

// A request reads one snapshot from start to end: edits arriving while
// its analysis runs change neither the findings it answers nor the text
// their ranges are computed on; the next request sees the edits.
func TestRequestSeesOneSnapshot(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	v1 := kernelText("  // HOLD MARK\n")
	os.WriteFile(path, []byte(v1), 0o644)
	g := newGate(false)
	c := startServer(t, Options{Analyzers: []*analysis.Analyzer{g.analyzer()}})
	c.initialize([]string{dir}, pullCaps)
	b := c.openText(path, v1)
	doc := map[string]any{"textDocument": map[string]any{"uri": b.uri}}
	ch := c.send(json.RawMessage(`"pull-1"`), "textDocument/diagnostic", doc)
	<-g.entered
	// Two new lines on top and two more marks, while the pull's analysis
	// is held; the symbols request after them is answered only once the
	// edit was applied (notifications are handled in order).
	c.edit(b, []protocol.TextEdit{{NewText: "// MARK\n// MARK\n"}})
	c.request("textDocument/documentSymbol", doc)
	close(g.release)
	var rep pullReport
	m := c.wait(ch, "the held pull")
	if m.Error != nil {
		t.Fatalf("held pull: %+v", m.Error)
	}
	json.Unmarshal(m.Result, &rep)
	if len(rep.Items) != 1 || rep.Items[0].Range.Start.Line != 1 {
		t.Fatalf("held pull answered %+v, want the one mark of the first version, on line 1", rep.Items)
	}
	c.call("textDocument/diagnostic", doc, &rep)
	if len(rep.Items) != 3 || rep.Items[2].Range.Start.Line != 3 {
		t.Fatalf("pull after the edit answered %+v, want three marks, the last on line 3", rep.Items)
	}
	c.shutdown()
}

// Foreground work never waits behind background work: with one analysis
// slot held by a workspace diagnostic's run, a pull on another file stops
// that run before it parses its unit (most of an open), not once it takes
// the slot, and is answered; the workspace diagnostic runs it again and
// answers too.
func TestForegroundPreemptsBackground(t *testing.T) {
	dir := t.TempDir()
	bg, fg := filepath.Join(dir, "bg.cpp"), filepath.Join(dir, "fg.cpp")
	os.WriteFile(bg, []byte(kernelText("  // HOLD MARK\n")), 0o644)
	os.WriteFile(fg, []byte(kernelText("  // MARK\n")), 0o644)
	g := newGate(true)
	stopped := make(chan error, 1)
	c := startServerWith(t, Options{Analyzers: []*analysis.Analyzer{g.analyzer()}, Budget: time.Hour}, func(s *Server) {
		s.sched = newScheduler(1)
		s.hooks.parse = func(ctx context.Context, path string) {
			if !isBackground(ctx) && filepath.Base(path) == "fg.cpp" {
				// The held background run ends before this parse.
				select {
				case cause := <-g.stopped:
					stopped <- cause
				case <-hangGuard(t):
					stopped <- errors.New("not stopped before the foreground parse")
				}
			}
		}
	})
	c.initialize([]string{dir}, pullCaps)
	ws := c.send(json.RawMessage(`"workspace"`), "workspace/diagnostic", map[string]any{"previousResultIds": []any{}})
	<-g.entered
	var rep pullReport
	c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uriOf(fg)}}, &rep)
	if len(rep.Items) != 1 {
		t.Fatalf("foreground pull: %+v", rep.Items)
	}
	if cause := <-stopped; cause != errPreempted {
		t.Errorf("the background run ended with %v, want preempted", cause)
	}
	m := c.wait(ws, "the workspace diagnostic")
	var wrep struct {
		Items []struct {
			URI   string            `json:"uri"`
			Items []json.RawMessage `json:"items"`
		} `json:"items"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &wrep) != nil {
		t.Fatalf("workspace diagnostic: %+v", m)
	}
	found := false
	for _, it := range wrep.Items {
		found = found || it.URI == uriOf(bg) && len(it.Items) == 1
	}
	if !found || g.runsOf("bg.cpp") != 2 {
		t.Errorf("bg.cpp: reported %v after %d runs, want its mark after a second run", found, g.runsOf("bg.cpp"))
	}
	c.shutdown()
}

// contextCause is why a pass's context ended.
func contextCause(p *analysis.Pass) error { return context.Cause(p.Context()) }

// The startup's index of the workspace waits for foreground work: with a
// pull's analysis under way when the settings arrive, the index (and the
// end of the startup) comes after that analysis.
func TestIndexWaitsForForegroundWork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	os.WriteFile(path, []byte(kernelText("  // HOLD MARK\n")), 0o644)
	g := newGate(true)
	order := make(chan string, 2)
	// Marked by the rule itself, not by the test after it: the index may
	// start as soon as the rule has returned.
	g.onStop = func() { order <- "analysis ended" }
	waits := make(chan struct{})
	c := startServerWith(t, Options{Analyzers: []*analysis.Analyzer{g.analyzer()}, Budget: time.Hour}, func(s *Server) {
		s.hooks.started = func() { order <- "started" }
		var once sync.Once
		s.hooks.indexWaits = func() { once.Do(func() { close(waits) }) }
	})
	answer := c.holdConfiguration()
	c.initialize([]string{dir}, map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace":    map[string]any{"configuration": true},
	})
	c.openText(path, kernelText("  // HOLD MARK\n"))
	pull := c.send(json.RawMessage(`"pull"`), "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}})
	<-g.entered
	answer()
	select {
	case <-waits:
	case <-hangGuard(t):
		t.Fatal("the index did not wait for the analysis under way")
	}
	c.notify("$/cancelRequest", map[string]any{"id": "pull"})
	<-g.stopped
	c.wait(pull, "the cancelled pull")
	if first := <-order; first != "analysis ended" {
		t.Errorf("%s before the analysis under way ended", first)
	}
	c.shutdown()
}
