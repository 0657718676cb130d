package workspace

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// abiState is the workspace's Python side: the .py files under the roots
// and the stub index built from them. It is guarded by Workspace.mu. (The
// args[] tables are facts of the unit model: analysis/argsfacts.go.)
type abiState struct {
	py    map[string]bool
	stubs *stubIndex
	// stubsEpoch counts drops of the stub index, so an index built while a
	// stub changed is not kept.
	stubsEpoch uint64
}

func (a *abiState) markPy(path string) {
	if a.py == nil {
		a.py = map[string]bool{}
	}
	a.py[path] = true
}

// dropStubs forgets the stub index (w.mu held).
func (w *Workspace) dropStubs() {
	w.abi.stubs = nil
	w.abi.stubsEpoch++
}

// dropUnits forgets the include units and resolutions (w.mu held).
func (w *Workspace) dropUnits() {
	w.resolved, w.noDir, w.suffixes = nil, nil, nil
	w.dropIncludeUnits()
}

// dropIncludeUnits forgets the include units, keeping the resolutions
// (w.mu held).
func (w *Workspace) dropIncludeUnits() {
	w.units, w.macroEntry = nil, nil
	w.unitsEpoch++
	w.dropClosures()
	w.launchDirs = nil
	w.hostLaunch = nil
	w.splits = nil
}

// touched records a content change of path (w.mu held); shape says its
// includes or entry shape may have changed.
func (w *Workspace) touched(path string, shape bool) {
	if l, ok := grammar.LangOf(path); ok && l == grammar.Python {
		w.dropStubs()
		// Stub include_dirs take part in include resolution.
		w.dropUnits()
	} else if shape && w.abi.stubs != nil && w.abi.stubs.byNameDependsOnCPP {
		// A stub linked by file name may now find (or lose) its entry.
		w.dropStubs()
	}
}

// StubLink is how a stub was tied to its C++ entries.
type StubLink struct {
	Entries []string
	// ByName lists entries found by file name because a source argument
	// could not be evaluated (or there was none).
	ByName []string
	// Missing are resolved source paths that are not on disk.
	Missing []abi.Source
	// Ambiguous lists candidate entries when a file-name fallback found
	// several and linked none.
	Ambiguous []string
}

type stubIndex struct {
	all     []*abi.Stub
	byFile  map[string][]*abi.Stub
	byEntry map[string][]*abi.Stub
	// kinds are the kinds the stubs of each entry declare (stubKind),
	// folded once: every stub's units ask for its entry's.
	kinds       map[string]Kind
	links       map[*abi.Stub]*StubLink
	includeDirs []string
	// byNameDependsOnCPP: some stub was linked (or not) by file name, so the
	// set of C++ files matters.
	byNameDependsOnCPP bool
	// configured maps a kernel source a runtime kernel configuration names
	// to where it names it (`file.py:line`); configKinds to the kind its
	// core types make it.
	configured  map[string]string
	configKinds map[string]Kind
}

var externMarker = []byte("extern")

// stubsOf parses a .py file's stubs (nil for non-stub files).
func (w *Workspace) stubsOf(path string) []*abi.Stub {
	src, err := w.Source(path)
	if err != nil || !bytes.Contains(src, externMarker) {
		return nil
	}
	f, err := w.File(path)
	if err != nil {
		return nil
	}
	return abi.ParseStubs(f)
}

func (w *Workspace) stubIndex() *stubIndex {
	w.Index()
	w.mu.Lock()
	if ix := w.abi.stubs; ix != nil {
		w.mu.Unlock()
		return ix
	}
	epoch := w.abi.stubsEpoch
	pys := slices.Sorted(maps.Keys(w.abi.py))
	w.mu.Unlock()
	ix := &stubIndex{byFile: map[string][]*abi.Stub{}, byEntry: map[string][]*abi.Stub{}, kinds: map[string]Kind{}, links: map[*abi.Stub]*StubLink{}}
	ix.configured = map[string]string{}
	seenDir := map[string]bool{}
	for _, p := range pys {
		if src, err := w.Source(p); err == nil {
			if bytes.Contains(src, []byte("incores")) || bytes.Contains(src, []byte("core_type")) {
				// The configuration's include folders for its kernels
				// (`extra_include_dirs`) take part in include resolution,
				// as a stub's include_dirs do.
				if f, err := w.File(p); err == nil {
					for _, d := range abi.ConfigIncludeDirs(f) {
						if d.Path != "" && !seenDir[d.Path] {
							seenDir[d.Path] = true
							ix.includeDirs = append(ix.includeDirs, d.Path)
						}
					}
					// Its kernels, which the runtime calls per task as
					// `kernel(args)`, and the core type each is built for.
					for _, k := range abi.ConfigKernels(f) {
						if _, ok := ix.configured[k.Path]; !ok {
							ix.configured[k.Path] = filepath.Base(p) + ":" + strconv.Itoa(k.Line)
						}
						if k.Core != "" {
							ix.addConfigKind(k.Path, k.Core)
						}
					}
				}
			}
		}
		ss := w.stubsOf(p)
		if len(ss) == 0 {
			continue
		}
		ix.byFile[p] = ss
		ix.all = append(ix.all, ss...)
	}
	var entries []string
	entriesOnce := false
	knownEntries := func() []string {
		if !entriesOnce {
			entriesOnce = true
			for _, p := range w.KnownFiles() {
				if s := w.scanOf(p); s != nil && (s.entry || s.argsFn) {
					entries = append(entries, p)
				}
			}
		}
		return entries
	}
	for _, s := range ix.all {
		link := &StubLink{}
		seen := map[string]bool{}
		add := func(p string, byName bool) {
			if seen[p] {
				return
			}
			seen[p] = true
			link.Entries = append(link.Entries, p)
			if byName {
				link.ByName = append(link.ByName, p)
			}
		}
		unresolved := len(s.Sources) == 0
		for _, src := range s.Sources {
			if src.Path == "" {
				unresolved = true
				continue
			}
			if st, err := os.Stat(src.Path); err == nil && !st.IsDir() {
				add(src.Path, false)
			} else if w.hasOverlay(src.Path) {
				add(src.Path, false)
			} else {
				link.Missing = append(link.Missing, src)
				unresolved = true
			}
		}
		if unresolved {
			ix.byNameDependsOnCPP = true
			cands := nameCandidates(s, knownEntries())
			switch {
			case len(cands) == 1:
				add(cands[0], true)
			case len(cands) > 1:
				link.Ambiguous = cands
			}
		}
		ix.links[s] = link
		k, kindOK := ParseKind(s.CoreType)
		if kindHook != nil {
			kindHook()
		}
		for _, e := range link.Entries {
			ix.byEntry[e] = append(ix.byEntry[e], s)
			// The most demanding kind when several externs share the entry.
			if best, ok := ix.kinds[e]; kindOK && (!ok || k == KindMixed || k == KindAIC && best == KindAIV) {
				ix.kinds[e] = k
			}
		}
		for _, d := range s.IncludeDirs {
			if d.Path != "" && !seenDir[d.Path] {
				seenDir[d.Path] = true
				ix.includeDirs = append(ix.includeDirs, d.Path)
			}
		}
	}
	w.mu.Lock()
	if w.abi.stubsEpoch == epoch {
		// Builds of one epoch may run side by side; the first one stored
		// wins, so every caller sees the same *abi.Stub values (links are
		// keyed by them: a stub from one build has no link in another,
		// and its extern would look linked to nothing).
		if w.abi.stubs != nil {
			ix = w.abi.stubs
		} else {
			w.abi.stubs = ix
		}
	}
	w.mu.Unlock()
	return ix
}

func (w *Workspace) hasOverlay(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.files[path]
	return e != nil && e.overlay
}

var cppNameRE = regexp.MustCompile(`[\w.+-]+\.(?:cpp|cc|cxx|cce|c\+\+)`)

// nameCandidates finds the entries a stub whose source could not be
// evaluated most likely means: a C++ file name written in the expression,
// else a file or an extern "C" function named after the stub. Entries
// under the stub's folder win over others.
func nameCandidates(s *abi.Stub, entries []string) []string {
	var names []string
	for _, src := range s.Sources {
		if m := cppNameRE.FindAllString(src.Expr, -1); len(m) > 0 {
			names = append(names, m[len(m)-1])
		}
	}
	var cands []string
	if len(names) > 0 {
		for _, e := range entries {
			for _, n := range names {
				if filepath.Base(e) == n {
					cands = append(cands, e)
					break
				}
			}
		}
	} else {
		for _, e := range entries {
			base := strings.TrimSuffix(filepath.Base(e), filepath.Ext(e))
			if base == s.Name {
				cands = append(cands, e)
			}
		}
	}
	if len(cands) > 1 {
		dir := filepath.Dir(s.File) + string(filepath.Separator)
		var near []string
		for _, c := range cands {
			if strings.HasPrefix(c, dir) {
				near = append(near, c)
			}
		}
		if len(near) > 0 {
			cands = near
		}
	}
	return cands
}

// IncludeDirs are the folders #includes are searched in (a quoted one after the
// including file's own): the configured ones (include-dirs, -I), then the
// stubs' include_dirs=.
func (w *Workspace) IncludeDirs() []string {
	w.mu.Lock()
	out := append([]string(nil), w.includeDirs...)
	w.mu.Unlock()
	for _, d := range w.stubIncludeDirs() {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func (w *Workspace) stubIncludeDirs() []string {
	w.mu.Lock()
	ix := w.abi.stubs
	w.mu.Unlock()
	if ix == nil {
		ix = w.stubIndex()
	}
	return ix.includeDirs
}

// kindHook, when set (tests), hears each stub's kind read.
var kindHook func()

// stubKind is the kernel kind the stubs linked to an entry declare: the
// most demanding one when several externs share the entry.
// addConfigKind folds a core type a configuration names for source into
// its kind: a source listed for the cube and for the vector is built for
// both.
func (ix *stubIndex) addConfigKind(source string, core string) {
	if ix.configKinds == nil {
		ix.configKinds = map[string]Kind{}
	}
	k := KindAIV
	if core == "aic" {
		k = KindAIC
	}
	if was, ok := ix.configKinds[source]; ok && was != k {
		k = KindMixed
	}
	ix.configKinds[source] = k
}

// configKind is the kind a runtime kernel configuration's core types
// give entry.
func (w *Workspace) configKind(entry string) (Kind, bool) {
	k, ok := w.stubIndex().configKinds[entry]
	return k, ok
}

func (w *Workspace) stubKind(entry string) (Kind, bool) {
	k, ok := w.stubIndex().kinds[entry]
	if !ok {
		return KindAIV, false
	}
	return k, true
}

// Stubs returns every `@pl.jit.extern` stub of the workspace's .py files.
func (w *Workspace) Stubs() []*abi.Stub {
	return append([]*abi.Stub(nil), w.stubIndex().all...)
}

// StubsForEntry returns the stubs linked to an entry file.
func (w *Workspace) StubsForEntry(entry string) []*abi.Stub {
	return append([]*abi.Stub(nil), w.stubIndex().byEntry[Abs(entry)]...)
}

// StubLink returns how a stub was tied to its entries.
func (w *Workspace) StubLink(s *abi.Stub) StubLink {
	if l := w.stubIndex().links[s]; l != nil {
		return *l
	}
	return StubLink{}
}

// StubEntries returns the C++ entry files a stub is compiled from.
func (w *Workspace) StubEntries(s *abi.Stub) []string {
	return w.StubLink(s).Entries
}

// StubsFor returns every extern ABI a file belongs to: for a .py file the
// stubs it defines; for a C++ file the stubs of every unit (entry) whose
// compile includes it, so a header reached from two externs has two.
func (w *Workspace) StubsFor(path string) []*abi.Stub {
	path = Abs(path)
	if l, ok := grammar.LangOf(path); ok && l == grammar.Python {
		ix := w.stubIndex()
		if ss, ok := ix.byFile[path]; ok {
			return append([]*abi.Stub(nil), ss...)
		}
		w.mu.Lock()
		indexed := w.abi.py[path]
		w.mu.Unlock()
		if indexed {
			return nil
		}
		// A .py outside the roots: its own stubs, unlinked.
		return w.stubsOf(path)
	}
	ctx := w.Context(path)
	ix := w.stubIndex()
	var out []*abi.Stub
	seen := map[*abi.Stub]bool{}
	for _, u := range ctx.Units {
		for _, s := range ix.byEntry[u] {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// UnitsOfStub returns the units of path that compile under stub s (the
// entries of s whose closure includes path).
func (w *Workspace) UnitsOfStub(path string, s *abi.Stub) []string {
	link := w.StubLink(s)
	var out []string
	for _, u := range w.Context(path).Units {
		if slices.Contains(link.Entries, u) {
			out = append(out, u)
		}
	}
	return out
}

// IsCurrent reports whether f is the workspace's parse of its path: facts
// computed from f are still valid.
func (w *Workspace) IsCurrent(f *grammar.File) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current(f)
}

// IsCurrentStub reports whether s belongs to the current stub index.
func (w *Workspace) IsCurrentStub(s *abi.Stub) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.abi.stubs == nil {
		return false
	}
	_, ok := w.abi.stubs.links[s]
	return ok
}

// current reports whether f is the workspace's parse of its path (w.mu
// held).
func (w *Workspace) current(f *grammar.File) bool {
	e := w.files[f.Path]
	return e != nil && e.parsed() == f
}

// PythonFiles lists the workspace's Python files (where stubs and their
// callers live), sorted.
func (w *Workspace) PythonFiles() []string {
	w.Index()
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.abi.py))
}

// ConfiguredBy says where a runtime kernel configuration names entry as a
// per-task kernel ("" when none does).
func (w *Workspace) ConfiguredBy(entry string) string {
	return w.stubIndex().configured[Abs(entry)]
}
