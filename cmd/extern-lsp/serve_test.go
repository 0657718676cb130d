package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMain lets the tests run this test binary as the real extern-lsp
// command (same main, same flags) when EXTERN_LSP_RUN_MAIN is set.
func TestMain(m *testing.M) {
	if os.Getenv("EXTERN_LSP_RUN_MAIN") == "1" {
		main()
	}
	// The servers the tests start keep their parse cache in the test's
	// own folder, not the user's.
	if _, ok := os.LookupEnv(parseCacheEnv); !ok {
		if dir, err := os.MkdirTemp("", "extern-lsp-parses-"); err == nil {
			os.Setenv(parseCacheEnv, dir)
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

type lspProc struct {
	t   testing.TB
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startBinary(t testing.TB, args ...string) *lspProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "EXTERN_LSP_RUN_MAIN=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &lspProc{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
}

func (p *lspProc) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(p.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (p *lspProc) request(method string, params any) int {
	p.id++
	p.send(map[string]any{"id": p.id, "method": method, "params": params})
	return p.id
}

func (p *lspProc) notify(method string, params any) {
	p.send(map[string]any{"method": method, "params": params})
}

type frame struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// next reads frames until pred accepts one, answering server requests.
func (p *lspProc) next(pred func(frame) bool) frame {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		length := 0
		for {
			line, err := p.out.ReadString('\n')
			if err != nil {
				p.t.Fatalf("server output ended: %v", err)
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
		if _, err := io.ReadFull(p.out, body); err != nil {
			p.t.Fatal(err)
		}
		var f frame
		if err := json.Unmarshal(body, &f); err != nil {
			p.t.Fatalf("bad frame %s", body)
		}
		if f.Method != "" && f.ID != nil {
			p.send(map[string]any{"id": *f.ID, "result": nil})
			continue
		}
		if pred(f) {
			return f
		}
	}
	p.t.Fatal("timed out")
	return frame{}
}

func (p *lspProc) exitCode() int {
	p.t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(15 * time.Second):
		p.t.Fatal("server did not exit")
	}
	return -1
}

// TestServeBinary drives the real command on stdio: initialize, open a
// fixture, receive EXT004, shut down cleanly (exit 0) with a log file.
func TestServeBinary(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/lsp/mixed")
	logFile := filepath.Join(t.TempDir(), "server.log")
	p := startBinary(t, "--log-file", logFile, "--stdio")
	uri := "file://" + filepath.ToSlash(root)
	id := p.request("initialize", map[string]any{"processId": nil, "rootUri": uri, "capabilities": map[string]any{}})
	res := p.next(func(f frame) bool { return f.ID != nil && *f.ID == id })
	if !strings.Contains(string(res.Result), `"inlayHintProvider":true`) {
		t.Errorf("initialize result: %s", res.Result)
	}
	p.notify("initialized", map[string]any{})
	// It leads a session of its own (see runServe).
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid)); err == nil {
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if sid, _ := strconv.Atoi(f[3]); sid != p.cmd.Process.Pid {
			t.Errorf("the server's session is %d, want its own (%d)", sid, p.cmd.Process.Pid)
		}
	}
	// Its threads ask for a short time slice, where the kernel shows it.
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/sched", p.cmd.Process.Pid))
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, _ := strings.Cut(l, ":"); strings.TrimSpace(k) == "se.slice" && strings.TrimSpace(v) != strconv.Itoa(int(slice)) {
				t.Errorf("%s: se.slice %s, want %d", task, strings.TrimSpace(v), slice)
			}
		}
	}
	src, err := os.ReadFile(filepath.Join(root, "entry.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	doc := uri + "/entry.cpp"
	p.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": doc, "languageId": "cpp", "version": 1, "text": string(src)}})
	pub := p.next(func(f frame) bool {
		return f.Method == "textDocument/publishDiagnostics" && strings.Contains(string(f.Params), `"EXT004"`)
	})
	if !strings.Contains(string(pub.Params), `"version":1`) {
		t.Errorf("publication without the document version: %s", pub.Params)
	}
	id = p.request("shutdown", nil)
	p.next(func(f frame) bool { return f.ID != nil && *f.ID == id })
	p.notify("exit", nil)
	if code := p.exitCode(); code != 0 {
		t.Fatalf("exit code %d after shutdown+exit", code)
	}
	if st, err := os.Stat(logFile); err != nil || st.Size() == 0 {
		t.Errorf("log file empty or missing: %v", err)
	}
}

// TestServeBinaryExitWithoutShutdown: LSP says exit before shutdown ends
// the process with code 1; a closed stdin ends it too.
func TestServeBinaryExitWithoutShutdown(t *testing.T) {
	p := startBinary(t)
	id := p.request("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	p.next(func(f frame) bool { return f.ID != nil && *f.ID == id })
	p.notify("exit", nil)
	if code := p.exitCode(); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	q := startBinary(t, "serve")
	q.in.Close()
	if code := q.exitCode(); code != 1 {
		t.Fatalf("exit code %d on closed stdin, want 1", code)
	}
}

// TestPollableStdin: serve reads a blocking pipe (stdin as an editor
// passes it) through the runtime's poller, where a read deadline works,
// and makes the pipe blocking again at the end.
func TestPollableStdin(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "w")
	defer r.Close()
	defer w.Close()
	in, restore := pollable(r)
	defer in.Close()
	if err := in.SetReadDeadline(time.Now()); err != nil {
		t.Fatalf("stdin is not read through the poller: %v", err)
	}
	in.SetReadDeadline(time.Time{})
	w.Write([]byte("x"))
	if n, err := in.Read(make([]byte, 1)); n != 1 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	restore()
	if flags, err := unix.FcntlInt(uintptr(fds[0]), unix.F_GETFL, 0); err != nil || flags&unix.O_NONBLOCK != 0 {
		t.Errorf("stdin left non-blocking (flags %#x, %v)", flags, err)
	}
}
