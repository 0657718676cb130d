// Package lsp is extern-lsp's language server: LSP over JSON-RPC (stdio or
// any stream) on top of the analysis core. It keeps editor buffers as
// workspace overlays (reparsed incrementally), publishes or answers
// diagnostics, turns rule fixes into code actions, and explains the args[]
// ABI, AscendC APIs and rule codes on hover.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
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
)

// Server is one language server session.
type Server struct {
	opts   Options
	conn   jsonrpc2.Conn
	stream *stream
	ctx    context.Context // lives until exit
	cancel context.CancelFunc
	logger *log.Logger

	mu       sync.Mutex
	state    int
	ws       *workspace.Workspace
	docs     map[string]*document // by path
	caps     clientCapsWire
	pull     bool // the client pulls diagnostics
	editor   Settings
	initOpts Settings
	settings Settings // initOpts with the editor's section over them
	loader   *config.Loader
	cfgErrs  map[string]bool
	trace    string
	inflight map[string]context.CancelFunc

	exitSeen atomic.Bool
	gen      atomic.Uint64 // bumped on every change that can alter any result
	genCh    chan struct{} // closed and replaced on every gen bump
	sem      chan struct{} // bounds concurrent analysis runs
	pending  sync.WaitGroup
	refreshT *time.Timer
	inlayT   *time.Timer
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
		opts.MinDebounce = 50 * time.Millisecond
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
		sem:      make(chan struct{}, max(2, min(8, numCPU()))),
		trace:    "off",
		cfgErrs:  map[string]bool{},
	}
	s.loader, _ = config.NewLoader("")
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
		<-s.conn.Done()
	}
	s.cancel()
	s.stopAll()
	s.pending.Wait()
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
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
// the answer arrives through that loop.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

// handler answers one request (its result or error is the reply).
type handler func(ctx context.Context, params json.RawMessage) (any, error)

// notificationHandler handles a notification synchronously, in message
// order: document state must be current for the requests that follow.
type notificationHandler func(params json.RawMessage) error

func (s *Server) requests() map[string]handler {
	return map[string]handler{
		"textDocument/codeAction":  s.codeAction,
		"textDocument/hover":       s.hover,
		"textDocument/diagnostic":  s.documentDiagnostic,
		"workspace/diagnostic":     s.workspaceDiagnostic,
		"workspace/executeCommand": s.executeCommand,
		"textDocument/inlayHint":   s.inlayHints,
		"textDocument/definition":  s.definition,
		"externLsp/abiTable":       s.abiTable,
	}
}

func (s *Server) notifications() map[string]notificationHandler {
	return map[string]notificationHandler{
		"initialized":                         s.initialized,
		"textDocument/didOpen":                s.didOpen,
		"textDocument/didChange":              s.didChange,
		"textDocument/didSave":                s.didSave,
		"textDocument/didClose":               s.didClose,
		"workspace/didChangeConfiguration":    s.didChangeConfiguration,
		"workspace/didChangeWatchedFiles":     s.didChangeWatchedFiles,
		"workspace/didChangeWorkspaceFolders": s.didChangeWorkspaceFolders,
		"$/cancelRequest":                     s.cancelRequest,
		"$/setTrace":                          s.setTrace,
	}
}

// handle is the connection's handler. It never returns an error (jsonrpc2
// would close the connection) and never lets a panic escape.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (ret error) {
	call, isCall := req.(*jsonrpc2.Call)
	method := req.Method()
	replied := false
	safeReply := func(result any, err error) {
		if replied || !isCall {
			return
		}
		replied = true
		// Reply on the session context: a cancelled request still gets
		// its (error) answer.
		if rerr := reply(s.ctx, result, err); rerr != nil {
			s.logf(protocol.MessageTypeLog, "reply to %s: %v", method, rerr)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			s.logf(protocol.MessageTypeError, "panic handling %s: %v\n%s", method, r, debug.Stack())
			safeReply(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %s: %v", method, r))
		}
		ret = nil
	}()
	s.traceIn(req)

	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case method == "exit":
		s.exit()
		return nil
	case st == stateNew && method != "initialize":
		if isCall {
			safeReply(nil, jsonrpc2.NewError(codeServerNotInitialized, "server not initialized: send initialize first"))
		} else {
			s.logf(protocol.MessageTypeLog, "dropped %s received before initialize", method)
		}
		return nil
	case st == stateShutdown:
		if isCall {
			safeReply(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down"))
		}
		return nil
	}

	if !isCall {
		h, ok := s.notifications()[method]
		if !ok || h == nil {
			s.logf(protocol.MessageTypeLog, "ignored notification %s", method)
			return nil
		}
		if err := h(req.Params()); err != nil {
			s.logf(protocol.MessageTypeWarning, "%s: %v", method, err)
		}
		return nil
	}

	switch method {
	case "initialize":
		if st != stateNew {
			safeReply(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received"))
			return nil
		}
		res, err := s.initialize(req.Params())
		safeReply(res, err)
		return nil
	case "shutdown":
		s.shutdown()
		safeReply(nil, nil)
		return nil
	}
	h, ok := s.requests()[method]
	if !ok || h == nil {
		safeReply(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method))
		return nil
	}
	// Requests run concurrently so a slow one never blocks the message
	// loop (and so $/cancelRequest can reach it).
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	params := req.Params()
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		defer func() {
			if r := recover(); r != nil {
				s.logf(protocol.MessageTypeError, "panic handling %s: %v\n%s", method, r, debug.Stack())
				safeReply(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %s: %v", method, r))
			}
		}()
		start := time.Now()
		res, err := h(rctx, params)
		if rctx.Err() != nil && s.ctx.Err() == nil {
			res, err = nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
		}
		var jerr *jsonrpc2.Error
		if err != nil && !errors.As(err, &jerr) {
			err = jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", method, err)
		}
		s.logf(protocol.MessageTypeLog, "%s %s in %v", method, key, time.Since(start))
		safeReply(res, err)
	}()
	return nil
}

// idKey is a request id's map key: numbers and strings never collide.
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

// cancelRequest honours $/cancelRequest for numeric and string ids
// (jsonrpc2's CancelHandler only matches ids it decoded itself).
func (s *Server) cancelRequest(raw json.RawMessage) error {
	var p cancelParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	var key string
	var str string
	if json.Unmarshal(p.ID, &str) == nil {
		key = idKey(jsonrpc2.NewStringID(str))
	} else {
		var n json.Number
		if err := json.Unmarshal(p.ID, &n); err != nil {
			return fmt.Errorf("bad id %s", p.ID)
		}
		v, err := strconv.ParseInt(string(n), 10, 32)
		if err != nil {
			f, ferr := n.Float64()
			if ferr != nil {
				return fmt.Errorf("bad id %s", p.ID)
			}
			v = int64(f)
		}
		key = idKey(jsonrpc2.NewNumberID(int32(v)))
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

func (s *Server) setTrace(raw json.RawMessage) error {
	var p setTraceParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	s.trace = p.Value
	s.mu.Unlock()
	return nil
}

// traceIn sends $/logTrace for each incoming message when tracing is on.
func (s *Server) traceIn(req jsonrpc2.Request) {
	s.mu.Lock()
	tr := s.trace
	s.mu.Unlock()
	if tr != "messages" && tr != "verbose" || req.Method() == "$/setTrace" {
		return
	}
	p := logTraceParams{Message: "received " + req.Method()}
	if c, ok := req.(*jsonrpc2.Call); ok {
		p.Message += fmt.Sprintf(" (%v)", c.ID())
	}
	if tr == "verbose" {
		p.Verbose = string(req.Params())
	}
	s.notify("$/logTrace", p)
}

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initialize: %v", err)
		}
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if path := pathOf(f.URI); path != "" {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 {
		if path := pathOf(p.RootURI); path != "" {
			roots = append(roots, path)
		} else if p.RootPath != "" {
			roots = append(roots, p.RootPath)
		}
	}
	ws := workspace.New(roots...)
	initOpts, _ := parseSettings(p.InitializationOptions)
	pull := p.Capabilities.TextDocument != nil && p.Capabilities.TextDocument.Diagnostic != nil

	s.mu.Lock()
	s.ws = ws
	s.caps = p.Capabilities
	s.pull = pull
	s.initOpts = initOpts
	s.settings = initOpts
	if p.Trace != "" {
		s.trace = p.Trace
	}
	s.state = stateRunning
	s.mu.Unlock()

	caps := map[string]any{
		"positionEncoding": "utf-16",
		"textDocumentSync": map[string]any{
			"openClose": true,
			"change":    protocol.TextDocumentSyncKindIncremental,
			"save":      map[string]any{"includeText": false},
		},
		"hoverProvider":      true,
		"definitionProvider": true,
		"inlayHintProvider":  true,
		"codeActionProvider": map[string]any{
			"codeActionKinds": []string{string(protocol.QuickFix), fixAllKind},
		},
		"executeCommandProvider": map[string]any{"commands": []string{cmdShowDocumentation}},
		"workspace": map[string]any{
			"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
		},
	}
	if pull {
		caps["diagnosticProvider"] = map[string]any{
			"identifier":            "extern-lsp",
			"interFileDependencies": true,
			"workspaceDiagnostics":  true,
		}
	}
	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	client := ""
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name + " " + p.ClientInfo.Version
	}
	s.logf(protocol.MessageTypeLog, "initialize from %q, roots %v, pull diagnostics %v", client, roots, pull)
	return map[string]any{
		"capabilities": caps,
		"serverInfo":   map[string]any{"name": "extern-lsp", "version": version},
	}, nil
}

// initialized starts the background work that needs client round trips:
// file watchers, the configuration, indexing with progress.
func (s *Server) initialized(json.RawMessage) error {
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		defer func() {
			if r := recover(); r != nil {
				s.logf(protocol.MessageTypeError, "panic during startup: %v\n%s", r, debug.Stack())
			}
		}()
		s.registerWatchers()
		s.fetchConfiguration()
		s.index()
		// Documents opened while the settings were on their way were
		// diagnosed with the defaults.
		s.configChanged()
	}()
	return nil
}

func (s *Server) registerWatchers() {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if caps.Workspace == nil || caps.Workspace.DidChangeWatchedFiles == nil || !caps.Workspace.DidChangeWatchedFiles.DynamicRegistration {
		return
	}
	params := map[string]any{"registrations": []any{map[string]any{
		"id":     "extern-lsp-watch",
		"method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.{cpp,cc,cxx,cce,hpp,hh,hxx,h,inc,py,pyi}"},
			map[string]any{"globPattern": "**/{pyproject.toml,extern-lsp.toml,.extern-lsp.toml}"},
		}},
	}}}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if err := s.call(ctx, "client/registerCapability", params, nil); err != nil {
		s.logf(protocol.MessageTypeLog, "registering file watchers: %v", err)
	}
}

// fetchConfiguration asks the client for the "externLsp" section.
func (s *Server) fetchConfiguration() {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if caps.Workspace == nil || !caps.Workspace.Configuration {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	var res []json.RawMessage
	params := map[string]any{"items": []any{map[string]any{"section": "externLsp"}}}
	if err := s.call(ctx, "workspace/configuration", params, &res); err != nil {
		s.logf(protocol.MessageTypeLog, "workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 {
		return
	}
	var ed Settings
	if string(res[0]) != "null" {
		if err := json.Unmarshal(res[0], &ed); err != nil {
			s.logf(protocol.MessageTypeWarning, "externLsp settings: %v", err)
			return
		}
	}
	s.setEditorSettings(ed)
}

func (s *Server) setEditorSettings(ed Settings) {
	s.mu.Lock()
	s.editor = ed
	s.settings = s.initOpts.merge(ed)
	s.mu.Unlock()
	s.logf(protocol.MessageTypeLog, "settings: %+v", ed)
}

// index walks the workspace folders once, with $/progress when the client
// supports work-done progress.
func (s *Server) index() {
	s.mu.Lock()
	ws := s.ws
	caps := s.caps
	s.mu.Unlock()
	token := ""
	if caps.Window != nil && caps.Window.WorkDoneProgress {
		token = fmt.Sprintf("extern-lsp-index-%d", time.Now().UnixNano())
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		err := s.call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil)
		cancel()
		if err != nil {
			token = ""
		}
	}
	progress := func(v any) {
		if token != "" {
			s.notify("$/progress", map[string]any{"token": token, "value": v})
		}
	}
	zero := 0
	progress(workDoneProgressBegin{Kind: "begin", Title: "extern-lsp: indexing", Message: "finding extern sources", Percentage: &zero})
	start := time.Now()
	ws.Index()
	files := ws.KnownFiles()
	externs := 0
	for i, p := range files {
		if s.ctx.Err() != nil {
			break
		}
		if ws.Context(p).Extern {
			externs++
		}
		if token != "" && (i%32 == 0 || i == len(files)-1) {
			pct := (i + 1) * 100 / len(files)
			progress(workDoneProgressReport{Kind: "report", Message: fmt.Sprintf("%d/%d files", i+1, len(files)), Percentage: &pct})
		}
	}
	msg := fmt.Sprintf("indexed %d C++ files (%d extern sources) in %v", len(files), externs, time.Since(start).Round(time.Millisecond))
	progress(workDoneProgressEnd{Kind: "end", Message: msg})
	s.logf(protocol.MessageTypeInfo, "%s", msg)
}

func (s *Server) shutdown() {
	s.mu.Lock()
	s.state = stateShutdown
	for _, c := range s.inflight {
		c()
	}
	s.mu.Unlock()
	s.stopAll()
}

func (s *Server) exit() {
	s.exitSeen.Store(true)
	s.mu.Lock()
	if s.state == stateShutdown {
		s.state = stateExited
	}
	s.mu.Unlock()
	s.stopAll()
	s.cancel()
	s.conn.Close()
}

// stopAll stops pending diagnostics timers.
func (s *Server) stopAll() {
	s.mu.Lock()
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	if s.refreshT != nil {
		s.refreshT.Stop()
	}
	if s.inlayT != nil {
		s.inlayT.Stop()
	}
	s.mu.Unlock()
	for _, d := range docs {
		d.mu.Lock()
		if d.timer != nil {
			d.timer.Stop()
		}
		d.mu.Unlock()
	}
}

// invalidate records that some input changed: every cached result is stale
// and long-polling workspace diagnostics wake up.
func (s *Server) invalidate() {
	s.gen.Add(1)
	s.mu.Lock()
	close(s.genCh)
	s.genCh = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.genCh
}

func (s *Server) didOpen(raw json.RawMessage) error {
	var p didOpenParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	path := pathOf(p.TextDocument.URI)
	if path == "" || !isSupported(path) {
		return nil
	}
	d := newDocument(p.TextDocument.URI, path, p.TextDocument.LanguageID, p.TextDocument.Version, []byte(p.TextDocument.Text))
	s.mu.Lock()
	if old := s.docs[path]; old != nil {
		old.mu.Lock()
		old.closed = true
		if old.timer != nil {
			old.timer.Stop()
		}
		old.mu.Unlock()
	}
	s.docs[path] = d
	s.mu.Unlock()
	s.edited(d, true)
	return nil
}

func (s *Server) didChange(raw json.RawMessage) error {
	var p didChangeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return nil
	}
	d.mu.Lock()
	d.applyChanges(p.TextDocument.Version, p.ContentChanges)
	d.mu.Unlock()
	s.edited(d, false)
	return nil
}

func (s *Server) didSave(raw json.RawMessage) error {
	var p didSaveParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		// A file saved without being open (or not ours): reread it.
		if path := pathOf(p.TextDocument.URI); path != "" && s.ws != nil {
			if isConfigFile(path) {
				s.reloadFileSettings()
			} else {
				s.ws.Invalidate(path)
			}
			s.afterExternalChange(path)
		}
		return nil
	}
	if p.Text != nil {
		d.mu.Lock()
		if string(d.text) != *p.Text {
			d.setText(d.version, []byte(*p.Text))
		}
		d.mu.Unlock()
	}
	return nil
}

func (s *Server) didClose(raw json.RawMessage) error {
	var p didCloseParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	path := pathOf(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[path]
	delete(s.docs, path)
	pull := s.pull
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	d.mu.Lock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.closeTree()
	d.mu.Unlock()
	s.ws.ClearOverlay(path)
	if !pull {
		d.pubMu.Lock()
		s.notify("textDocument/publishDiagnostics", publishParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
		d.pubMu.Unlock()
	}
	s.invalidate()
	s.rediagnoseAll(d)
	return nil
}

func (s *Server) didChangeConfiguration(raw json.RawMessage) error {
	var p didChangeConfigurationParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	if ed, ok := parseSettings(p.Settings); ok {
		s.setEditorSettings(ed)
		s.configChanged()
		return nil
	}
	// Settings not pushed (or not ours): pull them.
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		s.fetchConfiguration()
		s.configChanged()
	}()
	return nil
}

// configChanged re-diagnoses everything: pushed documents are republished,
// pulling clients are asked to pull again.
func (s *Server) configChanged() {
	s.invalidate()
	s.rediagnoseAll(nil)
	s.refreshPull(0)
}

func (s *Server) didChangeWatchedFiles(raw json.RawMessage) error {
	var p didChangeWatchedFilesParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	cfg := false
	for _, c := range p.Changes {
		path := pathOf(c.URI)
		if path == "" {
			continue
		}
		if isConfigFile(path) {
			cfg = true
			continue
		}
		if s.doc(c.URI) != nil {
			continue // the editor buffer wins over the disk
		}
		s.ws.Invalidate(path)
	}
	if cfg {
		s.reloadFileSettings()
	}
	s.afterExternalChange("")
	return nil
}

func (s *Server) afterExternalChange(string) {
	s.invalidate()
	s.rediagnoseAll(nil)
	s.refreshPull(0)
	s.refreshInlay(0)
}

func (s *Server) didChangeWorkspaceFolders(raw json.RawMessage) error {
	var p didChangeFoldersParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, f := range p.Event.Removed {
		if path := pathOf(f.URI); path != "" {
			s.ws.RemoveRoot(path)
		}
	}
	for _, f := range p.Event.Added {
		if path := pathOf(f.URI); path != "" {
			s.ws.AddRoot(path)
		}
	}
	s.reloadFileSettings()
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		s.index()
		s.afterExternalChange("")
	}()
	return nil
}

// doc returns the open document for a URI.
func (s *Server) doc(uri string) *document {
	path := pathOf(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[path]
}

func (s *Server) openDocs() []*document {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// flush reparses every edited document and hands the result to the
// workspace, so any analysis sees every buffer as the editor shows it.
func (s *Server) flush() {
	for _, d := range s.openDocs() {
		d.mu.Lock()
		s.syncLocked(d)
		d.mu.Unlock()
	}
}

// syncLocked reparses an edited document and hands it to the workspace;
// the two always go together, or the workspace would keep analysing an
// older text than the document's version says. Called with d.mu held.
func (s *Server) syncLocked(d *document) {
	if !d.reparse() || d.closed {
		return
	}
	if d.file != nil {
		s.ws.SetParsed(d.file, d.version)
	} else {
		s.ws.SetOverlay(d.path, d.text, d.version)
	}
}

// snapshot returns a document's parsed file and version after a flush.
func (s *Server) snapshot(d *document) (*grammar.File, int32, error) {
	s.flush()
	d.mu.Lock()
	defer d.mu.Unlock()
	s.syncLocked(d)
	return d.file, d.version, d.err
}

// fileFor returns the parsed file for a URI: the open buffer, or disk.
func (s *Server) fileFor(uri string) (*grammar.File, error) {
	if d := s.doc(uri); d != nil {
		f, _, err := s.snapshot(d)
		if err == nil && f == nil {
			err = errors.New("document not parsed")
		}
		return f, err
	}
	path := pathOf(uri)
	if path == "" {
		return nil, fmt.Errorf("not a file URI: %s", uri)
	}
	s.flush()
	return s.ws.File(path)
}

// uriFor returns the URI the client uses for a path.
func (s *Server) uriFor(path string) string {
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d != nil {
		return d.uri
	}
	return uriOf(path)
}

// linesFor returns the line index of a file's current text.
func (s *Server) linesFor(path string) *grammar.Lines {
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d != nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.lines
	}
	if f, err := s.ws.File(path); err == nil && f != nil {
		return f.Lines
	}
	if src, err := s.ws.Source(path); err == nil {
		return grammar.NewLines(src)
	}
	return grammar.NewLines(nil)
}

func isConfigFile(path string) bool {
	switch filepath.Base(path) {
	case "pyproject.toml", "extern-lsp.toml", ".extern-lsp.toml":
		return true
	}
	return false
}

func numCPU() int { return runtime.NumCPU() }
