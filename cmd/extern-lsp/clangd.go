package main

import (
	"flag"
	"fmt"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis/clangd"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func init() {
	commands["clangd-config"] = command{"print or write the flags clangd needs for AscendC extern sources", runClangdConfig}
}

// runClangdConfig prints (or with --write, writes into the project root)
// a .clangd or compile_flags.txt for one core's compile: the qualifiers
// defined away, that core's macros defined, the include folders
// extern-lsp resolves in.
func runClangdConfig(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("clangd-config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var root, core, format string
	var write bool
	var dirs dirList
	rootFlag(fs, &root)
	fs.StringVar(&core, "core", clangd.Vector, "the core whose compile clangd sees: cube or vector (its #ifdef blocks are active, the other's inactive)")
	fs.StringVar(&format, "format", clangd.FormatClangd, "clangd (.clangd, merged with a compile_commands.json) or compile_flags (compile_flags.txt)")
	fs.BoolVar(&write, "write", false, "write the file into the project root (a file extern-lsp did not write is left alone)")
	fs.Var(&dirs, "I", "one more include folder (repeatable; adds to include-dirs)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp clangd-config [--core cube|vector] [--format clangd|compile_flags] [--write] [--root DIR] [-I DIR] [PATH]\n\n"+
			"Prints the flags clangd needs for the AscendC extern sources of PATH's project (default .): the CCE qualifiers\n"+
			"(__gm__, __aicore__, ...) defined away, the core macros of --core defined, the include folders extern-lsp\n"+
			"resolves in. --write puts them in the project root's .clangd (or compile_flags.txt).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "extern-lsp clangd-config: "+format+"\n", a...)
		return 2
	}
	if err := absRoot(&root); err != nil {
		return fail("%v", err)
	}
	core, err := clangd.CoreOf(core)
	if err != nil {
		return fail("--core: %v", err)
	}
	if format != clangd.FormatClangd && format != clangd.FormatCompileFlags {
		return fail("unknown --format %q (want clangd or compile_flags)", format)
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	path := "."
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if path, err = filepath.Abs(path); err != nil {
		return fail("%v", err)
	}
	if root == "" {
		root = workspace.ProjectRoot(path)
	}
	ws := workspace.New(root)
	loader, err := config.NewLoader("", c.rules)
	if err != nil {
		return fail("%v", err)
	}
	cfg, err := loader.ForFile(filepath.Join(root, "extern-lsp.toml"))
	if err != nil {
		return fail("%v", err)
	}
	ws.AddIncludeDirs(append(cfg.IncludeDirs, dirs...))
	data := clangd.Render(format, core, clangd.Flags(core, ws.IncludeDirs()))
	if !write {
		stdout.Write(data)
		return 0
	}
	written, err := clangd.Write(root, format, data)
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s (core: %s)\n", written, core)
	return 0
}
