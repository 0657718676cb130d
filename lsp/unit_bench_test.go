package lsp

import (
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
)

// Editor latency on realistic extern units (benchgen.WriteUnits: two
// attention entries, their templated body header, a generated header, 45
// vendored headers and a stub of three externs; ~15,000 lines per unit),
// over real JSON-RPC, debounce off. "copies=4" is the same shape four
// times in one workspace, to show what grows with the workspace.
//
//	go test ./lsp -run '^$' -bench 'Unit' -benchtime 40x

type unitSession struct {
	c    *testClient
	unit benchgen.GenUnit
	body *buffer
	at   protocol.Position // the body's edit anchor line, below the marker
	n    int
}

func openUnit(b *testing.B, copies int) *unitSession {
	return openUnitWith(b, copies, Options{MinDebounce: -1, MaxDebounce: -1}, false)
}

// openUnitWith is openUnit with the server's options, for a client that
// pulls diagnostics when pull is set.
func openUnitWith(b *testing.B, copies int, opts Options, pull bool) *unitSession {
	dir := b.TempDir()
	units, err := benchgen.WriteUnits(dir, copies)
	if err != nil {
		b.Fatal(err)
	}
	u := units[0]
	c := startServer(b, opts)
	caps := map[string]any{}
	if pull {
		caps = pullCaps
	}
	c.initialize([]string{dir}, caps)
	stub, entry := c.open(u.Stub), c.open(u.Entry)
	body := c.open(u.Body)
	// Every open document analysed once before the edits are timed.
	for _, b := range []*buffer{stub, entry, body} {
		if pull {
			c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, nil)
		} else {
			c.diagnosticsFor(b.uri, 1)
		}
	}
	at := find(b, body.text, benchgen.BodyEditMarker, 0)
	at.Line++
	return &unitSession{c: c, unit: u, body: body, at: at}
}

// edit alternately adds and removes a line holding a finding in the body
// header (both attention units include it).
func (s *unitSession) edit() {
	var e protocol.TextEdit
	if s.n%2 == 0 {
		e = protocol.TextEdit{Range: protocol.Range{Start: s.at, End: s.at}, NewText: benchgen.BodyEditLine}
	} else {
		e = protocol.TextEdit{Range: protocol.Range{Start: s.at, End: protocol.Position{Line: s.at.Line + 1}}}
	}
	s.n++
	s.c.edit(s.body, []protocol.TextEdit{e})
}

type latencies struct {
	d   []time.Duration
	cpu time.Duration
	ms  runtime.MemStats
}

func (l *latencies) start() {
	runtime.ReadMemStats(&l.ms)
	l.cpu = processCPU()
}

func (l *latencies) report(b *testing.B) {
	cpu := processCPU() - l.cpu
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	sort.Slice(l.d, func(i, j int) bool { return l.d[i] < l.d[j] })
	pct := func(p float64) time.Duration { return l.d[min(len(l.d)-1, int(p*float64(len(l.d))))] }
	b.ReportMetric(float64(pct(0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(ms.Mallocs-l.ms.Mallocs)/float64(b.N), "mallocs/op")
	b.ReportMetric(float64(ms.TotalAlloc-l.ms.TotalAlloc)/(1<<20)/float64(b.N), "alloc-MB/op")
	if rss, hwm := procRSS(); rss > 0 {
		b.ReportMetric(hwm, "peak-rss-MB")
	}
}

// BenchmarkUnitEditToPublish: didChange on the body header → its
// publishDiagnostics.
func BenchmarkUnitEditToPublish(b *testing.B) {
	for _, copies := range []int{1, 4} {
		b.Run(fmt.Sprintf("copies=%d", copies), func(b *testing.B) {
			s := openUnit(b, copies)
			var l latencies
			l.start()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				s.edit()
				ds := s.c.diagnosticsFor(s.body.uri, s.body.version)
				l.d = append(l.d, time.Since(t0))
				if want := s.n%2 == 1; want != (len(withCode(ds, benchgen.BodyEditCode)) > 0) {
					b.Fatalf("v%d: %s present=%v, want %v: %v", s.body.version, benchgen.BodyEditCode, !want, want, codes(ds))
				}
			}
			b.StopTimer()
			l.report(b)
			s.c.shutdown()
		})
	}
}

// BenchmarkUnitEditToPull: a pulling client's didChange on the body
// header → its textDocument/diagnostic answer (the figure a pull-mode
// editor shows a keystroke's findings after).
func BenchmarkUnitEditToPull(b *testing.B) {
	s := openUnitWith(b, 1, Options{MinDebounce: -1, MaxDebounce: -1}, true)
	var l latencies
	l.start()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		s.edit()
		var rep pullReport
		s.c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": s.body.uri}}, &rep)
		l.d = append(l.d, time.Since(t0))
		if want := s.n%2 == 1; want != (len(withCode(rep.Items, benchgen.BodyEditCode)) > 0) {
			b.Fatalf("v%d: %s present=%v, want %v: %v", s.body.version, benchgen.BodyEditCode, !want, want, codes(rep.Items))
		}
	}
	b.StopTimer()
	l.report(b)
	s.c.shutdown()
}

// BenchmarkUnitEditToPushAtFloor: the push with the server's own debounce
// (50 ms floor, 300 ms cap): what an edit waits past the floor is the
// figure ("over-floor" percentiles); the debounce must stay at its floor
// while the analysis is faster than it.
func BenchmarkUnitEditToPushAtFloor(b *testing.B) {
	const floor = 50 * time.Millisecond
	s := openUnitWith(b, 1, Options{MinDebounce: floor, MaxDebounce: 300 * time.Millisecond}, false)
	var l latencies
	l.start()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		s.edit()
		s.c.diagnosticsFor(s.body.uri, s.body.version)
		l.d = append(l.d, time.Since(t0)-floor)
	}
	b.StopTimer()
	l.report(b)
	s.c.shutdown()
}

// BenchmarkUnitRequestAfterEdit: didChange on the body header, then at
// once a hover (on an args slot read) or a code action (on the edited
// line); the latency is the request's. The diagnostics of the version are
// awaited before the next edit.
func BenchmarkUnitRequestAfterEdit(b *testing.B) {
	for _, method := range []string{"hover", "codeAction"} {
		for _, copies := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/copies=%d", method, copies), func(b *testing.B) {
				s := openUnit(b, copies)
				var l latencies
				l.start()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.edit()
					t0 := time.Now()
					doc := map[string]any{"uri": s.body.uri}
					if method == "hover" {
						pos := find(b, s.body.text, "tensor_data<uint8_t>(args, 5)", 0)
						pos.Character += uint32(len("tensor_data<uint8_t>(args, "))
						s.c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos}, nil)
					} else {
						s.c.call("textDocument/codeAction", map[string]any{"textDocument": doc,
							"range":   protocol.Range{Start: s.at, End: protocol.Position{Line: s.at.Line, Character: 10}},
							"context": map[string]any{"diagnostics": []any{}}}, nil)
					}
					l.d = append(l.d, time.Since(t0))
					s.c.diagnosticsFor(s.body.uri, s.body.version)
				}
				b.StopTimer()
				l.report(b)
				s.c.shutdown()
			})
		}
	}
}

// BenchmarkUnitOpenToDiagnostics: a fresh server on the workspace, didOpen
// of the body header → its first publishDiagnostics; cache=read: the
// unit's trees read back from a parse cache an earlier server filled.
func BenchmarkUnitOpenToDiagnostics(b *testing.B) {
	for _, copies := range []int{1, 4} {
		for _, cached := range []bool{false, true} {
			b.Run(fmt.Sprintf("copies=%d/cache=%v", copies, map[bool]string{false: "none", true: "read"}[cached]), func(b *testing.B) {
				benchOpen(b, copies, cached)
			})
		}
	}
}

func benchOpen(b *testing.B, copies int, cached bool) {
	dir := b.TempDir()
	units, err := benchgen.WriteUnits(dir, copies)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{MinDebounce: 50 * time.Millisecond, MaxDebounce: 300 * time.Millisecond}
	if cached {
		opts.ParseCache = b.TempDir()
		c := startServer(b, opts)
		c.initialize([]string{dir}, map[string]any{})
		c.diagnosticsFor(c.open(units[0].Body).uri, 1)
		c.shutdown()
	}
	var l latencies
	l.start()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := startServer(b, opts)
		c.initialize([]string{dir}, map[string]any{})
		b.StartTimer()
		t0 := time.Now()
		body := c.open(units[0].Body)
		c.diagnosticsFor(body.uri, 1)
		l.d = append(l.d, time.Since(t0))
		b.StopTimer()
		c.shutdown()
		b.StartTimer()
	}
	b.StopTimer()
	l.report(b)
}
