package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/extern-lsp/extern-lsp/lsp"
)

func init() {
	commands["serve"] = command{"serve the language server on stdio (the default)", runServe}
}

func runServe(c *cli, args []string) int {
	stderr := c.stderr
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log-file", "", "append server logs to this file")
	// Editors pass --stdio; stdio is the only transport.
	fs.Bool("stdio", true, "speak LSP on stdin/stdout (the only transport)")
	var root string
	rootFlag(fs, &root)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := absRoot(&root); err != nil {
		fmt.Fprintf(stderr, "extern-lsp serve: %v\n", err)
		return 2
	}
	opts := lsp.Options{Analyzers: c.rules, Version: version, Root: root}
	if path := os.Getenv(memProfileEnv); path != "" {
		opts.OnShutdown = func() { writeHeapProfile(path, stderr) }
	}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "extern-lsp serve: %v\n", err)
			return 2
		}
		defer f.Close()
		opts.Log = f
	}
	// Nothing but LSP frames may reach stdout.
	stdout := os.Stdout
	os.Stdout = os.Stderr
	if err := lsp.Serve(context.Background(), os.Stdin, stdout, os.Stdin, opts); err != nil {
		fmt.Fprintf(stderr, "extern-lsp serve: %v\n", err)
		return 1
	}
	return 0
}
