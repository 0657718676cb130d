package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// abiState is the workspace's Python side: the .py files under the roots,
// the stub index built from them, and the args[] caches. It is guarded by
// Workspace.mu.
//
// The args[] caches are keyed by their inputs, not by time: a value
// remembers the parsed files it was computed from, and a file is parsed
// again only when its content changes, so a value is valid exactly while
// those parses are the workspace's current ones. An edit recomputes what
// read the edited file and nothing else.
type abiState struct {
	py    map[string]bool
	stubs *stubIndex
	// stubsEpoch counts drops of the stub index, so an index built while a
	// stub changed is not kept.
	stubsEpoch uint64
	groups     map[string]*fileGroup
	raw, all   map[string]accMemo
	bindings   map[string]bindMemo
	// shares are each current parse's share of the args helper search
	// and of the constants: an edit rescans the edited file only.
	shares      map[*grammar.File]*fileShare
	sharesSwept int
}

// fileGroup is what every file of the same units shares: the constants
// and the args helpers of all their files.
type fileGroup struct {
	files   []*grammar.File
	once    sync.Once
	consts  *cxx.Resolver
	helpers abi.Helpers
	// all are the raw accesses of every file of the group (IndexConstants'
	// uses), computed once.
	allOnce sync.Once
	uses    []abi.Access
}

type accMemo struct {
	self  *grammar.File
	group *fileGroup
	acc   []abi.Access
}

type bindMemo struct {
	files []*grammar.File
	b     *abi.Bindings
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
	w.units, w.resolved = nil, nil
	w.unitsEpoch++
	w.dropClosures()
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
	all         []*abi.Stub
	byFile      map[string][]*abi.Stub
	byEntry     map[string][]*abi.Stub
	links       map[*abi.Stub]*StubLink
	includeDirs []string
	// byNameDependsOnCPP: some stub was linked (or not) by file name, so the
	// set of C++ files matters.
	byNameDependsOnCPP bool
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
	pys := make([]string, 0, len(w.abi.py))
	for p := range w.abi.py {
		pys = append(pys, p)
	}
	w.mu.Unlock()
	sort.Strings(pys)
	ix := &stubIndex{byFile: map[string][]*abi.Stub{}, byEntry: map[string][]*abi.Stub{}, links: map[*abi.Stub]*StubLink{}}
	for _, p := range pys {
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
	seenDir := map[string]bool{}
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
		for _, e := range link.Entries {
			ix.byEntry[e] = append(ix.byEntry[e], s)
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

func (w *Workspace) stubIncludeDirs() []string {
	w.mu.Lock()
	ix := w.abi.stubs
	w.mu.Unlock()
	if ix == nil {
		ix = w.stubIndex()
	}
	return ix.includeDirs
}

// stubKind is the kernel kind the stubs linked to an entry declare: the
// most demanding one when several externs share the entry.
func (w *Workspace) stubKind(entry string) (Kind, bool) {
	ss := w.stubIndex().byEntry[entry]
	found := false
	best := KindAIV
	for _, s := range ss {
		k, ok := ParseKind(s.CoreType)
		if !ok {
			continue
		}
		if !found || k == KindMixed || k == KindAIC && best == KindAIV {
			best = k
		}
		found = true
	}
	return best, found
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
	ctx := w.Context(path)
	link := w.StubLink(s)
	var out []string
	for _, u := range ctx.Units {
		for _, e := range link.Entries {
			if e == u {
				out = append(out, u)
			}
		}
	}
	return out
}

// unitFiles are the parsed C++ files a file's compile sees: the files of
// every unit including it, in unit order, then what its own closure adds
// (all of it for a file no unit includes). self is the file itself, also
// in files when a unit holds it.
func (w *Workspace) unitFiles(path string) (files []*grammar.File, self *grammar.File) {
	seen := map[string]bool{}
	var paths []string
	add := func(ps []string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	for _, u := range w.Context(path).Units {
		add(w.Closure(u))
	}
	add(w.Closure(path))
	for _, p := range paths {
		if f, err := w.File(p); err == nil && f.Lang == grammar.CPP {
			files = append(files, f)
		}
	}
	self, _ = w.File(path)
	return files, self
}

// group returns the shared constants and helpers of a file list, building
// them once however many files of the same units ask.
func (w *Workspace) group(files []*grammar.File) *fileGroup {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%p,", f)
	}
	key := b.String()
	w.mu.Lock()
	g := w.abi.groups[key]
	if g == nil {
		if len(w.abi.groups) >= 64 {
			w.pruneGroups()
		}
		if w.abi.groups == nil {
			w.abi.groups = map[string]*fileGroup{}
		}
		// The group holds its files, so their addresses in the key cannot
		// be reused while it lives.
		g = &fileGroup{files: files}
		w.abi.groups[key] = g
	}
	w.mu.Unlock()
	g.once.Do(func() {
		g.consts = w.Consts(files)
		parts := make([]*abi.FileHelpers, len(files))
		for i, f := range files {
			parts[i] = w.share(f).helpers
		}
		g.helpers = abi.JoinHelpers(parts...)
	})
	return g
}

// fileShare is what the args analyses derive from one parse alone.
type fileShare struct {
	helpers *abi.FileHelpers
	consts  *cxx.FileConsts
	defs    *abi.FileDefs
	// argsFns: the file defines a function taking the args pointer.
	argsFns bool
}

// Consts is the constant resolver over files, in order, from their shares.
func (w *Workspace) Consts(files []*grammar.File) *cxx.Resolver {
	parts := make([]*cxx.FileConsts, 0, len(files))
	for _, f := range files {
		if f != nil && f.Lang == grammar.CPP && f.Tree != nil {
			parts = append(parts, w.share(f).consts)
		}
	}
	return cxx.JoinConsts(parts...)
}

// share returns f's share of the args analyses, kept while f is the
// current parse of its path.
func (w *Workspace) share(f *grammar.File) *fileShare {
	w.mu.Lock()
	h := w.abi.shares[f]
	w.mu.Unlock()
	if h != nil {
		return h
	}
	h = &fileShare{helpers: abi.ScanHelpers(f), consts: cxx.IndexConsts(f), defs: abi.IndexDefs(f), argsFns: abi.HasArgsFunctions(f)}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.current(f) {
		return h
	}
	if w.abi.shares == nil {
		w.abi.shares = map[*grammar.File]*fileShare{}
	}
	w.abi.shares[f] = h
	if len(w.abi.shares) >= 2*w.abi.sharesSwept+32 {
		for g := range w.abi.shares {
			if !w.current(g) {
				delete(w.abi.shares, g)
			}
		}
		w.abi.sharesSwept = len(w.abi.shares)
	}
	return h
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
	return e != nil && e.file == f
}

// pruneGroups drops the groups and memos built from parses that are no
// longer current (w.mu held).
func (w *Workspace) pruneGroups() {
	stale := func(fs []*grammar.File) bool {
		for _, f := range fs {
			if !w.current(f) {
				return true
			}
		}
		return false
	}
	for k, g := range w.abi.groups {
		if stale(g.files) {
			delete(w.abi.groups, k)
		}
	}
	for _, m := range []map[string]accMemo{w.abi.raw, w.abi.all} {
		for k, a := range m {
			if !w.current(a.self) || stale(a.group.files) {
				delete(m, k)
			}
		}
	}
	for k, b := range w.abi.bindings {
		if stale(b.files) {
			delete(w.abi.bindings, k)
		}
	}
}

// forgetParse drops the helper share, groups and memos built from f
// (w.mu held).
func (w *Workspace) forgetParse(f *grammar.File) {
	delete(w.abi.shares, f)
	for k, g := range w.abi.groups {
		if slices.Contains(g.files, f) {
			delete(w.abi.groups, k)
		}
	}
	for _, m := range []map[string]accMemo{w.abi.raw, w.abi.all} {
		for k, a := range m {
			if a.self == f || slices.Contains(a.group.files, f) {
				delete(m, k)
			}
		}
	}
	for k, b := range w.abi.bindings {
		if slices.Contains(b.files, f) {
			delete(w.abi.bindings, k)
		}
	}
}

// memo takes the map by address: store may create it, so reading the field
// itself needs w.mu too.
func (w *Workspace) memo(m *map[string]accMemo, path string, self *grammar.File, g *fileGroup) ([]abi.Access, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if a, ok := (*m)[path]; ok && a.self == self && a.group == g {
		return a.acc, true
	}
	return nil, false
}

func (w *Workspace) store(m *map[string]accMemo, path string, self *grammar.File, g *fileGroup, acc []abi.Access) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if *m == nil {
		*m = map[string]accMemo{}
	}
	(*m)[path] = accMemo{self: self, group: g, acc: acc}
}

// rawAccesses is abi.Accesses of a file with the constants and helpers its
// compile sees, recomputed only when one of those files changes.
func (w *Workspace) rawAccesses(path string) []abi.Access {
	files, self := w.unitFiles(path)
	if self == nil || self.Lang != grammar.CPP {
		return nil
	}
	return w.rawIn(path, self, w.group(files))
}

func (w *Workspace) rawIn(path string, self *grammar.File, g *fileGroup) []abi.Access {
	if acc, ok := w.memo(&w.abi.raw, path, self, g); ok {
		return acc
	}
	var acc []abi.Access
	if w.share(self).argsFns {
		acc = abi.Accesses(self, g.consts, g.helpers)
	}
	w.store(&w.abi.raw, path, self, g, acc)
	return acc
}

// Helpers returns the args helpers (tensor_data<T>(args, i) & co.) a C++
// file's compile sees: defined in it, in what it includes, or in what the
// entries that include it include.
func (w *Workspace) Helpers(path string) abi.Helpers {
	files, self := w.unitFiles(Abs(path))
	if self == nil || self.Lang != grammar.CPP {
		return nil
	}
	return w.group(files).helpers
}

// Accesses returns the args[] reads of a C++ file (args[N] and helper calls
// at their index) followed by the index constants defined in it (Via
// "constant": enum members and constexpr values some file of the same
// units uses as an args index), recomputed only when a file of its units
// changes.
func (w *Workspace) Accesses(path string) []abi.Access {
	path = Abs(path)
	if l, ok := grammar.LangOf(path); !ok || l != grammar.CPP {
		return nil
	}
	files, self := w.unitFiles(path)
	if self == nil || self.Lang != grammar.CPP {
		return nil
	}
	g := w.group(files)
	if acc, ok := w.memo(&w.abi.all, path, self, g); ok {
		return acc
	}
	own := w.rawIn(path, self, g)
	g.allOnce.Do(func() {
		for _, f := range files {
			g.uses = append(g.uses, w.rawIn(f.Path, f, g)...)
		}
	})
	uses := g.uses
	if !containsFile(files, self) {
		uses = append(append([]abi.Access(nil), own...), uses...)
	}
	out := append(append([]abi.Access(nil), own...), abi.IndexConstants(self, g.consts, uses)...)
	w.store(&w.abi.all, path, self, g, out)
	return out
}

func containsFile(fs []*grammar.File, f *grammar.File) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// Bindings returns the template flag values of the unit rooted at entry
// (`run<true>(args)` binds WithRope=true), recomputed only when a file of
// the unit changes.
func (w *Workspace) Bindings(entry string) *abi.Bindings {
	entry = Abs(entry)
	ef, err := w.File(entry)
	if err != nil || ef.Lang != grammar.CPP {
		return nil
	}
	var files []*grammar.File
	for _, p := range w.Closure(entry)[1:] {
		if f, err := w.File(p); err == nil && f.Lang == grammar.CPP {
			files = append(files, f)
		}
	}
	key := append([]*grammar.File{ef}, files...)
	w.mu.Lock()
	if c, ok := w.abi.bindings[entry]; ok && slices.Equal(c.files, key) {
		w.mu.Unlock()
		return c.b
	}
	w.mu.Unlock()
	defs := []*abi.FileDefs{w.share(ef).defs}
	for _, f := range files {
		if f != ef {
			defs = append(defs, w.share(f).defs)
		}
	}
	b := abi.BindDefs(ef, defs, w.Consts(append(append([]*grammar.File(nil), files...), ef)))
	w.mu.Lock()
	if w.abi.bindings == nil {
		w.abi.bindings = map[string]bindMemo{}
	}
	w.abi.bindings[entry] = bindMemo{files: key, b: b}
	w.mu.Unlock()
	return b
}
