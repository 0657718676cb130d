package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

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
	opts := lsp.Options{Analyzers: c.rules, Version: version, Root: root, ParseCache: parseCacheDir()}
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
	// Linux shares the CPU between sessions first (autogroup), then
	// between a session's threads: in its editor's session the server is
	// one thread among every busy process started from there (a build, a
	// test run), and waits behind each of them on every wake-up. In a
	// session of its own it gets a session's share while the user types.
	// A process leading its group (a shell's job) cannot: it stays.
	syscall.Setsid()
	shortSlices()
	defer keepHeadroom(serveHeadroom)()
	stdin, restore := pollable(os.Stdin)
	defer restore()
	// Nothing but LSP frames may reach stdout.
	stdout := os.Stdout
	os.Stdout = os.Stderr
	if err := lsp.Serve(context.Background(), stdin, stdout, stdin, opts); err != nil {
		fmt.Fprintf(stderr, "extern-lsp serve: %v\n", err)
		return 1
	}
	return 0
}

// parseCacheEnv names the folder where serve keeps the trees of the files
// it parsed from disk, for the next server on the same files ("off": none;
// default: extern-lsp/parses in the user's cache folder).
const parseCacheEnv = "EXTERN_LSP_PARSE_CACHE"

func parseCacheDir() string {
	if dir, ok := os.LookupEnv(parseCacheEnv); ok {
		if dir == "off" {
			return ""
		}
		return dir
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "extern-lsp", "parses")
	}
	return ""
}

// pollable returns in as a file read through the runtime's poller when it
// is a pipe or a socket. A blocking read holds a thread in the kernel, so
// each message is handed between threads: on a busy machine every hand-off
// waits for a time slice (half the thread wake-ups of an edit). The
// descriptor is a copy; restore makes the shared description blocking again
// for whoever reads it after us.
func pollable(in *os.File) (*os.File, func()) {
	fi, err := in.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in, func() {}
	}
	fd, err := syscall.Dup(int(in.Fd()))
	if err != nil || syscall.SetNonblock(fd, true) != nil {
		return in, func() {}
	}
	return os.NewFile(uintptr(fd), in.Name()), func() { syscall.SetNonblock(int(in.Fd()), false) }
}

// slice is the time slice the server's threads ask for (Linux).
const slice = 300 * time.Microsecond
