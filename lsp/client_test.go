package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// testClient speaks LSP to a server over an in-memory pipe with real
// Content-Length framing, as an editor would.
type testClient struct {
	t    testing.TB
	conn net.Conn
	in   *bufio.Reader
	wmu  sync.Mutex

	mu        sync.Mutex
	nextID    int
	waiting   map[string]chan wireMsg
	nullErrs  []wireMsg // error responses without an id (bad frames)
	published map[string][]publishParams
	notes     []wireMsg
	changed   chan struct{}
	// config answers workspace/configuration.
	config any
	// serverCalls counts requests the server sent, by method.
	serverCalls map[string]int
	// intercept, when set, sees the server's requests first: one it
	// returns true for is the test's to answer.
	intercept func(m wireMsg) bool

	done chan error
	srv  *Server
}

type wireMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error,omitempty"`
}

// startServer runs a server on one end of a pipe and a client on the other.
func startServer(t testing.TB, opts Options) *testClient {
	t.Helper()
	return startServerWith(t, opts, nil)
}

// startServerWith is startServer with setup run on the server before it
// reads its first message (test hooks, limits).
func startServerWith(t testing.TB, opts Options, setup func(*Server)) *testClient {
	t.Helper()
	srvEnd, cliEnd := net.Pipe()
	if opts.MinDebounce == 0 {
		opts.MinDebounce = -1 // tests wait for results, not for timers
	}
	if opts.MaxDebounce == 0 {
		opts.MaxDebounce = -1
	}
	if os.Getenv("LSP_TEST_LOG") != "" {
		opts.Log = os.Stderr
	}
	c := &testClient{
		t: t, conn: cliEnd, in: bufio.NewReader(cliEnd),
		waiting: map[string]chan wireMsg{}, published: map[string][]publishParams{},
		changed: make(chan struct{}), serverCalls: map[string]int{}, done: make(chan error, 1),
	}
	c.srv = newServer(opts)
	if setup != nil {
		setup(c.srv)
	}
	go func() { c.done <- c.srv.run(context.Background(), srvEnd, srvEnd, srvEnd) }()
	go c.readLoop()
	t.Cleanup(func() { cliEnd.Close() })
	return c
}

func (c *testClient) readLoop() {
	for {
		body, err := readFrameForTest(c.in)
		if err != nil {
			return
		}
		var m wireMsg
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			continue
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			go c.answerServer(m)
		case m.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, m)
			if m.Method == "textDocument/publishDiagnostics" {
				var p publishParams
				json.Unmarshal(m.Params, &p)
				c.published[p.URI] = append(c.published[p.URI], p)
			}
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		default:
			c.mu.Lock()
			if string(m.ID) == "null" || len(m.ID) == 0 {
				c.nullErrs = append(c.nullErrs, m)
				close(c.changed)
				c.changed = make(chan struct{})
			} else if ch := c.waiting[string(m.ID)]; ch != nil {
				ch <- m
				delete(c.waiting, string(m.ID))
			}
			c.mu.Unlock()
		}
	}
}

func readFrameForTest(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *testClient) answerServer(m wireMsg) {
	c.mu.Lock()
	c.serverCalls[m.Method]++
	cfg, intercept := c.config, c.intercept
	// A test may wait for the call itself (a refresh) with nothing else
	// arriving after it.
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	if intercept != nil && intercept(m) {
		return
	}
	var result any
	switch m.Method {
	case "workspace/configuration":
		result = []any{cfg}
	case "window/showDocument":
		result = map[string]any{"success": true}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	c.writeRaw(b)
}

func (c *testClient) writeRaw(body []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (c *testClient) writeBytes(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.Write(b)
}

// send issues a request with the given id (raw JSON) and returns the reply
// channel.
func (c *testClient) send(id json.RawMessage, method string, params any) chan wireMsg {
	ch := make(chan wireMsg, 1)
	c.mu.Lock()
	c.waiting[string(id)] = ch
	c.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.writeRaw(b)
	return ch
}

func (c *testClient) request(method string, params any) wireMsg {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := json.RawMessage(strconv.Itoa(c.nextID))
	c.mu.Unlock()
	return c.wait(c.send(id, method, params), method)
}

// hangGuard fires shortly before the test binary's -timeout (never
// without one): a wait that reaches it is a hang. A fixed deadline would
// fail a correct run slowed by the machine's load.
func hangGuard(t testing.TB) <-chan time.Time {
	dt, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return nil
	}
	d, ok := dt.Deadline()
	if !ok {
		return nil
	}
	return time.After(time.Until(d) * 9 / 10)
}

func (c *testClient) wait(ch chan wireMsg, what string) wireMsg {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-hangGuard(c.t):
		c.t.Fatalf("no reply to %s", what)
	}
	return wireMsg{}
}

// call issues a request, fails on an error reply and decodes the result.
func (c *testClient) call(method string, params, result any) {
	c.t.Helper()
	m := c.request(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, m.Result, err)
		}
	}
}

func (c *testClient) notify(method string, params any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	c.writeRaw(b)
}

// waitFor blocks until cond holds (checked on every message received).
func (c *testClient) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := hangGuard(c.t)
	for {
		c.mu.Lock()
		ok := cond()
		ch := c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// diagnosticsFor waits for the publication of the given version.
func (c *testClient) diagnosticsFor(uri string, version int32) []protocol.Diagnostic {
	c.t.Helper()
	var got []protocol.Diagnostic
	c.waitFor(fmt.Sprintf("diagnostics of %s v%d", filepath.Base(uri), version), func() bool {
		ps := c.published[uri]
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i].Version != nil && *ps[i].Version == version {
				got = ps[i].Diagnostics
				return true
			}
		}
		return false
	})
	return got
}

func (c *testClient) initialize(roots []string, caps map[string]any) {
	c.t.Helper()
	var folders []any
	for _, r := range roots {
		folders = append(folders, map[string]any{"uri": uriOf(r), "name": filepath.Base(r)})
	}
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	params := map[string]any{"processId": nil, "capabilities": caps, "workspaceFolders": folders}
	if len(roots) > 0 {
		params["rootUri"] = uriOf(roots[0])
	}
	c.call("initialize", params, &res)
	if _, ok := res.Capabilities["textDocumentSync"]; !ok {
		c.t.Fatalf("initialize: no textDocumentSync in %v", res.Capabilities)
	}
	c.notify("initialized", map[string]any{})
}

func (c *testClient) shutdown() {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("server ended with %v", err)
		}
	case <-hangGuard(c.t):
		c.t.Fatal("server did not exit")
	}
}

// buffer is the client's copy of an open document.
type buffer struct {
	uri     string
	text    string
	version int32
}

func (c *testClient) open(path string) *buffer {
	c.t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.openText(path, string(src))
}

func (c *testClient) openText(path, text string) *buffer {
	b := &buffer{uri: uriOf(path), text: text, version: 1}
	lang := "cpp"
	if strings.HasSuffix(path, ".py") {
		lang = "python"
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": b.uri, "languageId": lang, "version": b.version, "text": text,
	}})
	return b
}

// edit applies LSP text edits to the client's buffer and sends them as one
// incremental didChange.
func (c *testClient) edit(b *buffer, edits []protocol.TextEdit) {
	c.t.Helper()
	sort.SliceStable(edits, func(i, j int) bool {
		a, bb := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > bb.Line || a.Line == bb.Line && a.Character > bb.Character
	})
	var changes []any
	for _, e := range edits { // back to front: earlier positions stay valid
		b.text = applyEdit(b.text, e)
		changes = append(changes, map[string]any{"range": e.Range, "text": e.NewText})
	}
	b.version++
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": b.uri, "version": b.version},
		"contentChanges": changes,
	})
}

func applyEdit(text string, e protocol.TextEdit) string {
	l := grammar.NewLines([]byte(text))
	s := offsetOf(l, e.Range.Start)
	en := offsetOf(l, e.Range.End)
	return text[:s] + e.NewText + text[en:]
}

// find returns the LSP position of the n-th (0-based) occurrence of sub,
// plus delta UTF-16 units.
func find(t testing.TB, text, sub string, n int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], sub)
		if j < 0 {
			t.Fatalf("%q not found (occurrence %d)", sub, n)
		}
		off += 1 + j
	}
	return posOf(grammar.NewLines([]byte(text)), uint32(off))
}

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

func withCode(ds []protocol.Diagnostic, code string) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

func fixture(t *testing.T, parts ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"..", "testdata", "lsp"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fixAll asks for the document's fix-all action and applies it.
func (c *testClient) fixAll(b *buffer) {
	c.t.Helper()
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": b.uri}, "range": protocol.Range{},
		"context": map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll"}},
	}, &actions)
	if len(actions) != 1 || actions[0].Kind != fixAllKind {
		c.t.Fatalf("want one fixAll action, got %+v", actions)
	}
	c.edit(b, actions[0].Edit.Changes[protocol.DocumentURI(b.uri)])
}

// holdConfiguration holds back the server's workspace/configuration
// request; answer waits for it and answers that no settings are set.
func (c *testClient) holdConfiguration() (answer func()) {
	held := make(chan wireMsg, 1)
	c.intercept = func(m wireMsg) bool {
		if m.Method != "workspace/configuration" {
			return false
		}
		held <- m
		return true
	}
	return func() {
		c.t.Helper()
		var m wireMsg
		select {
		case m = <-held:
		case <-hangGuard(c.t):
			c.t.Fatal("no workspace/configuration request")
		}
		reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": []any{nil}})
		c.writeRaw(reply)
	}
}
