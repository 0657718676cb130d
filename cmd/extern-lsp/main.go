// Command extern-lsp is the language server (no arguments, or `serve`) and
// the headless checker (`check`) for AscendC extern kernels.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"

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
		// its state.
		defer writeHeapProfile(path, stderr)
	}
	if path := os.Getenv(cpuProfileEnv); path != "" {
		if stop := startCPUProfile(path, stderr); stop != nil {
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

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func init() {
	commands["version"] = command{"print the version", func(c *cli, _ []string) int {
		fmt.Fprintln(c.stdout, "extern-lsp", version)
		return 0
	}}
}

// memProfileEnv names a file to receive a heap profile (pprof format) when
// the command ends: what a server still holds at shutdown, or a check at
// its end. A developer's switch, so an environment variable rather than a
// flag every user sees.
const memProfileEnv = "EXTERN_LSP_MEMPROFILE"

// cpuProfileEnv names a file to receive a CPU profile (pprof format) of
// the whole command, from its start to its end.
const cpuProfileEnv = "EXTERN_LSP_CPUPROFILE"

func startCPUProfile(path string, stderr io.Writer) (stop func()) {
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp: cpu profile: %v\n", err)
		return nil
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "extern-lsp: cpu profile: %v\n", err)
		}
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
