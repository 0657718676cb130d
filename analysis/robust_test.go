package analysis_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// allRules runs every rule, default-off ones included (the
// unused-suppression pass too).
func allRules() analysis.Options {
	return analysis.Options{
		Analyzers: rules.All(),
		Enabled:   func(*analysis.Analyzer) bool { return true },
	}
}

const entryTail = "\nextern \"C\" __global__ __aicore__ void robust_entry(__gm__ int64_t *args) {}\n"

// Hostile inputs: each must produce no panic (no EXT000 from a rule) and
// either no diagnostics or well-formed ones; a binary file is refused with
// grammar.ErrBinary.
var robustInputs = []struct {
	name, file string
	src        []byte
	binary     bool
}{
	{name: "syntax errors", file: "broken.cpp", src: []byte(`#include "kernel_operator.h"
#ifdef __DAV_C220_VEC__
extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::SyncAll( ;
  if ( { CrossCoreSetFlag<2, >(12
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (12 <<
  AscendC::TPipe pipe
  int32_t v = ((__gm__ int32_t *)args[0])[;
#elif
}}} ))) template <> <> ;
#define
#if defined(
"unterminated
`)},
	{name: "empty", file: "empty.cpp", src: nil},
	{name: "empty entry", file: "only_entry.cpp", src: []byte(entryTail)},
	{name: "empty python", file: "empty.py", src: nil},
	{name: "binary", file: "blob.cpp", src: []byte("\x7fELF\x02\x01\x01\x00\x00\x00extern \"C\" void k(__gm__ int64_t *args) {}\x00\xff"), binary: true},
	{name: "binary python", file: "blob.py", src: []byte("import pypto\x00\x00\xfe"), binary: true},
	{name: "non-UTF-8", file: "latin1.cpp", src: []byte("// Kommentar: \xe4\xf6\xfc \xff\xfe\n" +
		"#include \"kernel_operator.h\"\n" +
		"extern \"C\" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {\n" +
		"  const char *s = \"\xe9t\xe9\"; AscendC::Mmad(c, a, b, p);\n" +
		"  AscendC::SyncAll(); AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(12); /* \xc3\x28 */\n" +
		"  int32_t n = *reinterpret_cast<__gm__ int32_t *>(args[1]);\n" +
		"#ifdef __DAV_VEC__ // \xa0\n  wait_flag_dev(12);\n#endif\n}\n")},
	{name: "non-UTF-8 python", file: "latin1.py", src: []byte("# \xe4\xf6\xfc\nimport pypto.language as pl\n" +
		"@pl.jit.extern(core_type=\"mixed\", source=\"latin1.cpp\")\ndef k(a: pl.Tensor, n: pl.Scalar[pl.INT32]) -> None: ...\n" +
		"x = \"\xff\"\n")},
	{name: "broken python", file: "broken.py", src: []byte("@pl.jit.extern(core_type=\ndef k(a: pl.Tensor[[, ) ->\n  with pl.spmd(24 as t:\n")},
}

func TestRobustInputs(t *testing.T) {
	dir := t.TempDir()
	for _, in := range robustInputs {
		if err := os.WriteFile(filepath.Join(dir, in.file), in.src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An entry that includes the hostile headers: they are then extern
	// sources, and their includer must survive them too.
	var inc strings.Builder
	for _, in := range robustInputs {
		if strings.HasSuffix(in.file, ".cpp") {
			inc.WriteString("#include \"" + in.file + "\"\n")
		}
	}
	includer := inc.String() + "extern \"C\" __global__ __aicore__ void outer(__gm__ int64_t *args) { AscendC::SyncAll(); }\n"
	if err := os.WriteFile(filepath.Join(dir, "includer.cpp"), []byte(includer), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace.New(dir)
	opts := allRules()
	for _, in := range append(robustInputs, struct {
		name, file string
		src        []byte
		binary     bool
	}{name: "includer", file: "includer.cpp", src: []byte(includer)}) {
		t.Run(in.name, func(t *testing.T) {
			path := filepath.Join(dir, in.file)
			diags, err := analysis.Run(ws, path, opts)
			if in.binary {
				if !errors.Is(err, grammar.ErrBinary) {
					t.Errorf("Run: err %v, want grammar.ErrBinary", err)
				}
				if len(diags) != 0 {
					t.Errorf("Run: %d diagnostics on a binary file", len(diags))
				}
			} else if err != nil {
				t.Errorf("Run: %v", err)
			}
			if in.name == "includer" {
				// It includes the binary file: not silently clean.
				if !slices.ContainsFunc(diags, func(d analysis.Diagnostic) bool {
					return d.Name == analysis.IncompleteName && strings.Contains(d.Message, "NUL byte")
				}) {
					t.Errorf("no %s note for the binary header the file includes", analysis.IncompleteName)
				}
			}
			checkDiags(t, ws, in.src, path, diags)
			for _, d := range diags {
				t.Logf("%s %s: %s", d.Code, d.Name, d.Message)
			}

			f, err := grammar.ParseFile(context.Background(), nil, path, in.src, nil)
			if in.binary {
				if !errors.Is(err, grammar.ErrBinary) {
					t.Errorf("ParseFile: err %v, want grammar.ErrBinary", err)
				}
				return
			}
			if err != nil || f == nil || f.Tree == nil {
				t.Fatalf("ParseFile: %v", err)
			}
			defer f.Close()
			if want := utf8.Valid(in.src); f.ValidUTF8 != want {
				t.Errorf("ValidUTF8 = %v, want %v", f.ValidUTF8, want)
			}
			// Every offset maps to a position and back (UTF-16 columns
			// on invalid UTF-8 included).
			for off := 0; off <= len(in.src); off++ {
				line, col := f.Lines.PositionUTF16(uint32(off))
				if back := f.Lines.OffsetUTF16(line, col); int(back) > len(in.src) {
					t.Fatalf("offset %d -> %d:%d -> %d past the end", off, line, col, back)
				}
			}
			f.CoresOf(f.Tree.Root())
		})
	}
}

// checkDiags fails on a rule crash (EXT000) and on malformed ranges.
func checkDiags(t testing.TB, ws *workspace.Workspace, src []byte, path string, diags []analysis.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Code == analysis.InternalCode && d.Name == "internal-error" {
			t.Errorf("rule crash: %s", d.Message)
			continue
		}
		if d.Code == analysis.InternalCode {
			continue // a note: the file was not fully analysed
		}
		if d.Code == "" || d.Name == "" || d.Message == "" || d.Severity == 0 {
			t.Errorf("incomplete diagnostic %+v", d)
		}
		if !inRange(ws, d.File, d.Start, d.End) {
			t.Errorf("%s %s: range [%d,%d) outside %s", d.Code, d.Message, d.Start, d.End, d.File)
		}
		for _, r := range d.Related {
			if !inRange(ws, r.File, r.Start, r.End) {
				t.Errorf("%s: related range [%d,%d) outside %s", d.Code, r.Start, r.End, r.File)
			}
		}
		for _, fx := range d.Fixes {
			for _, e := range fx.Edits {
				if !inRange(ws, e.File, e.Start, e.End) {
					t.Errorf("%s: fix %q edit [%d,%d) outside %s", d.Code, fx.Title, e.Start, e.End, e.File)
				}
			}
		}
	}
}

func inRange(ws *workspace.Workspace, file string, start, end uint32) bool {
	src, err := ws.Source(file)
	return err == nil && start <= end && int(end) <= len(src)
}

// fixtureSeeds are the rule fixtures and examples, the fuzz corpus seeds.
func fixtureSeeds(t testing.TB) (cpp, py [][]byte) {
	for _, root := range []string{"rules/testdata", "../examples"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			lang, ok := grammar.LangOf(p)
			if !ok {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			if lang == grammar.Python {
				py = append(py, src)
			} else {
				cpp = append(cpp, src)
			}
			return nil
		})
	}
	return cpp, py
}

// FuzzAnalysis parses arbitrary text as an extern entry (an entry shape is
// appended so every C++ rule runs), as a header that entry includes, or as
// a Python stub next to it, and runs every rule. `go test` runs the fixture seeds only; fuzz with
// `go test ./analysis -run '^$' -fuzz FuzzAnalysis -fuzztime 60s`.
func FuzzAnalysis(f *testing.F) {
	cpp, py := fixtureSeeds(f)
	for _, s := range cpp {
		f.Add(s, false)
	}
	for _, s := range py {
		f.Add(s, true)
	}
	for _, in := range robustInputs {
		f.Add(in.src, strings.HasSuffix(in.file, ".py"))
	}
	dir := f.TempDir()
	opts := allRules()
	f.Fuzz(func(t *testing.T, src []byte, python bool) {
		ws := workspace.New(dir)
		entry := filepath.Join(dir, "entry.cpp")
		header := filepath.Join(dir, "inc.h")
		stub := filepath.Join(dir, "stub.py")
		// The text is also a header of the entry, so the unit-wide paths
		// (a header analysed through its including entry) run on it.
		cppSrc := append(append([]byte("#include \"inc.h\"\n"), src...), entryTail...)
		pySrc := []byte("import pypto.language as pl\n@pl.jit.extern(core_type=\"mixed\", source=\"entry.cpp\")\ndef k(a: pl.Tensor) -> None: ...\n")
		if python {
			cppSrc = []byte(entryTail)
			pySrc = src
		}
		ws.SetOverlay(entry, cppSrc, 1)
		ws.SetOverlay(stub, pySrc, 1)
		paths := []string{entry, stub}
		if !python {
			ws.SetOverlay(header, src, 1)
			paths = append(paths, header)
		}
		for _, p := range paths {
			diags, err := analysis.Run(ws, p, opts)
			if err != nil && !errors.Is(err, grammar.ErrBinary) {
				t.Fatalf("%s: %v", filepath.Base(p), err)
			}
			s, _ := ws.Source(p)
			checkDiags(t, ws, s, p, diags)

		}
	})
}
