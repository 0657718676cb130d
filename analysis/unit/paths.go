package unit

import (
	"context"
	"crypto/sha256"
	"io"
	"slices"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ForEntry returns the unit rooted at an extern entry file (one a stub
// names, say), or nil when the entry cannot be read.
func (s *Store) ForEntry(ctx context.Context, ws *workspace.Workspace, entry string) *Unit {
	entry = workspace.Abs(entry)
	gen := ws.Generation()
	if s != nil {
		// Every file of a unit asks for it: a unit of a thousand headers
		// listed and numbered its files a thousand times.
		s.mu.Lock()
		m, ok := s.entries[entry]
		s.mu.Unlock()
		if ok && m.ws == ws && m.gen == gen {
			return &Unit{Entry: m.files[0].Path, Files: m.files, Stubs: m.stubs, Kind: m.kind, Key: m.key, store: s, ws: ws, ctx: ctx}
		}
	}
	var files []*grammar.File
	parsed, errs := ws.Files(ws.Closure(entry))
	for i, f := range parsed {
		if errs[i] == nil && f.Lang == grammar.CPP {
			files = append(files, f)
		}
	}
	if len(files) == 0 || files[0].Path != entry {
		return nil
	}
	kind, _ := ws.UnitKind(entry)
	u := s.New(ctx, ws, files[0].Path, files, ws.StubsForEntry(entry), kind, "")
	if s != nil && ws.Generation() == gen {
		s.mu.Lock()
		if s.entries == nil {
			s.entries = map[string]entryUnit{}
		}
		s.entries[entry] = entryUnit{ws: ws, gen: gen, files: u.Files, stubs: u.Stubs, kind: kind, key: u.Key}
		s.mu.Unlock()
	}
	return u
}

// entryUnit is ForEntry's memo of an entry's unit, valid while its
// workspace's generation is the same.
type entryUnit struct {
	ws    *workspace.Workspace
	gen   uint64
	files []*grammar.File
	stubs []*abi.Stub
	kind  workspace.Kind
	key   string
}

// Releaser frees, during a run over many files, the parses (and their
// facts) that no file left to check reads (Paths): a run then holds the
// units under way, not the whole tree. A rule reading a released file
// parses it again: the same text, the same findings. Open documents are
// never released (workspace.Release keeps overlays).
//
// What a file reads is kept as the closures it reads (its units', see
// roots), each listed once however many files read it: every header of a
// unit reads all of the unit, and a list of its paths per header was
// quadratic in a chain of headers each including the next.
type Releaser struct {
	ws    *workspace.Workspace
	store *Store
	mu    sync.Mutex
	// roots are the closures each file reads, by their first file;
	// first[r] is the first file reading r, readers[r] the files left
	// reading it, closures[r] its paths.
	roots    [][]string
	first    map[string]int
	readers  map[string]int
	closures map[string][]string
	// left counts, per path, the closures not done holding it.
	left map[string]int
}

// NewReleaser counts the readers of every file the run's files read (with
// jobs goroutines); a path for which keep says true is never released.
func NewReleaser(ws *workspace.Workspace, store *Store, files []string, keep func(path string) bool, jobs int) *Releaser {
	r := &Releaser{ws: ws, store: store, roots: make([][]string, len(files)), first: map[string]int{}, readers: map[string]int{}, closures: map[string][]string{}, left: map[string]int{}}
	at := make(map[string]int, len(files))
	for i, p := range files {
		at[p] = i
	}
	workspace.Parallel(jobs, files, func(p string) []string {
		rs := roots(ws, p, false)
		if l, _ := grammar.LangOf(p); l == grammar.CPP && len(rs) > 1 {
			// A unit's closure holds the file's (but for the headers
			// past a unit's byte cap, then never released).
			rs = rs[1:]
		}
		r.mu.Lock()
		r.roots[at[p]] = rs
		r.mu.Unlock()
		return nil
	})
	var distinct []string
	for i, p := range files {
		if at[p] != i {
			// A path listed twice: its first entry was computed.
			r.roots[i] = r.roots[at[p]]
		}
		for _, q := range r.roots[i] {
			if _, ok := r.first[q]; !ok {
				r.first[q] = i
				distinct = append(distinct, q)
			}
			r.readers[q]++
		}
	}
	workspace.Parallel(jobs, distinct, func(q string) []string {
		c := ws.Closure(q)
		r.mu.Lock()
		r.closures[q] = c
		r.mu.Unlock()
		return nil
	})
	for _, q := range distinct {
		for _, p := range r.closures[q] {
			r.left[p]++
		}
	}
	if keep != nil {
		for q := range r.left {
			if keep(q) {
				r.left[q]++ // a reader that never finishes
			}
		}
	}
	return r
}

// Reads lists what files[i] reads that no file before it reads through
// the same closure, until Done(i): the closures of which it is the first
// reader, and the first file of each other closure it reads. Files
// joined by shared paths over these lists are joined as by all they read,
// and each path is listed once over all files.
func (r *Releaser) Reads(i int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, q := range r.roots[i] {
		if r.first[q] == i {
			out = append(out, r.closures[q]...)
		} else {
			out = append(out, q)
		}
	}
	return out
}

// Done says files[i] is checked (or skipped): what only it still read is
// released.
func (r *Releaser) Done(i int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []*grammar.File
	for _, q := range r.roots[i] {
		if r.readers[q]--; r.readers[q] > 0 {
			continue
		}
		for _, p := range r.closures[q] {
			if r.left[p]--; r.left[p] == 0 {
				if f := r.ws.Release(p); f != nil {
					gone = append(gone, f)
				}
			}
		}
	}
	// At once: the store's facts are looked over once, not once per file.
	r.store.Release(gone...)
	r.roots[i] = nil
}

// InputsOf identifies what the findings on a file depend on besides
// settings: the path and content of every file its compiles read
// (InputPaths), and the workspace's stubs. Equal values (same contents,
// same stubs) mean equal findings, so a front end can reuse a result
// without running the rules. The value holds no parse and no path: a
// cache of results keeps no tree alive, costs a few words per file, and
// is checked without parsing anything.
func InputsOf(ws *workspace.Workspace, path string) ResultInputs {
	h := sha256.New()
	for _, p := range InputPaths(ws, path) {
		io.WriteString(h, p)
		if sum, err := ws.ContentHash(p); err == nil {
			h.Write([]byte{0})
			h.Write(sum[:])
		} else {
			h.Write([]byte{1})
			io.WriteString(h, err.Error())
		}
		h.Write([]byte{0})
	}
	var in ResultInputs
	h.Sum(in.files[:0])
	in.stubs = ws.Stubs()
	return in
}

// ResultInputs is what InputsOf found.
type ResultInputs struct {
	files [sha256.Size]byte
	// The stub index is rebuilt on any change of a .py file: its stubs
	// are new values then.
	stubs []*abi.Stub
}

// SameInputs compares two InputsOf values.
func SameInputs(a, b ResultInputs) bool {
	return a.files == b.files && slices.Equal(a.stubs, b.stubs)
}

// InputPaths lists the files whose parses the findings on path may read:
// its include closure, then the closures of its units (a C++ file) or of
// the entries the workspace's stubs name (a Python file).
func InputPaths(ws *workspace.Workspace, path string) []string { return inputPaths(ws, path, true) }

// Paths lists the files of path's closure and units: for a Python
// file, the units of the stubs it defines. It is what the rules read on
// path, but for a Python file calling externs another file defines.
func Paths(ws *workspace.Workspace, path string) []string { return inputPaths(ws, path, false) }

func inputPaths(ws *workspace.Workspace, path string, allStubs bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, root := range roots(ws, path, allStubs) {
		for _, p := range ws.Closure(root) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// roots lists the files whose closures the findings on path read: path,
// then its units (a C++ file) or the entries of its stubs (a Python file;
// with allStubs, of every stub of the workspace).
func roots(ws *workspace.Workspace, path string, allStubs bool) []string {
	path = workspace.Abs(path)
	out := []string{path}
	if l, _ := grammar.LangOf(path); l == grammar.CPP {
		return append(out, ws.Context(path).Units...)
	}
	stubs := ws.StubsFor(path)
	if allStubs {
		stubs = ws.Stubs()
	}
	for _, s := range stubs {
		out = append(out, ws.StubEntries(s)...)
	}
	return out
}
