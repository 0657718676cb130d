// Package lsp is extern-lsp's language server: LSP over JSON-RPC (stdio or
// any stream) on top of the analysis core. It keeps editor buffers as
// workspace overlays (reparsed incrementally), publishes or answers
// diagnostics, turns rule fixes into code actions, and explains the args[]
// ABI, AscendC APIs and rule codes on hover.
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/coverage"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Options configure a server.
type Options struct {
	// Analyzers run on every file; nil means rules.All().
	Analyzers []*analysis.Analyzer
	// Log, when set, receives every log line (the --log-file).
	Log io.Writer
	// MinDebounce and MaxDebounce bound the adaptive delay between an edit
	// and the diagnostics run (defaults 50 ms and 300 ms; a negative value
	// means no delay).
	MinDebounce, MaxDebounce time.Duration
	// Version is reported in serverInfo.
	Version string
	// Root is the workspace root when the client names none (serve --root);
	// without it each opened file brings its workspace.ProjectRoot.
	Root string
	// Budget bounds one file's analysis (0: analysis.DefaultBudget); past
	// it the findings so far are published with a note.
	Budget time.Duration
	// ParseBudget bounds the text of the closed files whose parses (and
	// facts) the server keeps besides those its open documents' units
	// read (0: DefaultParseBudget; negative: none).
	ParseBudget int64
	// ParseCache is the folder keeping the trees of files parsed from
	// disk for the next server on the same files ("": none); the server
	// prunes it to ParseCacheBytes when the client asks it to shut down.
	ParseCache string
	// OnShutdown, when set, runs when the client asks the server to shut
	// down, while the server still holds its state (serve writes a heap
	// profile there).
	OnShutdown func()
}

const (
	stateNew = iota
	stateRunning
	stateShutdown
	stateExited
)

// codeServerNotInitialized and codeRequestCancelled are LSP's own codes.
const (
	codeServerNotInitialized jsonrpc2.Code = -32002
	codeRequestCancelled     jsonrpc2.Code = -32800
	codeContentModified      jsonrpc2.Code = -32801
	codeServerCancelled      jsonrpc2.Code = -32802
	codeRequestFailed        jsonrpc2.Code = -32803
)

// Server is one language server session.
type Server struct {
	opts   Options
	conn   jsonrpc2.Conn
	stream *stream
	ctx    context.Context // lives until exit
	cancel context.CancelFunc
	logger *log.Logger
	// parseCache keeps disk files' trees for the next server (nil: none).
	parseCache *workspace.ParseCache

	mu    sync.Mutex
	state int
	// skipLogged are the unreadable paths already reported to the client.
	skipLogged map[string]bool
	docs       map[string]*document // by path, as now (timers, edits)
	// focus is the document last edited or opened: its analysis is
	// foreground work (see schedule.go).
	focus *document
	caps  clientCapsWire
	pull  bool // the client pulls diagnostics
	// autoRoots: the client named no folder, so opened files add their
	// project roots (workspace.ProjectRoot).
	autoRoots bool
	editor    Settings
	initOpts  Settings
	settings  Settings // initOpts with the editor's section over them
	loader    *config.Loader
	cfgErrs   map[string]bool
	trace     string
	inflight  map[string]context.CancelFunc
	// gaps are what the workspace's roots keep the analysis from seeing
	// (as of the last index), for externLsp/status.
	gaps []coverage.Gap
	// clangdView is the per-core view the clangd configuration follows
	// (clangdSeen once the first settings are in).
	clangdView string
	clangdSeen bool

	// snap is the current snapshot (snapshot.go): what a request that
	// starts now reads. snapMu serialises the changes making new ones.
	snapMu sync.Mutex
	snap   *snapshot
	// texts are the open documents' texts sent since the last snapshot
	// was made, by path (see current).
	texts map[string]docView

	exitSeen atomic.Bool
	gen      atomic.Uint64 // bumped on every change that can alter any result
	// cfgGen is bumped when settings, roots or files outside the editor
	// change; content edits are seen through unit.InputsOf.
	cfgGen atomic.Uint64
	// store holds the file and unit facts across runs: a run after an
	// edit recomputes only the facts of the units holding the edited file.
	store *unit.Store
	// closed are the last findings of files no editor holds open (pulled
	// one by one or by workspace/diagnostic), by path.
	closed map[string]diagCache
	// keep are the files the open documents' units read, as of input
	// generation keepGen (see openUnits).
	keepMu   sync.Mutex
	keep     map[string]bool
	keepGen  uint64
	genCh    chan struct{} // closed and replaced on every gen bump
	sched    *scheduler    // hands out analysis slots, the focused document first
	pending  sync.WaitGroup
	refreshT *time.Timer
	inlayT   *time.Timer
	// reqSlots bounds the requests running at once; reqLimit bounds those
	// running or waiting for a slot (reqCount): past it a request is
	// answered "busy" at once instead of piling up goroutines.
	reqSlots chan struct{}
	reqLimit int64
	reqCount atomic.Int64
	// exitWait is how long the end of the session waits for requests
	// still running: one that ignores its cancellation must not keep the
	// process alive after exit or the end of input.
	exitWait time.Duration
	// clientPID is the client's processId; the server exits when it is
	// gone (see watchClient).
	clientPID  int
	clientGone atomic.Bool
	hooks      testHooks
	// calls are the requests sent to the client, awaiting its answer.
	calls sync.WaitGroup
	// recheck proves the fixes offered (quick fixes and fix-all) and
	// remembers its verdicts while the unit's text is unchanged.
	recheck *engine.Recheck
}

// testHooks let tests hold a request in flight or drive the client
// process watch without timers; all nil outside tests.
type testHooks struct {
	// request runs in a request's goroutine before its handler.
	request func(method string)
	// analysis runs before each analysis of a file, with the context the
	// analysis runs under and the text it analyses.
	analysis func(ctx context.Context, path string, src []byte)
	// publishing runs when a publication of d has its snapshot, before
	// it analyses d.
	publishing func(v *view, d *document)
	// docView runs when a request about the document at path has its
	// snapshot, before its handler reads it.
	docView func(v *view, path string)
	// cost replaces the measured cost of an analysis of path.
	cost func(path string, measured time.Duration) time.Duration
	// parse runs before an analysis parses its unit's files.
	parse func(ctx context.Context, path string)
	// trimmed runs when a request's goroutine has trimmed the parses
	// after its reply.
	trimmed func(method string)
	// started runs when the work after `initialized` (settings, index)
	// is done.
	started func()
	// indexWaits runs when the startup's index waits for foreground
	// work.
	indexWaits func()
	// pidTicks replaces the ticker of the client process watch.
	pidTicks <-chan time.Time
	// pidAlive replaces the liveness probe of the client process.
	pidAlive func(pid int) bool
}

// Serve runs a server on r/w until the client sends exit or the input
// ends. It returns nil after a clean shutdown+exit and an error otherwise.
func Serve(ctx context.Context, r io.Reader, w io.Writer, c io.Closer, opts Options) error {
	s := newServer(opts)
	return s.run(ctx, r, w, c)
}

func newServer(opts Options) *Server {
	if opts.Analyzers == nil {
		opts.Analyzers = rules.All()
	}
	if opts.MinDebounce == 0 {
		opts.MinDebounce = DefaultMinDebounce
	}
	if opts.MaxDebounce == 0 {
		opts.MaxDebounce = 300 * time.Millisecond
	}
	if opts.MaxDebounce < opts.MinDebounce {
		opts.MaxDebounce = opts.MinDebounce
	}
	s := &Server{
		opts:     opts,
		docs:     map[string]*document{},
		inflight: map[string]context.CancelFunc{},
		genCh:    make(chan struct{}),
		sched:    newScheduler(max(2, min(8, numCPU()))),
		reqSlots: make(chan struct{}, maxRunningRequests),
		reqLimit: maxQueuedRequests,
		exitWait: 5 * time.Second,
		trace:    "off",
		cfgErrs:  map[string]bool{},
		store:    unit.NewStore(),
		closed:   map[string]diagCache{},
	}
	if s.opts.ParseBudget == 0 {
		s.opts.ParseBudget = DefaultParseBudget
	}
	if s.opts.Budget == 0 {
		s.opts.Budget = analysis.DefaultBudget
	}
	s.loader, _ = config.NewLoader("", rules.All())
	s.recheck = &engine.Recheck{Run: s.recheckRun}
	if opts.Log != nil {
		s.logger = log.New(opts.Log, "", log.LstdFlags|log.Lmicroseconds)
	}
	return s
}

func (s *Server) run(ctx context.Context, r io.Reader, w io.Writer, c io.Closer) error {
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.stream = newStream(r, w, c, func(f string, a ...any) { s.logf(protocol.MessageTypeWarning, f, a...) })
	s.conn = jsonrpc2.NewConn(s.stream)
	s.conn.Go(s.ctx, s.handle)
	select {
	case <-s.conn.Done():
	case <-s.ctx.Done():
		s.conn.Close()
		// A read of a blocking stdin does not end on Close: when the
		// client process is gone but its pipe is held open elsewhere,
		// the session ends without the reader.
		t := time.NewTimer(s.exitWait)
		select {
		case <-s.conn.Done():
		case <-t.C:
		}
		t.Stop()
	}
	s.cancel()
	s.stopAll()
	s.waitPending()
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	if s.clientGone.Load() {
		return fmt.Errorf("the client process %d is gone", s.clientPID)
	}
	if st == stateExited {
		return nil
	}
	if s.exitSeen.Load() {
		return errors.New("exit received before shutdown")
	}
	if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return errors.New("connection closed without shutdown and exit")
}

// DefaultMinDebounce is the push debounce's floor: an edit's diagnostics
// are pushed this long after it while the document's analysis is faster.
const DefaultMinDebounce = 50 * time.Millisecond

// Request concurrency bounds: a client flooding requests gets "busy"
// answers, not a goroutine and a copy of the params per request.
const (
	maxRunningRequests = 16
	maxQueuedRequests  = 1024
)

// waitPending waits for the server's goroutines after the session ended
// (everything is cancelled by now), but at most exitWait: the process
// ends after exit or the end of input whatever a stuck request does.
func (s *Server) waitPending() {
	done := make(chan struct{})
	go func() {
		s.pending.Wait()
		close(done)
	}()
	t := time.NewTimer(s.exitWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		if s.logger != nil {
			s.logger.Printf("ending with requests still running (they ignored their cancellation for %v)", s.exitWait)
		}
	}
}

// logf writes a server log line to the log file and, once the client is
// initialized, as window/logMessage (Log-level lines only to the file).
func (s *Server) logf(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.logger != nil {
		s.logger.Printf("[%s] %s", typ, msg)
	}
	if typ == protocol.MessageTypeLog {
		return
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	if st == stateRunning || st == stateShutdown {
		s.notify("window/logMessage", &protocol.LogMessageParams{Type: typ, Message: msg})
	}
}

func (s *Server) notify(method string, params any) {
	if s.conn == nil {
		return
	}
	if err := s.conn.Notify(s.ctx, method, params); err != nil && s.logger != nil {
		s.logger.Printf("notify %s: %v", method, err)
	}
}

// call sends a request to the client. Never call it from the read loop:
// the answer arrives through that loop. None is sent once the session is
// shutting down, and exit waits for the answers of those sent (see exit).
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	s.mu.Lock()
	if s.state != stateRunning || s.exitSeen.Load() {
		s.mu.Unlock()
		return errEnding
	}
	s.calls.Add(1)
	s.mu.Unlock()
	defer s.calls.Done()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

var errEnding = errors.New("the session is ending")

func numCPU() int { return runtime.NumCPU() }
