package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// RootMarkers are the files whose folder is a project root.
var RootMarkers = []string{"pyproject.toml", "extern-lsp.toml", ".git"}

// ProjectRoot is the root used for path when nobody names one (the CLI
// without --root, the server when the client sends no folder, the editor
// clients): the nearest folder up from path that holds a root marker
// (pyproject.toml, extern-lsp.toml, .git) or a `@pl.jit.extern` stub naming
// path — as its source, or as an entry whose #includes reach it, so a body
// header below the entries finds the stub above them; else path's own
// folder. path may be a folder (then a stub naming any file under it
// counts) or a Python stub (then the folder must also hold its sources).
func ProjectRoot(path string) string {
	return NewRootFinder().Root(path)
}

// RootFinder finds the project roots of many paths (ProjectRoot), reading
// each folder's markers and stubs once: the roots of a tree's hundreds of
// entries walk up the same folders, and each walk read and parsed every
// stub on the way (a tenth of a second per hundred entries).
type RootFinder struct {
	dirs map[string]*rootDir
}

// rootDir is what a folder says about the roots below it.
type rootDir struct {
	marker bool
	// named are the files the folder's stubs name (their sources and the
	// headers those include).
	named []string
}

// NewRootFinder returns a finder with nothing read yet. It reads the disk
// as it is when asked: use one for one pass over a tree.
func NewRootFinder() *RootFinder { return &RootFinder{dirs: map[string]*rootDir{}} }

// Root is ProjectRoot(path).
func (rf *RootFinder) Root(path string) string {
	path = Abs(path)
	start := path
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		start = filepath.Dir(path)
	}
	// A stub's own sources: its root is the nearest folder holding them all.
	var ownSources []string
	if l, ok := grammar.LangOf(path); ok && l == grammar.Python {
		for _, s := range readStubs(path) {
			ownSources = append(ownSources, resolvedPaths(s.Sources)...)
		}
	}
	for d := start; ; {
		info := rf.dir(d)
		if info.marker {
			return d
		}
		if len(ownSources) > 0 && allUnder(ownSources, d) || info.names(path) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return start
		}
		d = parent
	}
}

func (rf *RootFinder) dir(d string) *rootDir {
	if info, ok := rf.dirs[d]; ok {
		return info
	}
	info := &rootDir{}
	for _, m := range RootMarkers {
		if _, err := os.Stat(filepath.Join(d, m)); err == nil {
			info.marker = true
			break
		}
	}
	if !info.marker {
		info.named = stubFolderNamed(d)
	}
	rf.dirs[d] = info
	return info
}

// names reports whether the folder's stubs name target or a file under it.
func (info *rootDir) names(target string) bool {
	for _, p := range info.named {
		if under(p, target) {
			return true
		}
	}
	return false
}

func resolvedPaths(srcs []abi.Source) []string {
	var out []string
	for _, s := range srcs {
		if s.Path != "" {
			out = append(out, s.Path)
		}
	}
	return out
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func allUnder(paths []string, dir string) bool {
	for _, p := range paths {
		if !under(p, dir) {
			return false
		}
	}
	return true
}

// stubFolderNamed lists the files the stubs of the Python files directly
// in dir name: their sources and the headers those include.
func stubFolderNamed(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var named []string
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".py") {
			continue
		}
		for _, s := range readStubs(filepath.Join(dir, e.Name())) {
			incDirs := resolvedPaths(s.IncludeDirs)
			for _, src := range resolvedPaths(s.Sources) {
				named = append(named, src)
				named = append(named, includeClosure(src, incDirs)...)
			}
		}
	}
	return named
}

// readStubs parses the stubs of one Python file read from disk (regular
// files only, size-capped).
func readStubs(py string) []*abi.Stub {
	src, _, err := fsys.ReadFile(py, 0)
	if err != nil || !bytes.Contains(src, externMarker) {
		return nil
	}
	w := New()
	w.SetOverlay(py, src, 0)
	pf, err := w.File(py)
	if err != nil {
		return nil
	}
	return abi.ParseStubs(pf)
}

// includeClosure is the headers a C++ file on disk includes
// (transitively), resolved as in a workspace with the include folders
// dirs and no index.
func includeClosure(file string, dirs []string) []string {
	w := New()
	w.SetIncludeDirs(dirs)
	return w.Closure(file)[1:]
}
