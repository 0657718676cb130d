package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// BenchmarkDidChangeToPublish measures the time from sending a didChange on
// a ~5,000-line mixed kernel to receiving its publishDiagnostics, over the
// real JSON-RPC framing, with the debounce turned off (so the figure is the
// reparse + analysis + transport cost the debounce would be added to).
// Reports p50/p99 per edit and the process RSS (server and client share
// the process; the client's share is small).
//
//	go test ./lsp -run '^$' -bench DidChangeToPublish -benchtime 200x
func BenchmarkDidChangeToPublish(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big_kernel.cpp")
	text := genKernel(225)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	c := startServer(b, Options{MinDebounce: -1, MaxDebounce: -1})
	c.initialize([]string{dir}, map[string]any{})
	buf := c.openText(path, text)
	first := c.diagnosticsFor(buf.uri, 1)
	if len(first) == 0 {
		b.Fatal("the benchmark kernel produced no diagnostics")
	}
	lines := strings.Count(text, "\n")
	// Edit inside the entry: alternately add and remove a barrier line, so
	// the findings change with every version.
	at := find(b, buf.text, "  AscendC::SyncAll<false>();\n}", 0)
	var lat []time.Duration
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var e protocol.TextEdit
		if i%2 == 0 {
			e = protocol.TextEdit{Range: protocol.Range{Start: at, End: at}, NewText: "  AscendC::SyncAll();\n"}
		} else {
			end := protocol.Position{Line: at.Line + 1, Character: 0}
			e = protocol.TextEdit{Range: protocol.Range{Start: at, End: end}}
		}
		start := time.Now()
		c.edit(buf, []protocol.TextEdit{e})
		c.diagnosticsFor(buf.uri, buf.version)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	// The machine may be shared: CPU time per edit is the steadier figure.
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	b.ReportMetric(float64(pct(0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lines), "lines")
	if rss, hwm := procRSS(); rss > 0 {
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(hwm, "peak-rss-MB")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	c.shutdown()
}

// procRSS reads VmRSS and VmHWM (MB) from /proc on Linux.
func procRSS() (rss, hwm float64) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}
