package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Dispatch: the one place where a message becomes a handler call. Every
// request goes through the same prologue (state check, params decoding,
// document resolution, cancellation, panic recovery), so a handler is only
// its feature: register it in requests() or notifications() wrapped by
// request, onDocument or notification.

// handler answers one request (its result or error is the reply).
type handler func(ctx context.Context, params json.RawMessage) (any, error)

// notificationHandler handles a notification synchronously, in message
// order: document state must be current for the requests that follow.
type notificationHandler func(params json.RawMessage) error

func (s *Server) requests() map[string]handler {
	return map[string]handler{
		"textDocument/codeAction":          onDocument(s, func() any { return []protocol.CodeAction{} }, (*view).codeAction),
		"textDocument/hover":               onDocument(s, noResult, (*view).hover),
		"textDocument/diagnostic":          onDocument(s, emptyDocumentReport, (*view).documentDiagnostic),
		"workspace/diagnostic":             request(inView(s, (*view).workspaceDiagnostic), optionalParams),
		"workspace/executeCommand":         request(s.executeCommand, requiredParams),
		"textDocument/inlayHint":           onDocument(s, func() any { return []inlayHint{} }, (*view).inlayHints),
		"textDocument/definition":          onDocument(s, noResult, (*view).definition),
		"externLsp/abiTable":               onDocument(s, notOurFile, (*view).abiTable),
		"textDocument/completion":          onDocument(s, func() any { return completionList{Items: []completionItem{}} }, (*view).completion),
		"textDocument/signatureHelp":       onDocument(s, noResult, (*view).signatureHelp),
		"textDocument/codeLens":            onDocument(s, func() any { return []codeLens{} }, (*view).codeLens),
		"textDocument/documentSymbol":      onDocument(s, func() any { return []documentSymbol{} }, (*view).documentSymbols),
		"workspace/symbol":                 request(inView(s, (*view).workspaceSymbols), requiredParams),
		"textDocument/references":          onDocument(s, noResult, (*view).references),
		"textDocument/prepareRename":       onDocument(s, noResult, (*view).prepareRename),
		"textDocument/rename":              onDocument(s, noResult, (*view).rename),
		"externLsp/status":                 request(s.status, optionalParams),
		"externLsp/inactiveRegions":        onDocument(s, func() any { return inactiveRegionsResult{Core: coreViewOff, Regions: []protocol.Range{}} }, (*view).inactiveRegions),
		"textDocument/semanticTokens/full": onDocument(s, func() any { return semanticTokens{Data: []uint32{}} }, (*view).semanticTokensFull),
	}
}

func (s *Server) notifications() map[string]notificationHandler {
	return map[string]notificationHandler{
		"initialized":                         s.initialized,
		"textDocument/didOpen":                notification(s.didOpen),
		"textDocument/didChange":              notification(s.didChange),
		"textDocument/didSave":                notification(s.didSave),
		"textDocument/didClose":               notification(s.didClose),
		"workspace/didChangeConfiguration":    notification(s.didChangeConfiguration),
		"workspace/didChangeWatchedFiles":     notification(s.didChangeWatchedFiles),
		"workspace/didChangeWorkspaceFolders": notification(s.didChangeWorkspaceFolders),
		"$/cancelRequest":                     notification(s.cancelRequest),
		"$/setTrace":                          notification(s.setTrace),
	}
}

// Whether a request without params is an error (InvalidParams) or means
// the zero params.
const (
	requiredParams = false
	optionalParams = true
)

// decode unmarshals a message's params.
func decode[P any](raw json.RawMessage, optional bool) (*P, error) {
	p := new(P)
	if optional && len(raw) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	return p, nil
}

// request adapts a handler of typed params; undecodable params are answered
// with InvalidParams.
func request[P any](h func(ctx context.Context, p *P) (any, error), optional bool) handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		p, err := decode[P](raw, optional)
		if err != nil {
			return nil, invalidParams(err)
		}
		return h(ctx, p)
	}
}

// notification adapts a notification handler of typed params.
func notification[P any](h func(p *P) error) notificationHandler {
	return func(raw json.RawMessage) error {
		p, err := decode[P](raw, requiredParams)
		if err != nil {
			return err
		}
		return h(p)
	}
}

// docParams are the params of a request about one text document.
type docParams interface{ document() textDocumentIdentifier }

func (p positionParams) document() textDocumentIdentifier           { return p.TextDocument }
func (p rangeParams) document() textDocumentIdentifier              { return p.TextDocument }
func (p codeActionParams) document() textDocumentIdentifier         { return p.TextDocument }
func (p documentDiagnosticParams) document() textDocumentIdentifier { return p.TextDocument }
func (p abiTableParams) document() textDocumentIdentifier           { return p.TextDocument }

// retrigger is the DiagnosticServerCancellationData of a pull the server
// gave up: the client pulls again.
var retrigger = json.RawMessage(`{"retriggerRequest":true}`)

// docRequest names the document a request is about: the URI as the client
// spelled it and the file path the server analyses.
type docRequest struct {
	uri  string
	path string
}

// onDocument adapts a handler of a request about one document: a URI that
// is not a file extern-lsp reads (C++ or Python) is answered with none()
// without calling h. The handler reads the snapshot current when the
// request starts.
func onDocument[P docParams](s *Server, none func() any, h func(v *view, ctx context.Context, d docRequest, p *P) (any, error)) handler {
	return request(func(ctx context.Context, p *P) (any, error) {
		uri := (*p).document().URI
		path := pathOf(uri)
		if path == "" || !isSupported(path) {
			return none(), nil
		}
		v := s.viewOf(ctx)
		if s.hooks.docView != nil {
			s.hooks.docView(v, path)
		}
		return h(v, ctx, docRequest{uri: uri, path: path}, p)
	}, requiredParams)
}

// inView adapts a handler written on a view: it reads the snapshot
// current when the request starts.
func inView[P any](s *Server, h func(v *view, ctx context.Context, p *P) (any, error)) func(ctx context.Context, p *P) (any, error) {
	return func(ctx context.Context, p *P) (any, error) { return h(s.viewOf(ctx), ctx, p) }
}

func noResult() any { return nil }

func emptyDocumentReport() any {
	return documentDiagnosticReport{Kind: "full", Items: fullItems(nil)}
}

func notOurFile() any {
	return abiTableResult{Markdown: "extern-lsp reads C++ and Python files only."}
}

func invalidParams(err error) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
}

// handle is the connection's handler. It never returns an error (jsonrpc2
// would close the connection) and never lets a panic escape.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
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
	// recovered turns a handler panic into an InternalError reply.
	recovered := func() {
		if r := recover(); r != nil {
			s.logf(protocol.MessageTypeError, "panic handling %s: %v\n%s", method, r, debug.Stack())
			safeReply(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error handling %s: %v", method, r))
		}
	}
	defer recovered()
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
	// loop (and so $/cancelRequest can reach it), at most reqSlots at
	// once and reqLimit running or waiting.
	if n := s.reqCount.Add(1); n > s.reqLimit {
		s.reqCount.Add(-1)
		s.logf(protocol.MessageTypeLog, "busy: answered %s with an error (%d requests running or waiting)", method, n-1)
		safeReply(nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("server busy: %d requests are running or waiting; retry later", n-1)))
		return nil
	}
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	params := req.Params()
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		defer s.reqCount.Add(-1)
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		defer recovered()
		select {
		case s.reqSlots <- struct{}{}:
			defer func() { <-s.reqSlots }()
		case <-rctx.Done():
			safeReply(nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled"))
			return
		}
		if s.hooks.request != nil {
			s.hooks.request(method)
		}
		start := time.Now()
		res, err := h(rctx, params)
		switch {
		case rctx.Err() != nil && s.ctx.Err() == nil:
			res, err = nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
		case errors.Is(err, context.Canceled) && method == "textDocument/diagnostic":
			// A pull answered "content modified" is an empty report in
			// clients (VS Code's): ask for the pull again instead, as
			// LSP 3.17 has a server cancel it.
			res, err = nil, &jsonrpc2.Error{Code: codeServerCancelled, Message: "the document changed: pull again", Data: &retrigger}
		case errors.Is(err, context.Canceled):
			// The snapshot's text of the document was given up for a
			// newer one (document.parseFunc).
			res, err = nil, jsonrpc2.NewError(codeContentModified, "the document changed")
		}
		var jerr *jsonrpc2.Error
		if err != nil && !errors.As(err, &jerr) {
			err = jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", method, err)
		}
		s.logf(protocol.MessageTypeLog, "%s %s in %v", method, key, time.Since(start))
		safeReply(res, err)
		// What a request parsed beyond the open documents' units is a
		// cache, bounded (after the reply: off the request's latency).
		s.trimParses()
		if s.hooks.trimmed != nil {
			s.hooks.trimmed(method)
		}
	}()
	return nil
}

// idKey is a request id's map key: numbers and strings never collide.
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

// cancelRequest honours $/cancelRequest for numeric and string ids
// (jsonrpc2's CancelHandler only matches ids it decoded itself).
func (s *Server) cancelRequest(p *cancelParams) error {
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

func (s *Server) setTrace(p *setTraceParams) error {
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
