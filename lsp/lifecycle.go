package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"math"
	"reflect"
	"runtime/debug"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/coverage"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Lifecycle: initialize/initialized (capabilities, watchers, settings,
// indexing) and shutdown/exit.

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	p, err := decode[initializeParams](raw, optionalParams)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initialize: %v", err)
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
	if len(roots) == 0 && s.opts.Root != "" {
		roots = append(roots, s.opts.Root)
	}
	ws := workspace.New(roots...)
	ws.BoundIndex()
	if s.opts.ParseCache != "" {
		s.parseCache = workspace.NewParseCache(s.opts.ParseCache)
		s.parseCache.DeferWrites()
		ws.SetParseCache(s.parseCache)
	}
	// Each file's configuration may turn it on (projectConfig).
	ws.SetBuildIncludes(config.DefaultBuildIncludes)
	initOpts, _ := parseSettings(p.InitializationOptions)
	pull := p.Capabilities.TextDocument != nil && p.Capabilities.TextDocument.Diagnostic != nil

	s.snapMu.Lock()
	s.snap = &snapshot{ws: ws, docs: map[string]docView{}}
	s.snapMu.Unlock()
	s.mu.Lock()
	s.caps = p.Capabilities
	s.pull = pull
	s.autoRoots = len(roots) == 0
	s.initOpts = initOpts
	s.settings = initOpts
	if p.Trace != "" {
		s.trace = p.Trace
	}
	s.state = stateRunning
	s.mu.Unlock()
	if p.ProcessID != nil && *p.ProcessID > 0 && *p.ProcessID <= math.MaxInt32 {
		s.clientPID = int(*p.ProcessID)
		go s.watchClient(s.clientPID)
	}

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
		"completionProvider": map[string]any{
			"triggerCharacters": []string{"[", ","},
			"completionItem":    map[string]any{"labelDetailsSupport": true},
		},
		"signatureHelpProvider": map[string]any{
			"triggerCharacters":   []string{"(", ","},
			"retriggerCharacters": []string{","},
		},
		"codeLensProvider":        map[string]any{"resolveProvider": false},
		"documentSymbolProvider":  true,
		"referencesProvider":      true,
		"semanticTokensProvider":  map[string]any{"legend": semanticLegend, "full": true},
		"renameProvider":          map[string]any{"prepareProvider": true},
		"workspaceSymbolProvider": true,
		"codeActionProvider": map[string]any{
			"codeActionKinds": []string{string(protocol.QuickFix), fixAllKind},
		},
		"executeCommandProvider": map[string]any{"commands": []string{cmdShowDocumentation, cmdWriteClangdConfig}},
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
		if s.fetchConfiguration() {
			// Documents opened while the settings were on their way were
			// diagnosed with the defaults.
			s.configChanged()
		} else {
			// Same settings: the first diagnostics stand (a second run
			// would cancel and redo the open's).
			s.followCoreViewChange()
		}
		s.index()
		if s.hooks.started != nil {
			s.hooks.started()
		}
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

// fetchConfiguration asks the client for the "externLsp" section and
// reports whether the settings changed.
func (s *Server) fetchConfiguration() bool {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if caps.Workspace == nil || !caps.Workspace.Configuration {
		return false
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	var res []json.RawMessage
	params := map[string]any{"items": []any{map[string]any{"section": "externLsp"}}}
	if err := s.call(ctx, "workspace/configuration", params, &res); err != nil {
		s.logf(protocol.MessageTypeLog, "workspace/configuration: %v", err)
		return false
	}
	if len(res) == 0 {
		return false
	}
	var ed Settings
	if string(res[0]) != "null" {
		if err := json.Unmarshal(res[0], &ed); err != nil {
			s.logf(protocol.MessageTypeWarning, "externLsp settings: %v", err)
			return false
		}
	}
	return s.setEditorSettings(ed)
}

// setEditorSettings takes the editor's settings and reports whether the
// merged settings changed.
func (s *Server) setEditorSettings(ed Settings) bool {
	s.mu.Lock()
	s.editor = ed
	merged := s.initOpts.merge(ed)
	changed := !reflect.DeepEqual(merged, s.settings)
	s.settings = merged
	s.mu.Unlock()
	s.logf(protocol.MessageTypeLog, "settings: %+v", ed)
	return changed
}

// index walks the workspace folders once, with $/progress when the client
// supports work-done progress.
func (s *Server) index() {
	// The index only reports (progress, the count, coverage gaps): an
	// analysis walks what it needs itself. It waits for foreground work
	// (the first open's analysis) and yields to it between files.
	yield := func() error { return s.sched.idle(s.ctx, s.hooks.indexWaits) }
	if yield() != nil {
		return
	}
	ws := s.current().ws
	s.mu.Lock()
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
	// A folder too broad to walk (/, ~) is said at once, not at the first
	// analysis.
	s.logSkipped()
	files := ws.KnownFiles()
	externs := 0
	for i, p := range files {
		if yield() != nil {
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
	if yield() == nil {
		var gaps []coverage.Gap
		for _, g := range coverage.Find(ws, nil, "the folder opened") {
			// A tree without any stub is not a pypto project: nothing to fix.
			if g.Kind != coverage.NoStub {
				gaps = append(gaps, g)
			}
		}
		s.reportGaps(gaps)
	}
}

// watchClient ends the session when the client process is gone (LSP's
// processId): an editor killed without closing our input must not leave a
// server behind, analysing a workspace nobody looks at.
func (s *Server) watchClient(pid int) {
	ticks, alive := s.hooks.pidTicks, s.hooks.pidAlive
	if ticks == nil {
		t := time.NewTicker(clientPollInterval)
		defer t.Stop()
		ticks = t.C
	}
	if alive == nil {
		alive = processAlive
	}
	if !alive(pid) {
		// Not visible from here (a client in another PID namespace, a
		// server run through a container): nothing to watch.
		s.logf(protocol.MessageTypeLog, "the client process %d is not visible: not watched", pid)
		return
	}
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-ticks:
		}
		if alive(pid) {
			continue
		}
		s.clientGone.Store(true)
		if s.logger != nil {
			s.logger.Printf("the client process %d is gone: exiting", pid)
		}
		s.stopAll()
		s.cancel()
		s.conn.Close()
		return
	}
}

// ParseCacheBytes bounds the parse cache (Options.ParseCache): about the
// trees of 60 MB of sources (a tree is 3-4 times its text).
const ParseCacheBytes = 256 << 20

// clientPollInterval is how often watchClient looks for the client.
const clientPollInterval = 3 * time.Second

func (s *Server) shutdown() {
	s.mu.Lock()
	s.state = stateShutdown
	for _, c := range s.inflight {
		c()
	}
	s.mu.Unlock()
	s.stopAll()
	if c := s.parseCache; c != nil {
		read, parsed := c.Counts()
		s.logf(protocol.MessageTypeInfo, "parse cache: %d trees read, %d parsed", read, parsed)
		c.Flush()
		c.Prune(ParseCacheBytes)
	}
	if s.opts.OnShutdown != nil {
		s.opts.OnShutdown()
	}
}

func (s *Server) exit() {
	s.exitSeen.Store(true)
	s.mu.Lock()
	if s.state == stateShutdown {
		s.state = stateExited
	}
	s.mu.Unlock()
	s.stopAll()
	// A client answering a request of ours after our input is closed
	// writes to a broken pipe (Neovim dies of the SIGPIPE): the answers
	// still due are read first, for at most exitWait. Off the read loop,
	// which reads them.
	go func() {
		done := make(chan struct{})
		go func() {
			s.calls.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(s.exitWait):
		}
		s.cancel()
		s.conn.Close()
	}()
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
