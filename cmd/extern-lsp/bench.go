package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func init() {
	commands["bench"] = command{"measure check and the editor on a generated unit or your trees (next to clangd when installed)", runBench}
}

// benchFlags are `extern-lsp bench`'s settings.
type benchFlags struct {
	runs, edits, copies int
	// burn is the number of busy threads of one process the editor
	// session is also measured beside, burnSessions that of busy
	// processes each in a session of its own (0: not measured).
	burn, burnSessions int
	// burner is the hidden mode of one busy child process: its threads.
	burner             int
	clangd             string
	dir                string
	skipLSP, skipCheck bool
	// floor is the hidden mode a parent bench runs in a child: the parse
	// floor of one tree.
	floor string
}

// runBench measures what a user feels, on this machine: check's time, CPU
// and memory on each tree (against the parse floor, one core and two), and
// the editor's latencies on the generated realistic unit, ours next to
// clangd's on the same edits. Every figure comes from child processes of
// this binary (and clangd), so the parent's own work is not in them.
func runBench(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f benchFlags
	fs.IntVar(&f.runs, "runs", 3, "runs of each check figure (the median is shown)")
	fs.IntVar(&f.edits, "edits", 90, "edits of the editor session (each followed by diagnostics, a third by a hover, a code action or a completion)")
	fs.IntVar(&f.copies, "copies", 1, "copies of the generated unit in the workspace (check figures without TREE: 14)")
	fs.StringVar(&f.clangd, "clangd", "clangd", "the clangd to compare with (found on PATH; \"\" or a missing one: ours alone)")
	fs.StringVar(&f.dir, "dir", "", "write the generated units here and keep them (default: a temporary folder, removed)")
	fs.BoolVar(&f.skipLSP, "no-editor", false, "check figures only")
	fs.BoolVar(&f.skipCheck, "no-check", false, "editor figures only")
	fs.IntVar(&f.burn, "burn", 0, "also measure the editor beside one process of N busy threads (e.g. 2x the cores: a build started from a terminal), interleaved with the quiet runs")
	fs.IntVar(&f.burnSessions, "burn-sessions", 0, "also measure the editor beside N busy processes, each in a session of its own (harsher where Linux shares the CPU between sessions first)")
	fs.StringVar(&f.floor, "parse-floor", "", "")
	fs.IntVar(&f.burner, "burner", 0, "")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp bench [--runs N] [--edits N] [--burn N] [--burn-sessions N] [--clangd PATH] [--no-editor | --no-check] [TREE...]\n\n"+
			"Measures, on this machine: check on each TREE (default: 14 copies of the generated realistic unit) on one core\n"+
			"and on two (wall, CPU, peak memory, CPU over the parse floor: the CPU of parsing every file check reads once),\n"+
			"--statistics against check; then the editor on the generated unit over JSON-RPC (open, edit to diagnostics,\n"+
			"hover, code action, completion: p50/p99; the push past the debounce floor), with clangd on the same edits when it\n"+
			"is installed; with --burn N, also beside a process of N busy threads, with --burn-sessions N beside N busy processes.\n"+
			"Measure on a quiet machine: the load is printed with the figures.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if f.floor != "" {
		return parseFloorChild(stdout, stderr, f.floor)
	}
	if f.burner > 0 {
		burn(f.burner)
	}
	if f.runs < 1 || f.edits < 3 || f.copies < 1 || f.burn < 0 || f.burnSessions < 0 {
		fmt.Fprintln(stderr, "extern-lsp bench: --runs and --copies must be at least 1, --edits at least 3, --burn and --burn-sessions not negative")
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
		return 2
	}
	dir := f.dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "extern-lsp-bench-"); err != nil {
			fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
			return 2
		}
		defer os.RemoveAll(dir)
	}
	b := &bench{self: self, out: stdout, stderr: stderr, flags: f}
	b.machine()
	if !f.skipCheck {
		trees := fs.Args()
		if len(trees) == 0 {
			gen := filepath.Join(dir, "generated-14-units")
			if _, err := benchgen.WriteUnits(gen, 14); err != nil {
				fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
				return 2
			}
			trees = []string{gen}
		}
		if err := b.checkFigures(trees); err != nil {
			fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
			return 2
		}
	}
	if !f.skipLSP {
		if err := b.editorFigures(filepath.Join(dir, "editor")); err != nil {
			fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
			return 2
		}
	}
	return 0
}

type bench struct {
	self        string
	out, stderr io.Writer
	flags       benchFlags
}

// machine prints what the figures were measured on.
func (b *bench) machine() {
	model := "unknown CPU"
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(info), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	fmt.Fprintf(b.out, "machine: %s, %d cores, %s/%s, %s; extern-lsp %s\n", model, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), version)
}

// load is the 1-minute load average ("?" where it cannot be read).
func load() string {
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(l)); len(f) > 0 {
			return f[0]
		}
	}
	return "?"
}

// childUsage is what one child process cost.
type childUsage struct {
	wall, cpu time.Duration
	rssKB     int64
	code      int
	stdout    []byte
}

// child runs this binary with args (GOMAXPROCS=procs: the cores it may
// use) and returns what it cost.
func (b *bench) child(procs int, dir string, args ...string) (childUsage, error) {
	cmd := exec.Command(b.self, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(procs), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	u := childUsage{wall: time.Since(t0), stdout: out.Bytes()}
	if cmd.ProcessState == nil {
		return u, err
	}
	u.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		u.rssKB = ru.Maxrss / maxrssPerKB
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) || u.code == 2 && len(out.Bytes()) == 0 {
		return u, fmt.Errorf("%s %s: exit %d: %v %s", filepath.Base(b.self), strings.Join(args, " "), u.code, err, firstLine(errb.String()))
	}
	return u, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// medianOf is the median of xs (the upper one of an even count).
func medianOf[T int64 | float64 | time.Duration](xs []T) T {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// checkFigures prints, per tree: the parse floor's CPU, check on one core
// (-j 1, one core for the process and its collector: CPU, wall, peak RSS,
// CPU over the floor), on two (-j 2: wall, the speed-up) and
// --statistics on two (wall over check's). Each run measures the floor
// and the three checks one after the other, and each figure is the
// median of its own values, the ratios the medians of each run's: on a
// shared machine the load drifts between blocks of runs of one kind, and
// the run of median wall time need not be that of median CPU.
func (b *bench) checkFigures(trees []string) error {
	fmt.Fprintf(b.out, "\ncheck (median of %d interleaved runs; CPU is user+system)\n", b.flags.runs)
	fmt.Fprintf(b.out, "%-22s %6s %9s %9s %7s %10s %8s %10s %8s %10s %6s\n", "tree", "files", "floor-cpu", "1core-cpu", "x-floor", "1core-wall", "peak-MB", "2core-wall", "speedup", "stats-wall", "x-chk")
	for _, t := range trees {
		abs, err := filepath.Abs(t)
		if err != nil {
			return err
		}
		before := load()
		check := func(jobs int, extra ...string) (childUsage, error) {
			args := append([]string{"check", "--format", "json", "--no-progress", "--quiet", "-j", strconv.Itoa(jobs), "--root", abs}, extra...)
			return b.child(jobs, abs, append(args, abs)...)
		}
		var fl floorResult
		var floorCPU, oneCPU, oneWall, twoWall, statsWall []time.Duration
		var rss []int64
		var xFloor, speedup, xChk []float64
		for range b.flags.runs {
			floor, err := b.child(1, abs, "bench", "--parse-floor", abs)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(floor.stdout, &fl); err != nil {
				return fmt.Errorf("parse floor of %s: %v", t, err)
			}
			one, err := check(1)
			if err != nil {
				return err
			}
			two, err := check(2)
			if err != nil {
				return err
			}
			stats, err := check(2, "--statistics")
			if err != nil {
				return err
			}
			f := time.Duration(fl.CPUNanos)
			floorCPU, oneCPU, oneWall, twoWall, statsWall = append(floorCPU, f), append(oneCPU, one.cpu), append(oneWall, one.wall), append(twoWall, two.wall), append(statsWall, stats.wall)
			rss = append(rss, one.rssKB)
			xFloor, speedup, xChk = append(xFloor, ratio(one.cpu, f)), append(speedup, ratio(one.wall, two.wall)), append(xChk, ratio(stats.wall, two.wall))
		}
		name := filepath.Base(abs)
		fmt.Fprintf(b.out, "%-22s %6d %8.2fs %8.2fs %6.2fx %9.2fs %8.0f %9.2fs %7.2fx %9.2fs %5.2fx  (load %s -> %s)\n",
			name, fl.Files, medianOf(floorCPU).Seconds(), medianOf(oneCPU).Seconds(), medianOf(xFloor), medianOf(oneWall).Seconds(), float64(medianOf(rss))/1024,
			medianOf(twoWall).Seconds(), medianOf(speedup), medianOf(statsWall).Seconds(), medianOf(xChk), before, load())
	}
	fmt.Fprintln(b.out, "files: the files check parses; floor-cpu: parsing them once on one core; 1core: check -j 1 on one core;\n"+
		"x-floor: its CPU over the floor's; 2core: check -j 2 on two cores, speedup over 1core's wall; stats: --statistics -j 2, x-chk over 2core")
	return nil
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// floorResult is what the parse-floor child prints.
type floorResult struct {
	Files    int   `json:"files"`
	Bytes    int64 `json:"bytes"`
	CPUNanos int64 `json:"cpu_ns"`
}

// parseFloorChild measures the parse floor of a tree: the CPU of reading
// and parsing, once each, every file a check of the tree reads (the
// files checked and every file of their units), with nothing else. The
// files are found as check finds them (collect, preload, readers); only
// the parses are timed.
func parseFloorChild(stdout, stderr io.Writer, tree string) int {
	loader, err := config.NewLoader("", rules.All())
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
		return 2
	}
	root, err := filepath.Abs(tree)
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
		return 2
	}
	chk := &engine.Checker{Loader: loader, Jobs: 1, RootFor: func(string) string { return root }}
	if err := chk.Collect([]string{root}); err != nil {
		fmt.Fprintf(stderr, "extern-lsp bench: %v\n", err)
		return 2
	}
	chk.WS.Preload(chk.Files, 1)
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	readers := unit.NewReleaser(chk.WS, unit.NewStore(), chk.Files, nil, 1)
	for i, p := range chk.Files {
		if l, _ := grammar.LangOf(p); l == grammar.CPP && !chk.WS.Context(p).Extern {
			// check reads no parse of a file no extern compiles.
			continue
		}
		add(p)
		for _, q := range readers.Reads(i) {
			add(q)
		}
	}
	srcs := make([][]byte, len(files))
	var total int64
	for i, p := range files {
		srcs[i], _ = chk.WS.Source(p)
		total += int64(len(srcs[i]))
	}
	parsers := map[grammar.Lang]*grammar.Parser{}
	start := processCPU()
	for i, p := range files {
		l, ok := grammar.LangOf(p)
		if !ok || srcs[i] == nil {
			continue
		}
		if parsers[l] == nil {
			parsers[l] = grammar.NewBatchParser(l)
		}
		if f, err := grammar.ParseFile(context.Background(), parsers[l], p, srcs[i], nil); err == nil {
			f.Close()
		}
	}
	cpu := processCPU() - start
	json.NewEncoder(stdout).Encode(floorResult{Files: len(files), Bytes: total, CPUNanos: int64(cpu)})
	return 0
}

// processCPU is the process's user+system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
