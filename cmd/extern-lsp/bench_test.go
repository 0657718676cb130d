package main

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// fixtureRoots are the fixture trees the benchmarks and the parse-error
// report read: every kernel the repo ships.
var fixtureRoots = []string{"../../testdata", "../../analysis/rules/testdata", "../../examples"}

func fixtureFiles(tb testing.TB, lang grammar.Lang) []string {
	var out []string
	for _, root := range fixtureRoots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if l, ok := grammar.LangOf(p); ok && l == lang {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) == 0 {
		tb.Skip("no fixtures found")
	}
	return out
}

// corpus copies the fixture trees n times into a temporary folder, keeping
// relative layout so includes resolve, to give the benchmarks some weight.
func corpus(b *testing.B, n int) string {
	dir := b.TempDir()
	for i := 0; i < n; i++ {
		for _, root := range fixtureRoots {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				if _, ok := grammar.LangOf(p); !ok {
					return nil
				}
				rel, _ := filepath.Rel("../..", p)
				dst := filepath.Join(dir, "copy"+string(rune('a'+i)), rel)
				os.MkdirAll(filepath.Dir(dst), 0o755)
				src, _ := os.ReadFile(p)
				os.WriteFile(dst, src, 0o644)
				return nil
			})
		}
	}
	return dir
}

// cpuTime is the process's user+system CPU time (processCPU, in ns). The
// benchmarks report it per op besides wall time: on a loaded machine CPU
// time is the steadier measure of the work done.
func cpuTime() int64 { return int64(processCPU()) }

// BenchmarkParseOnly reads and parses the corpus on one core: the floor the
// checker is measured against.
func BenchmarkParseOnly(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dir := corpus(b, 10)
	files := analysistest.Files(dir)
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		parseAll(b, files)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(files)), "files")
}

// parseAll reads, masks and parses files (the checker's floor).
func parseAll(b *testing.B, files []string) {
	cpp, py := grammar.NewBatchParser(grammar.CPP), grammar.NewBatchParser(grammar.Python)
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		parser := cpp
		if l, _ := grammar.LangOf(p); l == grammar.Python {
			parser = py
		}
		if f, err := grammar.ParseFile(context.Background(), parser, p, src, nil); err == nil {
			f.Close()
		}
	}
}

// BenchmarkCheck runs `extern-lsp check -j 1` over the same corpus, output
// discarded. Compare its ns/op with BenchmarkParseOnly's.
func BenchmarkCheck(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dir := corpus(b, 10)
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if code := testCLI(nil, io.Discard, io.Discard).run([]string{"check", "--format", "json", "-j", "1", dir}); code == 2 {
			b.Fatalf("check failed")
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// TestFixtureParseErrors reports the share of fixture files whose tree
// still holds ERROR or MISSING nodes after masking, and requires the
// realistic kernel and the examples to parse cleanly.
func TestFixtureParseErrors(t *testing.T) {
	files := fixtureFiles(t, grammar.CPP)
	withErrors := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := grammar.ParseFile(context.Background(), nil, p, src, nil)
		if err != nil {
			continue
		}
		if n := f.Tree.ErrorCount(); n > 0 {
			withErrors++
			t.Logf("parse errors (%d nodes): %s", n, p)
			if isCleanFixture(p) {
				t.Errorf("%s must parse without errors", p)
			}
		}
		f.Close()
	}
	t.Logf("C++ fixtures with parse errors: %d of %d (%.1f%%)", withErrors, len(files), 100*float64(withErrors)/float64(len(files)))
}

func isCleanFixture(p string) bool {
	for _, prefix := range []string{"../../testdata/realistic/", "../../examples/"} {
		if len(p) >= len(prefix) && p[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
