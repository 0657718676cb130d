// Command partrace reads an execution trace of `extern-lsp check`
// (EXTERN_LSP_TRACE=FILE) and says how parallel the run was, whatever the
// load of the machine it ran on:
//
//	GOMAXPROCS=2 EXTERN_LSP_TRACE=t.out extern-lsp check -j 2 TREE
//	go run ./tools/partrace -p 2 t.out
//
// A goroutine has work while it runs, is in a cgo call (the parser) or is
// runnable (the wait for an OS thread is the machine's load, not a lack of
// parallelism). The work is the time integral of min(goroutines with work,
// P); the ideal speedup on P cores is work / wall: P when P goroutines
// always had work. The core-seconds lost (P minus those with work) are
// split over the phases of the run (the engine's trace regions) and over
// what the waiting goroutines were blocked on.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/exp/trace"
)

type goroutine struct {
	state   trace.GoState
	waiting string // where it blocked, while it waits
	system  bool   // a runtime goroutine (GC, trace writer)
	regions []string
}

func main() {
	procs := flag.Int("p", 2, "the cores (GOMAXPROCS) of the run")
	depth := flag.Int("depth", 4, "frames named per blocking site")
	verbose := flag.Bool("v", false, "list every interval of more than 10 ms with fewer than P goroutines at work")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: partrace [-p P] [-depth N] [-v] TRACE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	P := *procs
	gs := map[trace.GoID]*goroutine{}
	get := func(id trace.GoID) *goroutine {
		g := gs[id]
		if g == nil {
			g = &goroutine{}
			gs[id] = g
		}
		return g
	}
	var start, last, lowStart trace.Time
	var wall, work float64
	hist := make([]float64, P+1)
	phaseWall, phaseLost := map[string]float64{}, map[string]float64{}
	lost, lowWhy := map[string]float64{}, map[string]float64{}
	// phase is the innermost engine phase open on any goroutine.
	phase := func() string {
		ph := "other"
		for _, g := range gs {
			for _, r := range g.regions {
				if r != "file" && !strings.HasPrefix(r, "rule ") {
					ph = r
				}
			}
		}
		return ph
	}
	advance := func(t trace.Time) {
		if start == 0 {
			start, last = t, t
			return
		}
		from := last
		dt := float64(t-last) / 1e9
		last = t
		if dt <= 0 {
			return
		}
		busy := 0
		for _, g := range gs {
			switch g.state {
			case trace.GoRunning, trace.GoSyscall, trace.GoRunnable:
				busy++
			}
		}
		busy = min(busy, P)
		wall += dt
		work += float64(busy) * dt
		hist[busy] += dt
		ph := phase()
		phaseWall[ph] += dt
		if busy == P {
			if lowStart != 0 && *verbose {
				if d := float64(from-lowStart) / 1e9; d > 0.01 {
					fmt.Printf("%.3f..%.3f s: %.3f s with fewer than %d at work (%s):", float64(lowStart-start)/1e9, float64(from-start)/1e9, d, P, ph)
					for k, v := range lowWhy {
						if v > 0.002 {
							fmt.Printf(" [%.3f %s]", v, k)
						}
					}
					fmt.Println()
				}
			}
			lowStart = 0
			clear(lowWhy)
			return
		}
		if lowStart == 0 {
			lowStart = from
		}
		miss := float64(P-busy) * dt
		phaseLost[ph] += miss
		var why []string
		for _, g := range gs {
			if g.state == trace.GoWaiting && !g.system && g.waiting != "" {
				why = append(why, g.waiting)
			}
		}
		if len(why) == 0 {
			why = []string{"no goroutine waiting (serial code)"}
		}
		for _, x := range why {
			lost[ph+": "+x] += miss / float64(len(why))
			lowWhy[x] += miss / float64(len(why))
		}
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		advance(ev.Time())
		switch ev.Kind() {
		case trace.EventStateTransition:
			st := ev.StateTransition()
			if st.Resource.Kind != trace.ResourceGoroutine {
				continue
			}
			g := get(st.Resource.Goroutine())
			_, to := st.Goroutine()
			g.state = to
			g.waiting = ""
			if to == trace.GoWaiting {
				g.waiting, g.system = blockedAt(st.Reason, st.Stack, *depth)
				g.system = g.system || st.Reason == "system goroutine wait"
			}
		case trace.EventRegionBegin:
			g := get(ev.Goroutine())
			g.regions = append(g.regions, ev.Region().Type)
		case trace.EventRegionEnd:
			if g := gs[ev.Goroutine()]; g != nil && len(g.regions) > 0 {
				g.regions = g.regions[:len(g.regions)-1]
			}
		case trace.EventLog:
			if ev.Log().Category == "schedule" {
				fmt.Println("schedule:", ev.Log().Message)
			}
		}
	}
	fmt.Printf("wall %.3f s, work %.3f core-s: ideal speedup on %d cores %.3f\n", wall, work, P, work/wall)
	for i, h := range hist {
		fmt.Printf("  %.3f s with %d at work\n", h, i)
	}
	fmt.Println("core-seconds lost by phase:")
	for _, k := range byValue(phaseLost, 0.001) {
		fmt.Printf("  %.3f  %s (wall %.3f s)\n", phaseLost[k], k, phaseWall[k])
	}
	fmt.Println("core-seconds lost by what the idle goroutines waited on:")
	for _, k := range byValue(lost, 0.005) {
		fmt.Printf("  %.3f  %s\n", lost[k], k)
	}
}

func byValue(m map[string]float64, floor float64) []string {
	var ks []string
	for k, v := range m {
		if v >= floor {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] })
	return ks
}

// blockedAt names where a goroutine blocked: the reason and the first
// frames outside the runtime. Goroutines that only proxy another's work
// (the driver waiting for its rule goroutine, the main goroutine waiting
// for the workers) and runtime goroutines are reported as system: their
// wait is never why a core idles.
func blockedAt(reason string, s trace.Stack, depth int) (string, bool) {
	var fs []string
	runtimeOnly := true
	for fr := range s.Frames() {
		fn := fr.Func
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, "internal/") {
			continue
		}
		runtimeOnly = false
		fn = strings.TrimPrefix(fn, "github.com/extern-lsp/extern-lsp/")
		if len(fs) == 0 && (fn == "analysis.runRule" || strings.HasPrefix(fn, "main.") || fn == "analysis/engine.(*Checker).Check") {
			return "", true
		}
		fs = append(fs, fn)
		if len(fs) == depth {
			break
		}
	}
	return reason + " @ " + strings.Join(fs, " < "), runtimeOnly
}
