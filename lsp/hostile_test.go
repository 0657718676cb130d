package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// hoverParams are the params of a hover at the start of uri.
func hoverParams(uri string) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": protocol.Position{}}
}

// Two Content-Length headers that disagree: the frame is rejected with an
// error the client sees, and the message after it is read and answered
// (the longer length used to swallow it).
func TestTwoContentLengths(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	uri := uriOf(root + "/entry.cpp")
	first, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 501, "method": "textDocument/hover", "params": hoverParams(uri)})
	second, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 502, "method": "textDocument/hover", "params": hoverParams(uri)})
	next := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(second), second)
	ch := make(chan wireMsg, 1)
	c.mu.Lock()
	c.waiting["502"] = ch
	before := len(c.nullErrs)
	c.mu.Unlock()
	c.writeBytes([]byte(fmt.Sprintf("Content-Length: %d\r\nContent-Length: %d\r\n\r\n%s%s", len(first), len(first)+len(next), first, next)))
	if m := c.wait(ch, "the hover after the ambiguous frame"); m.Error != nil {
		t.Fatalf("hover 502: %+v", m.Error)
	}
	c.waitFor("an error naming the two lengths", func() bool {
		for _, m := range c.nullErrs[before:] {
			if m.Error != nil && strings.Contains(m.Error.Message, "two Content-Length headers") {
				return true
			}
		}
		return false
	})
	c.shutdown()
}

// A header line is read in bounded memory: 32 MB without a newline cost
// the stream no more than a few buffers, and the frame after it is read.
func TestHeaderLineBound(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	in := io.MultiReader(
		strings.NewReader("X-Junk: "),
		io.LimitReader(repeatReader('a'), 32<<20),
		strings.NewReader(fmt.Sprintf("\r\n\r\nContent-Length: %d\r\n\r\n%s", len(body), body)),
	)
	var logs []string
	s := newStream(in, io.Discard, nil, func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) })
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	msg, _, err := s.Read(context.Background())
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if msg == nil {
		t.Fatal("no message after the long header line")
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 4<<20 {
		t.Errorf("reading a 32 MB header line allocated %d bytes", alloc)
	}
	if !strings.Contains(strings.Join(logs, "\n"), "header line longer than") {
		t.Errorf("no log line about the long header: %q", logs)
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// stuckSession starts an initialized server whose hovers hang, ignoring
// their cancellation (as the fix-all livelock did), with one hover in
// flight.
func stuckSession(t *testing.T) *testClient {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	entered := make(chan struct{}, 1)
	c := startServerWith(t, Options{}, func(s *Server) {
		s.exitWait = 10 * time.Millisecond
		s.hooks.request = func(method string) {
			if method == "textDocument/hover" {
				entered <- struct{}{}
				<-block
			}
		}
	})
	root := fixture(t, "mixed")
	c.initialize([]string{root}, map[string]any{})
	c.send(json.RawMessage("77"), "textDocument/hover", hoverParams(uriOf(root+"/entry.cpp")))
	<-entered
	return c
}

// exit ends the server even while a request ignores its cancellation.
func TestExitWithStuckRequest(t *testing.T) {
	stuckSession(t).shutdown()
}

// The end of input ends the server even while a request ignores its
// cancellation.
func TestEOFWithStuckRequest(t *testing.T) {
	c := stuckSession(t)
	c.conn.Close()
	select {
	case <-c.done:
	case <-hangGuard(t):
		t.Fatal("the server outlived the end of its input")
	}
}

// The server exits when the client process named in initialize is gone.
func TestClientProcessGone(t *testing.T) {
	ticks := make(chan time.Time)
	var alive atomic.Bool
	alive.Store(true)
	probed := make(chan int, 4)
	c := startServerWith(t, Options{}, func(s *Server) {
		s.hooks.pidTicks = ticks
		s.hooks.pidAlive = func(pid int) bool {
			probed <- pid
			return alive.Load()
		}
	})
	c.call("initialize", map[string]any{"processId": 4242, "capabilities": map[string]any{}}, nil)
	c.notify("initialized", map[string]any{})
	if pid := <-probed; pid != 4242 { // the probe at initialize
		t.Fatalf("probed pid %d, want 4242", pid)
	}
	ticks <- time.Time{}
	if pid := <-probed; pid != 4242 {
		t.Fatalf("probed pid %d, want 4242", pid)
	}
	// Still serving while the client lives.
	c.call("workspace/symbol", map[string]any{"query": "x"}, nil)
	alive.Store(false)
	ticks <- time.Time{}
	<-probed
	select {
	case err := <-c.done:
		if err == nil || !strings.Contains(err.Error(), "client process 4242") {
			t.Fatalf("server ended with %v, want the client process named", err)
		}
	case <-hangGuard(t):
		t.Fatal("the server outlived its client process")
	}
}

// Requests run at most reqSlots at once; past reqLimit running or waiting,
// a request is answered "busy" at once.
func TestRequestConcurrencyLimit(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 8)
	var running, peak atomic.Int32
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	c := startServerWith(t, Options{}, func(s *Server) {
		s.reqSlots = make(chan struct{}, 2)
		s.reqLimit = 3
		s.hooks.request = func(method string) {
			if method != "textDocument/hover" {
				return
			}
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			entered <- struct{}{}
			<-release
			running.Add(-1)
		}
	})
	root := fixture(t, "mixed")
	c.initialize([]string{root}, map[string]any{})
	uri := uriOf(root + "/entry.cpp")
	var replies []chan wireMsg
	for i := range 4 {
		replies = append(replies, c.send(json.RawMessage(fmt.Sprint(900+i)), "textDocument/hover", hoverParams(uri)))
	}
	if m := c.wait(replies[3], "the fourth hover"); m.Error == nil || m.Error.Code != int(codeRequestFailed) || !strings.Contains(m.Error.Message, "busy") {
		t.Fatalf("fourth hover past the limit: %+v", m)
	}
	<-entered
	<-entered
	once.Do(func() { close(release) })
	for i := range 3 {
		if m := c.wait(replies[i], "a hover within the limit"); m.Error != nil {
			t.Errorf("hover %d: %+v", i, m.Error)
		}
	}
	if p := peak.Load(); p != 2 {
		t.Errorf("peak concurrent requests %d, want 2", p)
	}
	c.shutdown()
}

// A workspace folder of / is not walked: the client hears why, and opened
// files are analysed as usual.
func TestRootOfTheDiskNotIndexed(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize([]string{"/"}, map[string]any{})
	root := fixture(t, "mixed")
	b := c.open(root + "/entry.cpp")
	if ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004"); len(ds) != 1 {
		t.Errorf("want the EXT004 finding, got %v", codes(ds))
	}
	c.waitFor("a message saying / is not indexed", func() bool {
		for _, m := range c.notes {
			if m.Method == "window/logMessage" && strings.Contains(string(m.Params), "not indexed (it is the root of the file system)") {
				return true
			}
		}
		return false
	})
	c.shutdown()
}

// The server exits when the client process is gone even though its input
// stays open and a read of it does not end on Close (a blocking stdin
// whose pipe another process still holds).
func TestClientGoneWhileInputStaysOpen(t *testing.T) {
	srvIn, cliOut := io.Pipe()
	cliIn, srvOut := io.Pipe()
	t.Cleanup(func() { cliOut.Close(); cliIn.Close() })
	ticks := make(chan time.Time)
	s := newServer(Options{})
	s.exitWait = 10 * time.Millisecond
	s.hooks.pidTicks = ticks
	var probes atomic.Int32
	s.hooks.pidAlive = func(int) bool { return probes.Add(1) == 1 } // alive at initialize only
	done := make(chan error, 1)
	in := &signalReader{r: srvIn, reads: make(chan struct{}, 2)}
	go func() { done <- s.run(context.Background(), in, srvOut, io.NopCloser(nil)) }()
	go io.Copy(io.Discard, cliIn)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":4343,"capabilities":{}}}`
	fmt.Fprintf(cliOut, "Content-Length: %d\r\n\r\n%s", len(body), body)
	<-in.reads // the read that takes initialize
	<-in.reads // the read after it, which never returns
	ticks <- time.Time{}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "client process 4343") {
			t.Fatalf("server ended with %v", err)
		}
	case <-hangGuard(t):
		t.Fatal("the server waited for an input that never ends")
	}
}

// signalReader reports each Read call before making it.
type signalReader struct {
	r     io.Reader
	reads chan struct{}
}

func (s *signalReader) Read(p []byte) (int, error) {
	s.reads <- struct{}{}
	return s.r.Read(p)
}

// A client process the server cannot see at initialize (another PID
// namespace) is not watched: the server keeps serving.
func TestInvisibleClientProcessNotWatched(t *testing.T) {
	probed := make(chan int, 2)
	c := startServerWith(t, Options{}, func(s *Server) {
		ticks := make(chan time.Time, 1)
		ticks <- time.Time{} // a watch would probe again at once, and exit
		s.hooks.pidTicks = ticks
		s.hooks.pidAlive = func(pid int) bool {
			probed <- pid
			return false
		}
	})
	c.call("initialize", map[string]any{"processId": 4444, "capabilities": map[string]any{}}, nil)
	c.notify("initialized", map[string]any{})
	<-probed
	c.call("workspace/symbol", map[string]any{"query": "x"}, nil)
	c.shutdown()
}

// TestExitReadsAnswersDue: a client answering a request of the server's
// after its shutdown and exit (Neovim does so as it quits) finds the
// server still reading, not a closed pipe (Neovim died of the SIGPIPE);
// the session then ends cleanly.
func TestExitReadsAnswersDue(t *testing.T) {
	c := startServer(t, Options{})
	asked := make(chan wireMsg, 1)
	c.intercept = func(m wireMsg) bool {
		if m.Method != "workspace/configuration" {
			return false
		}
		asked <- m
		return true
	}
	c.initialize(nil, map[string]any{"workspace": map[string]any{"configuration": true}})
	m := <-asked
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": []any{nil}})
	c.wmu.Lock()
	_, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(b), b)
	c.wmu.Unlock()
	if err != nil {
		t.Fatalf("answering the server's request after exit: %v", err)
	}
	if err := <-c.done; err != nil {
		t.Errorf("session: %v", err)
	}
}
