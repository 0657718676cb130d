package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// allocatedObjects is the number of heap objects the process allocated so
// far: a count of work that, unlike a duration, does not depend on the
// machine's load.
func allocatedObjects() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestCancelStopsRules cancels the analysis of each adversarial shape
// part way through and counts the work done after the cancel, until the
// run has returned and every abandoned rule has stopped: a rule or fact
// whose long loop does not look at its context holds a core for the rest
// of its work (issue 13: a cancelled 2 MB run kept the server's cores busy
// while other files waited).
func TestCancelStopsRules(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	names := make([]string, 0, len(shapeGens))
	for n := range shapeGens {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src := shapeGens[name](128 << 10)
			dir := t.TempDir()
			path := filepath.Join(dir, "big.cpp")
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			run := func(ctx context.Context) {
				ws := workspace.New(dir)
				ws.SetLimits(func(string) int64 { return 64 << 20 }, 0)
				analysis.RunContext(ctx, ws, path, analysis.Options{Analyzers: All(), Enabled: func(*analysis.Analyzer) bool { return true }})
				for deadline := time.Now().Add(2 * time.Minute); analysis.RulesRunning() > 0; time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("%d rules still running 2 minutes after the run returned", analysis.RulesRunning())
					}
				}
			}
			a0 := allocatedObjects()
			run(context.Background())
			full := allocatedObjects() - a0
			for _, quarter := range []uint64{1, 2, 3} {
				ctx, cancel := context.WithCancel(context.Background())
				start := allocatedObjects()
				var at uint64
				stop, done := make(chan struct{}), make(chan struct{})
				go func() {
					defer close(done)
					for {
						select {
						case <-stop:
							return
						case <-time.After(100 * time.Microsecond):
						}
						if n := allocatedObjects(); n-start >= full*quarter/4 {
							// Counted from the cancel, not from the read
							// that decided it: a poller the OS delays
							// between the two would charge the rules with
							// work done before they were told to stop.
							cancel()
							at = allocatedObjects()
							if dbg := os.Getenv("CANCEL_PROF"); dbg != "" {
								runtime.GC()
								f, _ := os.Create(fmt.Sprintf("%s-%s-%d-a.prof", dbg, name, quarter))
								pprof.Lookup("allocs").WriteTo(f, 0)
								f.Close()
							}
							return
						}
					}
				}()
				run(ctx)
				close(stop)
				<-done // at is the poller's
				if dbg := os.Getenv("CANCEL_PROF"); dbg != "" && at != 0 {
					runtime.GC()
					f, _ := os.Create(fmt.Sprintf("%s-%s-%d-b.prof", dbg, name, quarter))
					pprof.Lookup("allocs").WriteTo(f, 0)
					f.Close()
				}
				cancel()
				if at == 0 {
					continue // finished before the cancel point (the run was cheaper this time)
				}
				after := allocatedObjects() - at
				t.Logf("%s: cancelled after %d of %d objects; %d allocated after (%.1f%%)", name, at-start, full, after, 100*float64(after)/float64(full))
				// An abandoned rule finishes the fact it is computing (the
				// effects of one function: on one-function and one-line,
				// an eighth of the run) and stops at its next loop test.
				if after > full/4 {
					t.Errorf("%s: %d objects allocated after a cancel at %d/4 of the run's %d: the analysis does not stop promptly", name, after, quarter, full)
				}
			}
		})
	}
}
