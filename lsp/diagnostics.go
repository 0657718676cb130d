package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"go.lsp.dev/protocol"
	"hash/fnv"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// diagCache is a document's last analysis, valid while the document, the
// parses and stubs its findings read (unit.InputsOf) and the settings
// are the same: an edit elsewhere that no compile of this file reads
// leaves it valid.
type diagCache struct {
	valid  bool
	seq    uint64 // the document's edit count (see document.seq)
	cfgGen uint64
	inputs unit.ResultInputs
	diags  []analysis.Diagnostic
}

// analyze returns the findings of an open document at its current version.
func (s *view) analyze(ctx context.Context, d *document) ([]analysis.Diagnostic, int32, error) {
	diags, version, _, err := s.analyzeSeq(ctx, d)
	return diags, version, err
}

// analyzeSeq is analyze with the edit count the findings belong to: the
// document's text in the view's snapshot.
func (s *view) analyzeSeq(ctx context.Context, d *document) ([]analysis.Diagnostic, int32, uint64, error) {
	cfgGen := s.cfgGen.Load()
	dv, ok := s.snap.docs[d.path]
	if !ok || dv.d != d {
		// Opened after the snapshot, or closed and opened again: nothing
		// of this document to analyse in it.
		return nil, 0, 0, errNotInSnapshot
	}
	version, seq := dv.version, dv.seq
	if grammar.IsBinary(dv.text) {
		// Binary content: not analysed, and one info at the top says so
		// (an empty list reads as a clean file).
		return []analysis.Diagnostic{analysis.BinaryNote(d.path, dv.text)}, version, seq, nil
	}
	d.mu.Lock()
	c := d.cache
	d.mu.Unlock()
	if !c.valid && !isBackground(ctx) {
		// Never analysed (an open): what it includes parses now, beside
		// the digest of its inputs, whose search for the units including
		// it reads the whole workspace.
		s.parseIncluded(d.path)
	}
	inputs := unit.InputsOf(s.ws, d.path)
	if c.valid && c.seq == seq && c.cfgGen == cfgGen && unit.SameInputs(c.inputs, inputs) {
		return c.diags, version, seq, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, version, seq, err
	}
	// A run of the same version on the same inputs is under way (the
	// publication, a request that came first): its findings are ours.
	d.mu.Lock()
	if fl := d.flight; fl != nil && fl.seq == seq && fl.cfgGen == cfgGen && unit.SameInputs(fl.inputs, inputs) {
		d.mu.Unlock()
		select {
		case <-fl.done:
			if fl.err == nil {
				return fl.diags, version, seq, nil
			}
			// That run was cancelled: run our own.
		case <-ctx.Done():
			return nil, version, seq, ctx.Err()
		}
		d.mu.Lock()
	}
	fl := &flight{seq: seq, cfgGen: cfgGen, inputs: inputs, done: make(chan struct{})}
	d.flight = fl
	d.mu.Unlock()
	diags, err := s.runAnalysis(ctx, d.path)
	fl.diags, fl.err = diags, err
	close(fl.done)
	d.mu.Lock()
	if d.flight == fl {
		d.flight = nil
	}
	if err == nil && d.seq == seq && s.cfgGen.Load() == cfgGen {
		d.cache = diagCache{valid: true, seq: seq, cfgGen: cfgGen, inputs: inputs, diags: diags}
	}
	d.mu.Unlock()
	if err != nil {
		return nil, version, seq, err
	}
	return diags, version, seq, nil
}

var errNotInSnapshot = errors.New("the document is not open in this snapshot")

// errStale is an analysis of a snapshot some text of which was given up
// for a newer one: a request answers that the document changed (it is a
// cancellation), a publication waits for the newer snapshot's run.
var errStale = fmt.Errorf("a text the analysis read was given up for a newer one: %w", context.Canceled)

// flight is a document's analysis under way, shared by the callers that
// want the findings of the same version on the same inputs.
type flight struct {
	seq    uint64
	cfgGen uint64
	inputs unit.ResultInputs
	done   chan struct{}
	diags  []analysis.Diagnostic
	err    error
}

// runAnalysis runs the rules on one file of the workspace, bounded by the
// analysis semaphore, until ctx is cancelled (a newer edit, a cancelled
// request, shutdown).
func (s *view) runAnalysis(ctx context.Context, path string) ([]analysis.Diagnostic, error) {
	return s.analyse(ctx, path, false)
}

// analyse is runAnalysis, listing every finding when uncapped (fix-all
// fixes them all, the ones past max-findings-per-rule too).
func (s *view) analyse(ctx context.Context, path string, uncapped bool) ([]analysis.Diagnostic, error) {
	opts, ok := s.optionsFor(s.ws, path)
	if !ok {
		return nil, nil
	}
	if uncapped {
		opts.MaxFindingsPerRule = 0
	}
	opts.Store = s.store
	opts.Budget = s.opts.Budget
	if !isBackground(ctx) {
		// The document being edited gets every slot's core: on a busy
		// machine two threads get twice one's share.
		opts.Jobs = s.sched.slots
		defer s.sched.foreground()()
	}
	if err := s.parseUnit(ctx, path); err != nil {
		return nil, err
	}
	var diags []analysis.Diagnostic
	var err error
	for {
		rctx, release, aerr := s.sched.acquire(ctx)
		if aerr != nil {
			return nil, aerr
		}
		if s.hooks.analysis != nil {
			src, _ := s.ws.Source(path)
			s.hooks.analysis(rctx, path, src)
		}
		t0, c0 := time.Now(), processCPU()
		diags, err = engine.Analyse(rctx, s.ws, path, opts)
		// The run's cost is its CPU: on a busy machine its wall time is
		// the machine's load, which must not grow the debounce.
		cost := min(time.Since(t0), processCPU()-c0)
		if s.hooks.cost != nil {
			cost = s.hooks.cost(path, cost)
		}
		s.ran.Add(int64(cost))
		release()
		if !preempted(ctx, rctx) {
			break
		}
		// Foreground work took the slot: run again once it is done (the
		// facts finished before the stop are kept).
	}
	if err == nil && s.ws.GaveUp() {
		// A file of the snapshot was read with its text given up for a
		// newer one (a stub read as holding no externs, a header missing
		// from its unit): the findings describe no text the user has.
		err = errStale
	}
	s.store.SweepIfGrown(s.latest().ws)
	s.writeParses()
	s.logSkipped()
	if err == grammar.ErrBinary {
		// One info at the top says why the file has no findings.
		src, _ := s.ws.Source(path)
		return []analysis.Diagnostic{analysis.BinaryNote(path, src)}, nil
	}
	return diags, err
}

// parseUnit parses the files of path's units not parsed yet, outside a
// slot: on every slot's core for foreground work (a cold open parses some
// 45 headers: most of its time), on one for background work. The parses
// run apart from the caller, who stops waiting when it gives up (a 2 MB
// buffer's parse takes seconds on a busy machine); they go on for the
// runs sharing them, but a document's text no longer current is given up
// (document.parseFunc).
func (s *view) parseUnit(ctx context.Context, path string) error {
	jobs := 1
	if !isBackground(ctx) {
		jobs = s.sched.slots
	}
	if s.hooks.parse != nil {
		s.hooks.parse(ctx, path)
	}
	// After an edit, most often its one text or nothing is left to
	// parse: no goroutine to wait for then.
	paths := s.ws.Unparsed(unit.Paths(s.ws, path))
	if len(paths) == 0 {
		return nil
	}
	select {
	case <-s.parseAll(jobs, paths):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// parseIncluded parses path and the files it includes, apart from the
// caller, on every slot's core, each as soon as an #include names it: an
// open waited for the whole include walk (10-25 ms) before its first
// parse. It stops following includes past a unit's bytes, as the
// closure does.
func (s *view) parseIncluded(path string) {
	ws := s.ws
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		var read atomic.Int64
		workspace.Parallel(s.sched.slots, []string{path}, func(p string) []string {
			if src, err := ws.Source(p); err != nil || read.Add(int64(len(src))) > fsys.DefaultMaxUnitBytes {
				return nil
			}
			more := ws.Includes(p)
			ws.File(p)
			return more
		})
	}()
}

// parseAll parses the files of paths not parsed yet in the view's
// workspace on jobs cores, apart from the caller; done is closed once
// they are parsed. An
// edit leaves one file to parse (or none): it parses on one goroutine,
// as on a busy machine each goroutine more is a thread waiting for a
// time slice.
func (s *view) parseAll(jobs int, paths []string) (done <-chan struct{}) {
	ws, ch := s.ws, make(chan struct{})
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		defer close(ch)
		paths := ws.Unparsed(paths)
		if len(paths) <= 1 {
			for _, p := range paths {
				ws.File(p)
			}
			return
		}
		// The largest first: a big header parsed last would leave the
		// other cores idle while it parses.
		size := make(map[string]int, len(paths))
		for _, p := range paths {
			src, _ := ws.Source(p)
			size[p] = len(src)
		}
		slices.SortStableFunc(paths, func(a, b string) int { return size[b] - size[a] })
		workspace.Parallel(jobs, paths, func(p string) []string {
			ws.File(p)
			return nil
		})
	}()
	return ch
}

// writeParses writes the trees the parse cache queued (a first open's)
// once no foreground work is under way: the next server's open needs
// them, this one's first diagnostics do not.
func (s *Server) writeParses() {
	c := s.parseCache
	if c == nil || !c.Queued() {
		return
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		c.Drain(func() error { return s.sched.idle(s.ctx, nil) })
	}()
}

// processCPU is the CPU the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// logSkipped tells the client, once per path, about files the workspace
// did not read (FIFOs, devices, files over max-file-size, UTF-16, broken
// symlinks): their findings are missing, and the user should know why.
func (s *Server) logSkipped() {
	for _, p := range s.latest().ws.Problems() {
		s.mu.Lock()
		if s.skipLogged == nil {
			s.skipLogged = map[string]bool{}
		}
		seen := s.skipLogged[p.Path]
		s.skipLogged[p.Path] = true
		s.mu.Unlock()
		if !seen {
			s.logf(protocol.MessageTypeWarning, "skipped %s: %v", p.Path, p.Err)
		}
	}
}

// diagnosticsOf returns the findings of any file: the open buffer or disk.
func (s *view) diagnosticsOf(ctx context.Context, path string) ([]analysis.Diagnostic, *int32, error) {
	if dv, ok := s.snap.docs[path]; ok {
		diags, v, err := s.analyze(ctx, dv.d)
		return diags, &v, err
	}
	diags, err := s.closedDiagnostics(ctx, path)
	return diags, nil, err
}

// closedDiagnostics analyses a file no editor holds open, reusing its last
// findings while the parses and stubs they read (unit.InputsOf) and
// the settings are the same: a workspace diagnostic after an edit runs the
// rules again only on the files whose compiles read the edited one.
func (s *view) closedDiagnostics(ctx context.Context, path string) ([]analysis.Diagnostic, error) {
	cfgGen := s.cfgGen.Load()
	inputs := unit.InputsOf(s.ws, path)
	s.mu.Lock()
	c, ok := s.closed[path]
	s.mu.Unlock()
	if ok && c.cfgGen == cfgGen && unit.SameInputs(c.inputs, inputs) {
		return c.diags, nil
	}
	diags, err := s.runAnalysis(ctx, path)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.cfgGen.Load() == cfgGen {
		s.closed[path] = diagCache{valid: true, cfgGen: cfgGen, inputs: inputs, diags: diags}
	}
	s.mu.Unlock()
	return diags, nil
}

// pruneClosed drops the cached findings of files no longer reported on.
func (s *Server) pruneClosed(files []string) {
	keep := make(map[string]bool, len(files))
	for _, p := range files {
		keep[p] = true
	}
	s.mu.Lock()
	for p := range s.closed {
		if !keep[p] || s.docs[p] != nil {
			delete(s.closed, p)
		}
	}
	s.mu.Unlock()
}

// toProtocol converts the findings located in path.
func (s *view) toProtocol(path string, diags []analysis.Diagnostic) []protocol.Diagnostic {
	if len(diags) == 0 {
		return nil
	}
	lines := s.linesFor(path)
	out := make([]protocol.Diagnostic, 0, len(diags))
	for _, d := range diags {
		if d.File != path {
			continue
		}
		out = append(out, s.convert(lines, d))
	}
	return out
}

func (s *view) convert(lines *grammar.Lines, d analysis.Diagnostic) protocol.Diagnostic {
	sev := severityOf(d.Severity)
	if d.Advisory && d.Severity == analysis.SeverityInfo && s.houseRulesAsHints() {
		sev = protocol.DiagnosticSeverityHint
	}
	pd := protocol.Diagnostic{
		Range:    rangeOf(lines, d.Start, d.End),
		Severity: sev,
		Code:     d.Code,
		Source:   "extern-lsp",
		Message:  d.Message,
	}
	if a := s.analyzer(d.Code); a != nil {
		pd.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(a.DocURL())}
		if strings.Contains(a.Name, "unused") {
			pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
		}
	}
	for _, r := range d.Related {
		rl := lines
		if r.File != d.File {
			rl = s.linesFor(r.File)
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(s.uriFor(r.File)), Range: rangeOf(rl, r.Start, r.End)},
			Message:  r.Message,
		})
	}
	return pd
}

func severityOf(sv analysis.Severity) protocol.DiagnosticSeverity {
	switch sv {
	case analysis.SeverityError:
		return protocol.DiagnosticSeverityError
	case analysis.SeverityWarning:
		return protocol.DiagnosticSeverityWarning
	case analysis.SeverityHint:
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityInformation
}

func (s *Server) analyzer(code string) *analysis.Analyzer {
	for _, a := range s.opts.Analyzers {
		if a.Code == code {
			return a
		}
	}
	return nil
}

// edited follows a change of an open document: the document is diagnosed
// after the adaptive debounce, the other open documents whose findings
// read it (dependents) after the longest.
func (s *Server) edited(d *document, opened bool) {
	s.mu.Lock()
	s.focus = d
	s.mu.Unlock()
	s.mu.Lock()
	pull := s.pull
	n := len(s.docs)
	s.mu.Unlock()
	if isConfigFile(d.path) {
		s.reloadFileSettings()
	}
	_, hi := s.debounce()
	if d.lang == grammar.Python || n > 1 {
		// A stub or an included file moved: the args hints of the other
		// open files may name other parameters now.
		s.refreshInlay(hi)
	}
	if pull {
		if n > 1 || opened {
			s.refreshPull(hi)
		}
		return
	}
	delay := s.delayFor(d)
	lo, _ := s.debounce()
	var show time.Time
	switch {
	case opened:
		// Nothing is being typed yet: the first diagnostics go out at once.
		delay = 0
	case delay == lo && lo > 0:
		// An analysis cheaper than the floor runs at once and its
		// findings wait for the floor: they are shown at the floor, not
		// the analysis after it. A newer edit cancels the run.
		d.mu.Lock()
		cheap := d.lastCost <= lo
		d.mu.Unlock()
		if cheap {
			show, delay = time.Now().Add(lo), 0
		}
	}
	d.mu.Lock()
	d.showAt = show
	d.mu.Unlock()
	if isConfigFile(d.path) {
		s.schedule(d, delay, true)
		s.rediagnoseAll(d)
		return
	}
	// Which documents read d is looked up once its debounce ends, off
	// the read loop and once per burst of edits (scheduleDependents).
	d.mu.Lock()
	d.depsDue = true
	d.mu.Unlock()
	s.schedule(d, delay, true)
}

// scheduleDependents schedules the documents whose findings read d, after
// an edit of d whose debounce ended.
func (s *Server) scheduleDependents(d *document) {
	lo, hi := s.debounce()
	delay := hi - max(lo, 0)
	deps := s.dependents(d)
	d.mu.Lock()
	// The documents that read the previous version read what it no
	// longer says (an #include removed): they are diagnosed again too.
	was := d.deps
	d.deps = deps
	d.mu.Unlock()
	for _, o := range deps {
		s.schedule(o, delay, false)
	}
	for _, o := range was {
		if !slices.Contains(deps, o) {
			s.schedule(o, delay, false)
		}
	}
}

// rescheduleNewDependents follows d's analysis of a new version: the
// workspace now holds its text, whose includes may make other documents
// read it. Those the edit did not schedule (the include graph it saw was
// the previous version's) are scheduled now.
func (s *Server) rescheduleNewDependents(d *document) {
	d.mu.Lock()
	old := d.deps
	d.mu.Unlock()
	_, hi := s.debounce()
	for _, o := range s.dependents(d) {
		if !slices.Contains(old, o) {
			s.schedule(o, hi, false)
		}
	}
}

// dependents are the open documents other than d whose findings read d:
// its includers and the files of the units it belongs to; every document
// for a Python file (the stubs' ABI tables reach every unit).
func (s *Server) dependents(d *document) []*document {
	var out []*document
	// The include graph as last read: rescheduleNewDependents follows
	// the edit's own includes once its analysis read them.
	ws := s.latest().ws
	for _, o := range s.openDocs() {
		if o != d && (d.lang != grammar.CPP || slices.Contains(unit.InputPaths(ws, o.path), d.path)) {
			out = append(out, o)
		}
	}
	return out
}

// rediagnoseAll schedules every open document but except.
func (s *Server) rediagnoseAll(except *document) {
	s.mu.Lock()
	pull := s.pull
	s.mu.Unlock()
	if pull {
		return
	}
	_, hi := s.debounce()
	for _, o := range s.openDocs() {
		if o != except {
			s.schedule(o, hi, false)
		}
	}
}

// delayFor is the debounce of a document: MinDebounce while its last
// analysis took no longer than that, else twice that analysis, up to
// MaxDebounce; so big files wait for typing to pause and the others
// answer at the floor.
func (s *Server) delayFor(d *document) time.Duration {
	lo, hi := s.debounce()
	if lo < 0 || hi < 0 {
		return 0
	}
	d.mu.Lock()
	cost := d.lastCost
	d.mu.Unlock()
	return debounceFor(cost, lo, hi)
}

// debounceFor is the delay after an edit of a document whose analysis
// costs cost.
func debounceFor(cost, lo, hi time.Duration) time.Duration {
	if cost <= lo {
		return lo
	}
	return min(2*cost, hi)
}

// An edit of the document itself postpones its pending run (typing goes
// on); a change elsewhere never does: a run already due sees it, and a
// document not yet published is diagnosed at once.
func (s *Server) schedule(d *document, delay time.Duration, postpone bool) {
	if s.ctx.Err() != nil {
		return
	}
	delay = max(delay, 0)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if !postpone && !d.published {
		delay = 0
	}
	due := time.Now().Add(delay)
	if !postpone && !d.due.IsZero() && !d.due.After(due) {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.cancelRun != nil {
		// A newer version (or a changed include) makes the running
		// analysis moot.
		d.cancelRun()
	}
	d.due = due
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		d.mu.Lock()
		if d.timer == t {
			d.due = time.Time{}
		}
		// At most one publication per document runs, and one waits: a
		// flood of edits is not a goroutine per edit queued on pubMu.
		if d.publishing {
			d.again = true
			d.mu.Unlock()
			return
		}
		d.publishing = true
		for {
			deps := d.depsDue
			d.depsDue, d.again = false, false
			d.mu.Unlock()
			if deps {
				s.scheduleDependents(d)
			}
			s.publish(d)
			d.mu.Lock()
			if !d.again {
				d.publishing = false
				d.mu.Unlock()
				return
			}
		}
	})
	d.timer = t
}

// publish analyses a document and pushes its diagnostics with the version
// they were computed for; a result for a version that is no longer current
// is dropped (the newer edit has its own run scheduled).
func (s *Server) publish(d *document) {
	if s.ctx.Err() != nil {
		return
	}
	d.pubMu.Lock()
	defer d.pubMu.Unlock()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	if s.focused() != d {
		// Another document's edit made this run: it yields to the
		// focused document and to requests.
		ctx = background(ctx)
	}
	d.mu.Lock()
	closed := d.closed
	d.cancelRun = cancel
	d.mu.Unlock()
	if closed {
		return
	}
	v := s.viewOf(ctx)
	if s.hooks.publishing != nil {
		s.hooks.publishing(v, d)
	}
	diags, version, seq, err := v.analyzeSeq(ctx, d)
	if err == errStale && ctx.Err() == nil {
		// The newer snapshot's run publishes instead; the change's own
		// scheduling may not come for a debounce, so one is asked for.
		_, hi := s.debounce()
		s.schedule(d, hi, false)
		return
	}
	if err != nil {
		if ctx.Err() == nil && err != errNotInSnapshot {
			s.logf(protocol.MessageTypeWarning, "analysing %s: %v", d.path, err)
		}
		return
	}
	d.mu.Lock()
	wait := time.Until(d.showAt)
	d.mu.Unlock()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
	items := v.toProtocol(d.path, diags)
	d.mu.Lock()
	// What the rules took, not the waits for a slot, the transport or a
	// run of another's reused: the debounce follows the document's cost,
	// an edit's (the first run computes the whole unit's facts).
	if d.published {
		d.lastCost = time.Duration(v.ran.Load())
	}
	// Publications are serialised by pubMu: only a result for an older
	// edit than the current one is stale, whatever versions the client
	// numbered them with.
	stale := d.closed || d.seq != seq
	newDeps := !stale && d.depsSeq != seq
	if newDeps {
		d.depsSeq = seq
	}
	d.mu.Unlock()
	if stale {
		return
	}
	if newDeps {
		s.rescheduleNewDependents(d)
	}
	// A change elsewhere that no compile of this file reads leaves its
	// findings as they were: the client already shows them.
	id := resultID(items)
	d.mu.Lock()
	same := d.published && d.pubVersion == version && d.pubID == id
	d.mu.Unlock()
	if same {
		return
	}
	s.notify("textDocument/publishDiagnostics", publishParams{URI: d.uri, Version: &version, Diagnostics: fullItems(items)})
	d.mu.Lock()
	d.published, d.pubVersion, d.pubID = true, version, id
	d.mu.Unlock()
}

// refreshPull asks a pulling client to pull again (debounced).
func (s *Server) refreshPull(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pull || s.caps.Workspace == nil || s.caps.Workspace.Diagnostics == nil || !s.caps.Workspace.Diagnostics.RefreshSupport {
		return
	}
	if s.refreshT != nil {
		s.refreshT.Stop()
	}
	s.refreshT = time.AfterFunc(max(delay, 0), func() {
		if s.ctx.Err() != nil {
			return
		}
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		if err := s.call(ctx, "workspace/diagnostic/refresh", nil, nil); err != nil {
			s.logf(protocol.MessageTypeLog, "workspace/diagnostic/refresh: %v", err)
		}
	})
}

// refreshInlay asks the client to request inlay hints and code lenses
// again (debounced): both show the args[] ABI, which an edit of a stub or an
// included file can change.
func (s *Server) refreshInlay(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var methods []string
	if w := s.caps.Workspace; w != nil {
		if w.InlayHint != nil && w.InlayHint.RefreshSupport {
			methods = append(methods, "workspace/inlayHint/refresh")
		}
		if w.CodeLens != nil && w.CodeLens.RefreshSupport {
			methods = append(methods, "workspace/codeLens/refresh")
		}
	}
	if len(methods) == 0 {
		return
	}
	if s.inlayT != nil {
		s.inlayT.Stop()
	}
	s.inlayT = time.AfterFunc(max(delay, 0), func() {
		if s.ctx.Err() != nil {
			return
		}
		for _, m := range methods {
			ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
			if err := s.call(ctx, m, nil, nil); err != nil {
				s.logf(protocol.MessageTypeLog, "%s: %v", m, err)
			}
			cancel()
		}
	})
}

// resultID identifies a report by content, so an unchanged result is
// answered as such.
func resultID(items []protocol.Diagnostic) string {
	h := fnv.New64a()
	b, _ := json.Marshal(items)
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

func (s *view) documentDiagnostic(ctx context.Context, doc docRequest, p *documentDiagnosticParams) (any, error) {
	path := doc.path
	diags, _, err := s.diagnosticsOf(ctx, path)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			// Cancelled, or stale (errStale, the document's own text
			// given up): an empty report would read as a clean file.
			return nil, err
		}
		// A file that cannot be read has no findings.
		s.logf(protocol.MessageTypeLog, "diagnostic %s: %v", path, err)
	}
	items := s.toProtocol(path, diags)
	id := resultID(items)
	if p.PreviousResultID == id {
		return documentDiagnosticReport{Kind: "unchanged", ResultID: id}, nil
	}
	return documentDiagnosticReport{Kind: "full", ResultID: id, Items: fullItems(items)}, nil
}

// workspaceFiles lists what workspace/diagnostic reports on: every C++
// file under the roots, the Python stubs, and the open documents.
func (s *view) workspaceFiles() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] && isSupported(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	// As `check DIR`: files under vendor/, third_party/ and the other
	// folders a walk skips are analysed as parts of the units that include
	// them, but reported on only once opened (named).
	roots := s.ws.Roots()
	for _, p := range s.ws.KnownFiles() {
		if !underSkippedDir(roots, p) {
			add(p)
		}
	}
	for _, p := range s.stubFiles() {
		if !underSkippedDir(roots, p) {
			add(p)
		}
	}
	for _, d := range s.openDocs() {
		add(d.path)
	}
	sort.Strings(out)
	return out
}

// underSkippedDir reports whether a folder between p's root and p is one
// a walk of the root skips (workspace.SkipDir).
func underSkippedDir(roots []string, p string) bool {
	for _, r := range roots {
		rel, err := filepath.Rel(r, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		dirs := strings.Split(filepath.Dir(rel), string(filepath.Separator))
		for _, d := range dirs {
			if d != "." && workspace.SkipDir(d) {
				return true
			}
		}
		return false
	}
	return false
}

// workspaceDiagnostic reports every workspace file. When every report is
// unchanged from the client's previous result ids it holds the request open
// until something changes (or the client cancels it), as the client
// re-sends it as soon as it returns.
func (s *view) workspaceDiagnostic(ctx context.Context, p *workspaceDiagnosticParams) (any, error) {
	// The whole workspace yields to the focused document and to requests.
	ctx = background(ctx)
	prev := map[string]string{}
	for _, r := range p.PreviousResultIDs {
		if path := pathOf(r.URI); path != "" {
			prev[path] = r.Value
		}
	}
	for {
		changed := s.changed()
		var rep workspaceDiagnosticReport
		fresh := 0
		// Each round reads the snapshot current when it starts.
		s = s.viewOf(ctx)
		files := s.workspaceFiles()
		release := s.releaser(files)
		reports := make([]*workspaceDocumentDiagnosticReport, len(files))
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < s.sched.slots; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					path := files[i]
					diags, version, err := s.diagnosticsOf(ctx, path)
					release.Done(i)
					if err != nil {
						continue
					}
					items := s.toProtocol(path, diags)
					reports[i] = &workspaceDocumentDiagnosticReport{URI: s.uriFor(path), Version: version, ResultID: resultID(items), Items: items}
				}
			}()
		}
		for i := range files {
			if ctx.Err() != nil {
				break
			}
			next <- i
		}
		close(next)
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.pruneClosed(files)
		for i, r := range reports {
			if r == nil {
				continue
			}
			if prev[files[i]] == r.ResultID {
				r.Kind, r.Items = "unchanged", nil
			} else {
				r.Kind, r.Items = "full", fullItems(r.Items.([]protocol.Diagnostic))
				fresh++
			}
			rep.Items = append(rep.Items, *r)
		}
		if fresh > 0 || len(prev) == 0 {
			if rep.Items == nil {
				rep.Items = []workspaceDocumentDiagnosticReport{}
			}
			return rep, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		// Re-analysing the whole workspace per keystroke would be wasted:
		// wait for the edits to pause.
		_, hi := s.debounce()
		if err := s.quiet(ctx, max(hi, 0)); err != nil {
			return nil, err
		}
	}
}

// releaser frees, as a workspace diagnostic goes, the parses and facts of
// the closed files no file left to report reads: the server keeps what the
// open documents' next edit needs, not every node of the workspace.
func (s *view) releaser(files []string) *unit.Releaser {
	return unit.NewReleaser(s.ws, s.store, files, s.openUnits(), s.sched.slots)
}

// openUnits returns a test for the files the open documents' units read:
// the parses (and facts) the next edit needs.
// The set is computed once per input generation (any edit, open, close
// or external change starts a new one).
func (s *Server) openUnits() func(path string) bool {
	gen := s.gen.Load()
	s.keepMu.Lock()
	defer s.keepMu.Unlock()
	if s.keep == nil || s.keepGen != gen {
		keep := map[string]bool{}
		ws := s.latest().ws
		for _, d := range s.openDocs() {
			for _, p := range unit.Paths(ws, d.path) {
				keep[p] = true
			}
		}
		s.keep, s.keepGen = keep, gen
	}
	keep := s.keep
	return func(p string) bool { return keep[p] }
}

// DefaultParseBudget is the text of the closed files whose parses the
// server keeps besides those of the open documents' units: about one
// realistic unit, so a hover or a pull on a closed file reuses a recent
// parse, while a workspace symbol search or a closed document leaves no
// more trees behind.
const DefaultParseBudget = 1 << 20

// trimParses releases the least recently used parses beyond the budget.
func (s *Server) trimParses() {
	sn := s.latest()
	if sn == nil {
		return
	}
	s.store.Release(sn.ws.TrimParses(max(s.opts.ParseBudget, 0), s.openUnits)...)
}

// quiet returns once no input has changed for d.
func (s *Server) quiet(ctx context.Context, d time.Duration) error {
	for {
		changed := s.changed()
		select {
		case <-changed:
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
