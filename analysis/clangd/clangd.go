// Package clangd writes the compile flags clangd needs for AscendC extern
// sources, so it can run next to extern-lsp: the CCE qualifiers
// (`__gm__`, `__aicore__`, `__global__`, `__ubuf__` ...) defined away, the
// core macros of one core defined (the core the per-core view shows, so
// clangd's inactive regions are the ones extern-lsp dims), and the include
// folders extern-lsp resolves quoted #includes in. Without them clangd
// greys both core blocks (neither macro is defined for it) and reports
// every `__gm__` as an error.
package clangd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Cores: which core's compile the flags describe.
const (
	Cube   = "cube"
	Vector = "vector"
)

// Marker starts every file this package writes: a file without it is the
// user's and is never replaced.
const Marker = "# Written by extern-lsp clangd-config"

// Formats.
const (
	// FormatClangd is a .clangd file (CompileFlags: Add:), which clangd
	// merges with a compile_commands.json if there is one.
	FormatClangd = "clangd"
	// FormatCompileFlags is compile_flags.txt, one flag a line (used only
	// when no compile_commands.json is found).
	FormatCompileFlags = "compile_flags"
)

// FileName is the file a format is written to, in the project root.
func FileName(format string) string {
	if format == FormatCompileFlags {
		return "compile_flags.txt"
	}
	return ".clangd"
}

// coreMacros are the device-compile macros of each core, in both families
// (dav-c220 and pto-isa), as extern-lsp's core model reads them.
var coreMacros = map[string][]string{
	Cube:   {"__DAV_C220_CUBE__", "__DAV_CUBE__"},
	Vector: {"__DAV_C220_VEC__", "__DAV_VEC__"},
}

// CoreOf maps a per-core view or a core name to the core the flags
// describe; "off" (or empty) is the vector core, which every extern has.
func CoreOf(view string) (string, error) {
	switch strings.ToLower(view) {
	case "", "off", Vector, "vec", "aiv":
		return Vector, nil
	case Cube, "aic":
		return Cube, nil
	}
	return "", fmt.Errorf("unknown core %q (want cube or vector)", view)
}

// Flags are the compile flags for one core with these include folders.
func Flags(core string, includeDirs []string) []string {
	flags := []string{"-xc++", "-std=c++17"}
	for _, q := range grammar.Qualifiers() {
		flags = append(flags, "-D"+q+"=")
	}
	for _, m := range coreMacros[core] {
		flags = append(flags, "-D"+m+"=1")
	}
	// `if ASCEND_IS_AIV {` reads a macro the CANN headers define; without
	// them clangd would report it undeclared.
	aiv, aic := "0", "1"
	if core == Vector {
		aiv, aic = "1", "0"
	}
	flags = append(flags, "-DASCEND_IS_AIV=("+aiv+")", "-DASCEND_IS_AIC=("+aic+")")
	for _, d := range includeDirs {
		flags = append(flags, "-I"+d)
	}
	return flags
}

// Render is the file text of a format.
func Render(format, core string, flags []string) []byte {
	var b bytes.Buffer
	if format == FormatCompileFlags {
		// compile_flags.txt has no comments: the marker is a harmless
		// definition on the first line.
		b.WriteString("-DEXTERN_LSP_CLANGD_CONFIG=" + core + "\n")
		for _, f := range flags {
			b.WriteString(f + "\n")
		}
		return b.Bytes()
	}
	fmt.Fprintf(&b, "%s (core: %s). Run it again to switch core or after changing include-dirs.\n", Marker, core)
	b.WriteString("CompileFlags:\n  Add:\n")
	for _, f := range flags {
		fmt.Fprintf(&b, "    - %q\n", f)
	}
	return b.Bytes()
}

// ours reports whether text is a file this package wrote.
func ours(format string, text []byte) bool {
	if format == FormatCompileFlags {
		return bytes.HasPrefix(text, []byte("-DEXTERN_LSP_CLANGD_CONFIG="))
	}
	return bytes.HasPrefix(text, []byte(Marker))
}

// ErrNotOurs is a file of that name the user wrote: it is left alone.
var ErrNotOurs = errors.New("exists and was not written by extern-lsp clangd-config: merge the flags by hand (run without --write to print them)")

// Write writes the file of a format into root, through the one write path
// (never outside root): a new file, or one this package wrote before.
// It returns the path written.
func Write(root, format string, data []byte) (string, error) {
	path := filepath.Join(root, FileName(format))
	var stamp *fsys.Stamp
	if old, st, err := fsys.ReadFile(path, 1<<20); err == nil {
		if !ours(format, old) {
			return path, fmt.Errorf("%s %w", path, ErrNotOurs)
		}
		stamp = &st
	} else if !errors.Is(err, os.ErrNotExist) {
		return path, err
	}
	w := &fsys.Writer{Roots: []string{root}}
	return path, w.Replace(path, stamp, data)
}
