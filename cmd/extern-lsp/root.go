package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func init() {
	commands["root"] = command{"print the project root extern-lsp uses for a file (editor clients call this)", runRoot}
}

const rootHelp = "workspace root: the folder whose sources, stubs and headers are indexed (default: the nearest folder up holding pyproject.toml, extern-lsp.toml, .git or a stub that names the file; else the file's folder)"

// rootFlag declares --root on a subcommand's flags.
func rootFlag(fs *flag.FlagSet, dst *string) {
	fs.StringVar(dst, "root", "", rootHelp)
}

// absRoot makes a --root value absolute and checks that it is a folder.
func absRoot(root *string) error {
	if *root == "" {
		return nil
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return usagef("--root %s: %v", *root, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return usagef("--root %s: not a folder", *root)
	}
	*root = abs
	return nil
}

func runRoot(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("root", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var root string
	rootFlag(fs, &root)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp root [--root DIR] PATH\n\nPrints the workspace root for PATH: "+rootHelp+".")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if err := absRoot(&root); err != nil {
		fmt.Fprintf(stderr, "extern-lsp root: %v\n", err)
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp root: %v\n", err)
		return 2
	}
	if root == "" {
		root = workspace.ProjectRoot(path)
	}
	fmt.Fprintln(stdout, root)
	return 0
}
