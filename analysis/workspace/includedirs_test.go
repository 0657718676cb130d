package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestManyIncludeDirsAreLinear: a project listing n include folders, most
// not on disk, each twice (issue 31: 100,000 took 29 s): the list is kept
// once, and resolving k #includes that name no file looks each missing
// folder up on disk once, not once per #include (n*k lookups), while a
// header in a folder listed last is still found, and the folders not on
// disk are not looked at again for each #include.
func TestManyIncludeDirsAreLinear(t *testing.T) {
	const k = 20
	for _, n := range []int{1000, 4000} {
		root := t.TempDir()
		real := filepath.Join(root, "inc")
		if err := os.Mkdir(real, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(real, "found.h"), []byte("int found;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i := range k {
			fmt.Fprintf(&b, "#include \"missing%d.h\"\n", i)
		}
		b.WriteString("#include \"found.h\"\n")
		entry := filepath.Join(root, "k.cpp")
		if err := os.WriteFile(entry, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for i := range n {
			dirs = append(dirs, filepath.Join(root, "absent", fmt.Sprint(i)))
		}
		ws := New(root)
		ws.AddIncludeDirs(dirs)
		ws.AddIncludeDirs(append(dirs, real))
		if got := len(ws.IncludeDirs()); got != n+1 {
			t.Fatalf("n=%d: %d include folders kept, want %d (each once)", n, got, n+1)
		}
		stats := 0
		statHook = func(string) { stats++ }
		t.Cleanup(func() { statHook = nil })
		if incs := ws.Includes(entry); len(incs) != 1 || filepath.Base(incs[0]) != "found.h" {
			t.Fatalf("n=%d: includes resolved to %v, want found.h alone", n, incs)
		}
		if limit := n + 3*(k+1); stats > limit {
			t.Errorf("n=%d: %d disk lookups for %d #includes; want at most %d (each missing folder once)", n, stats, k+1, limit)
		}
		// Each #include looks in the folders on disk alone (it looked at
		// all n: n*k in memory), and in one holding an editor's buffer.
		if live := ws.liveDirs(ws.stubIncludeDirs()); len(live) != 1 || live[0] != real {
			t.Errorf("n=%d: #includes look in %d folders, want the one on disk", n, len(live))
		}
		buf := filepath.Join(root, "absent", "7", "open.h")
		ws.SetOverlay(buf, []byte("int open;\n"), 1)
		if got := ws.ResolveInclude(entry, grammar.Include{Path: "open.h"}); got != buf {
			t.Errorf("n=%d: open.h resolved to %q, want the buffer %s", n, got, buf)
		}
	}
}

// An `#include <pto/x.hpp>` is found in the include folders, as a compile
// given them with -I finds it (headers reached only that way were never
// analysed); not next to the including file, and a quoted include of the
// same path from the same folder still is (the memo keeps them apart).
func TestAngleIncludesInIncludeDirs(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"include/pto/x.hpp", "kernels/pto/x.hpp", "kernels/k.cpp"} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := New(root)
	entry := filepath.Join(root, "kernels", "k.cpp")
	angle, quoted := grammar.Include{Path: "pto/x.hpp", System: true}, grammar.Include{Path: "pto/x.hpp"}
	if got := ws.ResolveInclude(entry, angle); got != "" {
		t.Errorf("<pto/x.hpp> with no include folder resolved to %s", got)
	}
	ws.AddIncludeDirs([]string{filepath.Join(root, "include")})
	if got, want := ws.ResolveInclude(entry, angle), filepath.Join(root, "include", "pto", "x.hpp"); got != want {
		t.Errorf("<pto/x.hpp> resolved to %q, want %s", got, want)
	}
	if got, want := ws.ResolveInclude(entry, quoted), filepath.Join(root, "kernels", "pto", "x.hpp"); got != want {
		t.Errorf(`"pto/x.hpp" resolved to %q, want %s`, got, want)
	}
}
