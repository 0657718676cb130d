// Command extern-lsp is the language server (no arguments, or `serve`) and
// the headless checker (`check`) for AscendC extern kernels.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// command is one subcommand; each lives in its own file and registers itself.
type command struct {
	summary string
	run     func(c *cli, args []string) int
}

var commands = map[string]command{}

// cli is one invocation: its streams and the rules it runs. Tests make
// their own, so package main holds no state a test has to swap.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// rules are the rules check runs and SARIF describes.
	rules []*analysis.Analyzer
}

func main() {
	// Before the run allocates much: each sample is taken at the rate in
	// force when the previous one was.
	runtime.MemProfileRate = memProfileRate(os.Getenv(memProfileEnv))
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, rules: rules.All()}
	os.Exit(c.run(os.Args[1:]))
}

func (c *cli) run(args []string) int {
	stdout, stderr := c.stdout, c.stderr
	// A rule without a code, a name or docs is a build mistake: refuse to
	// run rather than report findings nobody can look up.
	if err := engine.ValidateRules(rules.All()); err != nil {
		fmt.Fprintf(stderr, "extern-lsp: broken rule registry: %v\n", err)
		return 2
	}
	name := "serve"
	if len(args) > 0 && (len(args[0]) == 0 || args[0][0] != '-') {
		name, args = args[0], args[1:]
	} else if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "-help":
			usage(stdout)
			return 0
		case "--version", "-version":
			name, args = "version", nil
		}
	}
	if name == "help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "extern-lsp: unknown command %q (run `extern-lsp help`)\n", name)
		return 2
	}
	if path := os.Getenv(memProfileEnv); path != "" && name != "serve" {
		// The server writes its own at shutdown, while it still holds
		// its state; a command's interesting moment is its peak.
		stop := watchPeakHeap(path, stderr)
		defer stop()
	}
	if path := os.Getenv(cpuProfileEnv); path != "" {
		if stop := record(path, "cpu profile", pprof.StartCPUProfile, pprof.StopCPUProfile, stderr); stop != nil {
			defer stop()
		}
	}
	if path := os.Getenv(traceEnv); path != "" {
		if stop := record(path, "trace", trace.Start, trace.Stop, stderr); stop != nil {
			defer stop()
		}
	}
	return cmd.run(c, args)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "extern-lsp: language server and checker for AscendC extern kernels")
	fmt.Fprintln(w, "\nUsage:\n  extern-lsp [serve]           serve LSP on stdio (the default)\n  extern-lsp <command> [args]\n\nCommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// version is set at build time with -ldflags "-X main.version=$(cat VERSION)"
// (tools/release/release.sh does); a plain `go build` says dev.
var version = "dev"

func init() {
	commands["version"] = command{"print the version", func(c *cli, _ []string) int {
		fmt.Fprintln(c.stdout, "extern-lsp", version)
		return 0
	}}
}

// memProfileEnv names a file to receive a heap profile (pprof format): what
// a server still holds at shutdown, or what a check held at its peak. A
// developer's switch, so an environment variable rather than a flag every
// user sees.
const memProfileEnv = "EXTERN_LSP_MEMPROFILE"

// memProfileRate is the allocation sampling rate of a process whose
// memProfileEnv is env: none unless a heap profile was asked for. The
// samples' stacks go in a table of 1.4 MB whose pages are touched as more
// distinct stacks are sampled, about half a MB of a large check's peak,
// for a profile nobody reads.
func memProfileRate(env string) int {
	if env == "" {
		return 0
	}
	return runtime.MemProfileRate
}

// cpuProfileEnv names a file to receive a CPU profile (pprof format) of
// the whole command, from its start to its end.
const cpuProfileEnv = "EXTERN_LSP_CPUPROFILE"

// traceEnv names a file to receive an execution trace of the command
// (`go tool trace FILE`, tools/partrace): where the workers of a parallel
// check wait, and on what. The engine marks its phases as trace regions.
const traceEnv = "EXTERN_LSP_TRACE"

// record starts a recording (a CPU profile, an execution trace) into the
// file at path; the stop it returns ends it and closes the file.
func record(path, what string, start func(io.Writer) error, end func(), stderr io.Writer) (stop func()) {
	f, err := os.Create(path)
	if err == nil {
		if err = start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp: %s: %v\n", what, err)
		return nil
	}
	return func() {
		end()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "extern-lsp: %s: %v\n", what, err)
		}
	}
}

// watchPeakHeap samples the live heap of the last collection while a
// command runs and keeps the heap profile taken when it was largest; stop
// writes that profile to path. A heap profile describes the heap as of the
// last collection, so a profile taken when the live heap reached a new high
// shows what the peak RSS was made of, where one taken at exit shows only
// what was left.
func watchPeakHeap(path string, stderr io.Writer) (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	var best bytes.Buffer
	take := func() {
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		// A new profile only when the peak grew by a twentieth: writing
		// one walks every sampled allocation.
		if live <= peak+peak/20 && best.Len() > 0 {
			return
		}
		peak = live
		best.Reset()
		if err := pprof.Lookup("heap").WriteTo(&best, 0); err != nil {
			fmt.Fprintf(stderr, "extern-lsp: heap profile: %v\n", err)
		}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				take()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		take()
		if err := os.WriteFile(path, best.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "extern-lsp: heap profile: %v\n", err)
		}
		fmt.Fprintf(stderr, "extern-lsp: heap profile at a live heap of %d MB written to %s\n", peak>>20, path)
	}
}

func writeHeapProfile(path string, stderr io.Writer) {
	// Live objects only: what survives a collection is what is retained.
	runtime.GC()
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp: heap profile: %v\n", err)
	}
}
