// Command extern-lsp is the language server (no arguments, or `serve`) and
// the headless checker (`check`) for AscendC extern kernels.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// command is one subcommand; each lives in its own file and registers itself.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
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
	return cmd.run(args, stdout, stderr)
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
	commands["version"] = command{"print the version", func(_ []string, stdout, _ io.Writer) int {
		fmt.Fprintln(stdout, "extern-lsp", version)
		return 0
	}}
}
