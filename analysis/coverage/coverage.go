// Package coverage finds what keeps the analysis from seeing a workspace
// whole: a root with no stub and no extern entry, entries no stub links
// (the folder opened may sit below the stub), include folders that do not
// exist. The CLI prints the gaps and the language server shows them in the
// editor's status, so a silent gap (hover, inlay hints and the args[]
// rules quietly off) always has a reason and a way to close it.
package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Gap kinds.
const (
	// NoExtern: the root holds no stub and no extern entry.
	NoExtern = "no-extern"
	// StubAbove: the entries' stub is in a folder above the root.
	StubAbove = "stub-above-root"
	// NoStub: the root has extern entries but no stub at all (a tree of
	// runtime kernels, or the stubs are elsewhere): --statistics counts
	// them, the editor does not warn.
	NoStub = "no-stub"
	// Unlinked: some entries are linked to no stub.
	Unlinked = "unlinked-entries"
	// MissingIncludeDir: an include folder that does not exist.
	MissingIncludeDir = "missing-include-dir"
)

// Gap is one thing the analysis cannot do, why, and how to turn it on.
type Gap struct {
	Kind string `json:"kind"`
	// Message says what is off and why; Fix how to turn it on.
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Paths are the files or folders behind it (all of them).
	Paths []string `json:"paths"`
	// Root is, for StubAbove, the folder to open (or pass as --root).
	Root string `json:"root,omitempty"`
}

// String is the gap as one line: the message, then the fix.
func (g Gap) String() string { return g.Message + "; " + g.Fix }

const abiOff = "the args[] rules, hovers and inlay hints on args[N] are off for them"

// Find returns the gaps of the workspace's roots and of the include
// folders named (as -I or include-dirs; relative ones are taken from the
// current folder). rootFlag names how the user chose the root in the
// messages ("--root" on the CLI, "the folder opened" in an editor).
func Find(ws *workspace.Workspace, includeDirs []string, rootFlag string) []Gap {
	var gaps []Gap
	for _, d := range includeDirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			why := "does not exist"
			if err == nil {
				why = "is not a folder"
			}
			gaps = append(gaps, Gap{Kind: MissingIncludeDir, Paths: []string{d},
				Message: fmt.Sprintf("include folder %s %s: no quoted #include is searched there", d, why),
				Fix:     "correct the -I path or the include-dirs setting"})
		}
	}
	roots := ws.Roots()
	if len(roots) == 0 {
		return gaps
	}
	where := strings.Join(roots, ", ")
	var entries []string
	for _, p := range ws.KnownFiles() {
		if ws.Context(p).Entry {
			entries = append(entries, p)
		}
	}
	stubs := ws.Stubs()
	if len(entries) == 0 && len(stubs) == 0 {
		return append(gaps, Gap{Kind: NoExtern, Paths: roots,
			Message: fmt.Sprintf("%s (%s) holds no `@pl.jit.extern` stub and no extern entry (`extern \"C\" __global__ __aicore__`): there is nothing to check", rootFlag, where),
			Fix:     fmt.Sprintf("point %s at the project that holds the kernels and their stubs (`extern-lsp root FILE` prints the one extern-lsp finds for a file)", rootFlag)})
	}
	var unlinked []string
	above := map[string][]string{}
	rf := workspace.NewRootFinder()
	for _, e := range entries {
		if len(ws.StubsForEntry(e)) > 0 {
			continue
		}
		if up := stubFolderAbove(rf, e, roots); up != "" {
			above[up] = append(above[up], e)
			continue
		}
		// Only the args[] shape (an extern "C" function taking the
		// `__gm__ int64_t *args` alone) has a table a stub would give:
		// kernels with their own parameters need none.
		if sh := ws.EntryShape(e); !sh.RuntimeABI || !sh.ExternC || sh.Included || unit.LaunchOfEntry(ws, e).Launch == unit.LaunchHost {
			continue
		}
		unlinked = append(unlinked, e)
	}
	ups := make([]string, 0, len(above))
	for up := range above {
		ups = append(ups, up)
	}
	sort.Strings(ups)
	for _, up := range ups {
		es := above[up]
		gaps = append(gaps, Gap{Kind: StubAbove, Paths: es, Root: up,
			Message: fmt.Sprintf("%s (%s) is below the stubs of its %s: the stub folder is %s, so %s", rootFlag, where, count(len(es), "extern entry", "extern entries"), up, abiOff),
			Fix:     fmt.Sprintf("open %s instead (or pass --root %s)", up, up)})
	}
	if len(unlinked) == 0 {
		return gaps
	}
	if len(stubs) == 0 {
		return append(gaps, Gap{Kind: NoStub, Paths: unlinked,
			Message: fmt.Sprintf("no `@pl.jit.extern` stub under %s names its %s (%s), so %s", where, count(len(unlinked), "extern entry", "extern entries"), sample(unlinked), abiOff),
			Fix:     fmt.Sprintf("point %s at the folder that holds the Python stubs as well as the kernels", rootFlag)})
	}
	return append(gaps, Gap{Kind: Unlinked, Paths: unlinked,
		Message: fmt.Sprintf("%s under %s no stub links (%s), so %s", count(len(unlinked), "extern entry", "extern entries"), where, sample(unlinked), abiOff),
		Fix:     "name the entry in its stub's `source=` (or `aic_source=`/`aiv_source=`), with a path extern-lsp can evaluate statically"})
}

// stubFolderAbove is the project root extern-lsp finds for an entry when
// it lies above every root and holds a Python stub: the folder the user
// should have opened.
func stubFolderAbove(rf *workspace.RootFinder, entry string, roots []string) string {
	up := rf.Root(entry)
	for _, r := range roots {
		if !strings.HasPrefix(r, up+string(filepath.Separator)) {
			continue
		}
		if holdsStub(up) {
			return up
		}
	}
	return ""
}

// holdsStub reports whether a Python file directly in dir declares a
// `@pl.jit.extern` stub (read through the one read path).
func holdsStub(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if l, ok := grammar.LangOf(p); !ok || l != grammar.Python || e.IsDir() {
			continue
		}
		src, _, err := fsys.ReadFile(p, 4<<20)
		if err == nil && bytes.Contains(src, []byte("jit.extern")) {
			return true
		}
	}
	return false
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// sample names the first files of a list and how many more.
func sample(paths []string) string {
	const show = 3
	names := make([]string, 0, show)
	for _, p := range paths[:min(show, len(paths))] {
		names = append(names, filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p))
	}
	s := strings.Join(names, ", ")
	if len(paths) > show {
		s += fmt.Sprintf(" and %d more", len(paths)-show)
	}
	return s
}
