package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/lsp"
)

// editorFigures writes the generated unit under dir and drives a real
// server over JSON-RPC on stdio through the same session: ours, then
// clangd's when it is installed (with the .clangd-style flags
// `extern-lsp clangd-config` writes, so it sees the qualifiers and a core).
// Ours runs --runs times as a pulling client and as a pushed-to one (the
// push's time past the debounce floor), and with --burn N each run again
// beside N busy processes, interleaved so both see the same background
// load; every figure is the median over the runs.
func (b *bench) editorFigures(dir string) error {
	units, err := benchgen.WriteUnits(dir, b.flags.copies)
	if err != nil {
		return err
	}
	u := units[0]
	// The servers keep their trees in a cache of the bench's own, emptied
	// before each run's first server: its open is a first start's.
	cache, err := os.MkdirTemp("", "extern-lsp-bench-parses-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	defer os.Setenv(parseCacheEnv, os.Getenv(parseCacheEnv))
	os.Setenv(parseCacheEnv, cache)
	fmt.Fprintf(b.out, "\neditor: the generated unit (%d cop%s, body header edited %d times; ms, p50/p99, median of %d run%s)\n",
		b.flags.copies, plural(b.flags.copies, "y", "ies"), b.flags.edits, b.flags.runs, plural(b.flags.runs, "", "s"))
	fmt.Fprintf(b.out, "%-12s %8s %8s %14s %14s %14s %14s %14s %8s %8s  %s\n", "server", "open", "cold", "edit-diags", "push+floor", "hover", "code-action", "completion", "cpu-s", "peak-MB", "load")
	conds := []burnLoad{{}}
	if b.flags.burn > 0 {
		conds = append(conds, burnLoad{n: b.flags.burn})
	}
	if b.flags.burnSessions > 0 {
		conds = append(conds, burnLoad{n: b.flags.burnSessions, sessions: true})
	}
	ours := []string{b.self, "serve"}
	runs := make([][]sessionResult, len(conds))
	loads := make([][]string, len(conds))
	for range b.flags.runs {
		for i, l := range conds {
			stop, err := b.burners(l)
			if err != nil {
				return err
			}
			loads[i] = append(loads[i], load())
			os.RemoveAll(cache)
			cold, err := runEditorSession(ours, dir, u, 0, true)
			var r sessionResult
			if err == nil {
				r, err = runEditorSession(ours, dir, u, b.flags.edits, true)
				r.coldOpen = cold.open
			}
			if err == nil {
				var pushed sessionResult
				pushed, err = runEditorSession(ours, dir, u, b.flags.edits, false)
				for _, d := range pushed.edit {
					r.push = append(r.push, d-lsp.DefaultMinDebounce)
				}
			}
			stop()
			if err != nil {
				return fmt.Errorf("extern-lsp: %v", err)
			}
			runs[i] = append(runs[i], r)
		}
	}
	var quiet sessionFigures
	for i, l := range conds {
		f := medianFigures(runs[i])
		name := "extern-lsp"
		switch {
		case l.sessions:
			name = fmt.Sprintf("+%d sessions", l.n)
		case l.n > 0:
			name = fmt.Sprintf("+%d threads", l.n)
		}
		fmt.Fprintf(b.out, "%-12s %8.1f %8.1f %14s %14s %14s %14s %14s %8.2f %8.0f  %s\n", name, f.open, f.coldOpen, f.edit, f.push, f.hover, f.action, f.completion, f.cpu, f.rssMB, strings.Join(loads[i], " "))
		if l.n == 0 {
			quiet = f
			continue
		}
		fmt.Fprintf(b.out, "%-12s %7.1fx %7.1fx %14s %14s %14s %14s %14s\n", "  x quiet", f.open/quiet.open, f.coldOpen/quiet.coldOpen, f.edit.over(quiet.edit), f.push.over(quiet.push), f.hover.over(quiet.hover), f.action.over(quiet.action), f.completion.over(quiet.completion))
	}
	clangd := ""
	if b.flags.clangd != "" {
		clangd, _ = exec.LookPath(b.flags.clangd)
	}
	if clangd != "" {
		// clangd reads compile_flags.txt in the root: the qualifiers
		// defined away and the vector core's macros, as users set it up.
		if _, err := b.child(1, dir, "clangd-config", "--format", "compile_flags", "--write", "--root", dir, dir); err != nil {
			return err
		}
		before := load()
		r, err := runEditorSession([]string{clangd, "--background-index=false", "-j=2"}, dir, u, b.flags.edits, true)
		if err != nil {
			return fmt.Errorf("clangd: %v", err)
		}
		f := medianFigures([]sessionResult{r})
		fmt.Fprintf(b.out, "%-12s %8.1f %8s %14s %14s %14s %14s %14s %8.2f %8.0f  %s\n", "clangd", f.open, "-", f.edit, "-", f.hover, f.action, f.completion, f.cpu, f.rssMB, before)
	}
	switch {
	case b.flags.clangd == "":
		fmt.Fprintln(b.out, "clangd: not compared (--clangd \"\")")
	case clangd == "":
		fmt.Fprintf(b.out, "clangd: %q not found: install clangd (apt-get install clangd) to compare\n", b.flags.clangd)
	default:
		v, _ := exec.Command(clangd, "--version").Output()
		fmt.Fprintf(b.out, "clangd: %s (flags from `extern-lsp clangd-config --format compile_flags`)\n", firstLine(string(v)))
	}
	fmt.Fprintln(b.out, "open: to the first diagnostics, the trees of the unit's files on disk read back from the parse cache a server before kept; cold: from an empty cache")
	fmt.Fprintln(b.out, "edit-diags: pulled (textDocument/diagnostic) from a server that offers it, else the pushed diagnostics of the edit's version")
	fmt.Fprintf(b.out, "push+floor: a client that does not pull: the edit's pushed diagnostics past the %v debounce floor\n", lsp.DefaultMinDebounce)
	if b.flags.burn > 0 {
		fmt.Fprintf(b.out, "+%d threads: beside one process of %d busy threads in a session of its own (a build started from a terminal)\n", b.flags.burn, b.flags.burn)
	}
	if b.flags.burnSessions > 0 {
		fmt.Fprintf(b.out, "+%d sessions: beside %d busy processes, each in a session of its own (with autogroup, each gets the server's share)\n", b.flags.burnSessions, b.flags.burnSessions)
	}
	if b.flags.burn > 0 || b.flags.burnSessions > 0 {
		fmt.Fprintln(b.out, "load: the load average at the start of each run")
	}
	return nil
}

// burnLoad is a condition the editor session runs in: quiet (n 0), beside
// one process of n busy threads, or beside n busy processes (sessions).
type burnLoad struct {
	n        int
	sessions bool
}

// burners starts the busy child processes of l, each in a session of its
// own as a build started from a terminal is (Linux shares the CPU between
// sessions first): in the bench's, they would slow its client, the
// editor, not only the server. stop ends them.
func (b *bench) burners(l burnLoad) (stop func(), err error) {
	var cmds []*exec.Cmd
	stop = func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}
	procs, threads := 1, l.n
	if l.sessions {
		procs, threads = l.n, 1
	}
	for range procs * min(l.n, 1) {
		c := exec.Command(b.self, "bench", "--burner", strconv.Itoa(threads))
		c.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(threads))
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		cmds = append(cmds, c)
	}
	return stop, nil
}

// burn keeps threads cores busy until the process is killed.
func burn(threads int) {
	for range threads - 1 {
		go burn(1)
	}
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1
		if x == 0 {
			fmt.Println(x)
		}
	}
}

// pct is a p50/p99 pair in milliseconds.
type pct [2]float64

func (p pct) String() string {
	if p == (pct{}) {
		return "-"
	}
	return fmt.Sprintf("%.1f/%.1f", p[0], p[1])
}

// over is p's ratio to q, as "2.1x/3.0x".
func (p pct) over(q pct) string {
	if q[0] <= 0 || q[1] <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx/%.1fx", p[0]/q[0], p[1]/q[1])
}

// sessionFigures are the medians over runs of one server's figures.
type sessionFigures struct {
	open, coldOpen                        float64
	edit, push, hover, action, completion pct
	cpu, rssMB                            float64
}

func medianFigures(rs []sessionResult) sessionFigures {
	med := func(get func(sessionResult) float64) float64 {
		var v []float64
		for _, r := range rs {
			v = append(v, get(r))
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	p := func(get func(sessionResult) []time.Duration) pct {
		if len(get(rs[0])) == 0 {
			return pct{}
		}
		return pct{med(func(r sessionResult) float64 { return ms(at(get(r), 0.50)) }), med(func(r sessionResult) float64 { return ms(at(get(r), 0.99)) })}
	}
	return sessionFigures{
		open:       med(func(r sessionResult) float64 { return ms(r.open) }),
		coldOpen:   med(func(r sessionResult) float64 { return ms(r.coldOpen) }),
		edit:       p(func(r sessionResult) []time.Duration { return r.edit }),
		push:       p(func(r sessionResult) []time.Duration { return r.push }),
		hover:      p(func(r sessionResult) []time.Duration { return r.hover }),
		action:     p(func(r sessionResult) []time.Duration { return r.action }),
		completion: p(func(r sessionResult) []time.Duration { return r.completion }),
		cpu:        med(func(r sessionResult) float64 { return r.cpu.Seconds() }),
		rssMB:      med(func(r sessionResult) float64 { return float64(r.rssKB) / 1024 }),
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// at is the p-th quantile of ds.
func at(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// sessionResult is one server's figures.
type sessionResult struct {
	open, coldOpen                        time.Duration
	edit, push, hover, action, completion []time.Duration
	cpu                                   time.Duration
	rssKB                                 int64
}

// runEditorSession starts the server argv in dir and times: the body
// header's open to its first diagnostics; each edit (alternately adding
// and removing a line with a finding) to the diagnostics of its version;
// and, after every edit, one of hover (on an args slot), code action (on
// the edited line) and completion (after `AscendC::`) sent at once, the
// request's own latency (the edit's diagnostics are awaited before the
// next edit, untimed). The client offers to pull diagnostics when pull is
// set.
func runEditorSession(argv []string, dir string, u benchgen.GenUnit, edits int, pull bool) (sessionResult, error) {
	var r sessionResult
	c, err := startRPC(argv, dir)
	if err != nil {
		return r, err
	}
	defer c.kill()
	caps, err := c.initialize(dir, pull)
	if err != nil {
		return r, err
	}
	pull = pull && caps.Capabilities.DiagnosticProvider != nil
	src, err := os.ReadFile(u.Body)
	if err != nil {
		return r, err
	}
	text := string(src)
	uri := fileURI(u.Body)
	at := strings.Index(text, benchgen.BodyEditMarker)
	if at < 0 {
		return r, fmt.Errorf("no edit anchor in %s", u.Body)
	}
	line := strings.Count(text[:at], "\n") + 1
	// Hover on an args slot; complete an args index (after `args[`), the
	// body's completion site.
	hover, ok := textPosition(text, "tensor_data<uint8_t>(args, 5)", len("tensor_data<uint8_t>(args, "))
	complete, ok2 := textPosition(text, "WithRope ? args[", len("WithRope ? args["))
	if !ok || !ok2 {
		return r, fmt.Errorf("no hover or completion site in %s", u.Body)
	}
	diags := func(version int) error {
		if pull {
			return c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
		}
		return c.waitDiagnostics(uri, version)
	}
	t0 := time.Now()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "cpp", "version": 1, "text": text}})
	if err := diags(1); err != nil {
		return r, err
	}
	r.open = time.Since(t0)
	version := 1
	for i := range edits * 2 {
		version++
		var change map[string]any
		if version%2 == 0 {
			change = map[string]any{"range": lspRange(line, 0, line, 0), "text": benchgen.BodyEditLine}
		} else {
			change = map[string]any{"range": lspRange(line, 0, line+1, 0), "text": ""}
		}
		t := time.Now()
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": []any{change}})
		doc := map[string]any{"uri": uri}
		if i%2 == 0 {
			if err := diags(version); err != nil {
				return r, err
			}
			r.edit = append(r.edit, time.Since(t))
			continue
		}
		var err error
		t = time.Now()
		switch k := (i / 2) % 3; k {
		case 0:
			err = c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": hover}, nil)
			r.hover = append(r.hover, time.Since(t))
		case 1:
			err = c.call("textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange(line, 0, line, 10),
				"context": map[string]any{"diagnostics": []any{}}}, nil)
			r.action = append(r.action, time.Since(t))
		default:
			err = c.call("textDocument/completion", map[string]any{"textDocument": doc, "position": complete}, nil)
			r.completion = append(r.completion, time.Since(t))
		}
		if err == nil {
			err = diags(version)
		}
		if err != nil {
			return r, err
		}
	}
	r.cpu, r.rssKB = c.shutdown()
	return r, nil
}

// textPosition is the LSP position of the first occurrence of s in text,
// plus off characters (ASCII text); ok is false when text has no s.
func textPosition(text, s string, off int) (pos map[string]any, ok bool) {
	i := strings.Index(text, s)
	if i < 0 {
		return nil, false
	}
	l := strings.Count(text[:i], "\n")
	col := i - (strings.LastIndexByte(text[:i], '\n') + 1)
	return map[string]any{"line": l, "character": col + off}, true
}

func lspRange(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// rpcClient is a minimal LSP client over a child's stdio: requests wait
// for their response, the server's own requests get an empty answer, and
// pushed diagnostics are kept per URI with their version.
type rpcClient struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	wmu  sync.Mutex
	mu   sync.Mutex
	cond *sync.Cond
	next int
	resp map[int]json.RawMessage
	errs map[int]string
	// pushed is the highest version whose diagnostics were published, per
	// URI (0: published without a version).
	pushed map[string][]int
	dead   error
}

func startRPC(argv []string, dir string) (*rpcClient, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &rpcClient{cmd: cmd, in: in, resp: map[int]json.RawMessage{}, errs: map[int]string{}, pushed: map[string][]int{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReader(out))
	return c, nil
}

type rpcMessage struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func (c *rpcClient) read(r *bufio.Reader) {
	fail := func(err error) {
		c.mu.Lock()
		c.dead = err
		c.cond.Broadcast()
		c.mu.Unlock()
	}
	for {
		n := -1
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				fail(fmt.Errorf("server closed its output: %v", err))
				return
			}
			l = strings.TrimSpace(l)
			if l == "" {
				break
			}
			if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Length") {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			continue
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			fail(err)
			return
		}
		var m rpcMessage
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.ID != nil && m.Method != "":
			// A request of the server's (configuration, registration,
			// progress): answered at once.
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				json.Unmarshal(m.Params, &p)
				result = make([]any, len(p.Items))
			}
			c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			c.resp[id] = m.Result
			if m.Error != nil {
				c.errs[id] = m.Error.Message
			}
			c.cond.Broadcast()
			c.mu.Unlock()
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI     string `json:"uri"`
				Version *int   `json:"version"`
			}
			json.Unmarshal(m.Params, &p)
			v := 0
			if p.Version != nil {
				v = *p.Version
			}
			c.mu.Lock()
			c.pushed[p.URI] = append(c.pushed[p.URI], v)
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}
}

func (c *rpcClient) send(msg any) {
	b, _ := json.Marshal(msg)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n", len(b))
	c.in.Write(b)
}

func (c *rpcClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response (decoded into out when
// out is not nil).
func (c *rpcClient) call(method string, params, out any) error {
	c.mu.Lock()
	c.next++
	id := c.next
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if res, ok := c.resp[id]; ok {
			delete(c.resp, id)
			if msg, bad := c.errs[id]; bad {
				return fmt.Errorf("%s: %s", method, msg)
			}
			if out != nil && len(res) > 0 {
				return json.Unmarshal(res, out)
			}
			return nil
		}
		if c.dead != nil {
			return fmt.Errorf("%s: %v", method, c.dead)
		}
		c.cond.Wait()
	}
}

// waitDiagnostics waits until diagnostics of version (or later) are
// published for uri; a server publishing without versions counts its
// next publication.
func (c *rpcClient) waitDiagnostics(uri string, version int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := len(c.pushed[uri])
	deadline := time.AfterFunc(2*time.Minute, func() {
		c.mu.Lock()
		if c.dead == nil {
			c.dead = fmt.Errorf("no diagnostics of version %d within 2 minutes", version)
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer deadline.Stop()
	for {
		ps := c.pushed[uri]
		for _, v := range ps {
			if v >= version {
				c.pushed[uri] = nil
				return nil
			}
		}
		if len(ps) > seen && ps[len(ps)-1] == 0 {
			c.pushed[uri] = nil
			return nil
		}
		if c.dead != nil {
			return c.dead
		}
		c.cond.Wait()
	}
}

type initializeResult struct {
	Capabilities struct {
		DiagnosticProvider json.RawMessage `json:"diagnosticProvider"`
	} `json:"capabilities"`
}

func (c *rpcClient) initialize(dir string, pull bool) (initializeResult, error) {
	var res initializeResult
	text := map[string]any{
		"publishDiagnostics": map[string]any{"versionSupport": true},
		"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"completion":         map[string]any{},
		"codeAction":         map[string]any{},
	}
	if pull {
		text["diagnostic"] = map[string]any{}
	}
	err := c.call("initialize", map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          fileURI(dir),
		"workspaceFolders": []any{map[string]any{"uri": fileURI(dir), "name": filepath.Base(dir)}},
		"capabilities": map[string]any{
			"textDocument": text,
			"workspace":    map[string]any{"configuration": true, "workspaceFolders": true},
		},
	}, &res)
	if err != nil {
		return res, err
	}
	if bytes.Equal(bytes.TrimSpace(res.Capabilities.DiagnosticProvider), []byte("null")) {
		res.Capabilities.DiagnosticProvider = nil
	}
	c.notify("initialized", map[string]any{})
	return res, nil
}

// shutdown ends the server politely and returns what it cost.
func (c *rpcClient) shutdown() (cpu time.Duration, rssKB int64) {
	done := make(chan struct{})
	go func() {
		c.call("shutdown", nil, nil)
		c.notify("exit", nil)
		c.in.Close()
		c.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
	if ru, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss / maxrssPerKB
	}
	return 0, 0
}

// kill ends a server still running (after an error).
func (c *rpcClient) kill() {
	if c.cmd.ProcessState == nil {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	}
}
