// Package workspace is the model of a tree of extern sources shared by
// `check` and the language server: file contents (disk or editor overlays),
// parsed files, the #include graph, which files are extern sources, and each
// extern unit's kernel kind. It is the one place that decides which file an
// #include names (ResolveInclude, IsSDKHeader): units, the root finder and
// the front ends ask it.
package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Kind is an extern's kernel kind.
type Kind int

const (
	KindAIV   Kind = iota // vector-only (core_type="aiv", the default)
	KindAIC               // cube-only
	KindMixed             // cube + vector
)

func (k Kind) String() string {
	switch k {
	case KindAIC:
		return "aic"
	case KindMixed:
		return "mixed"
	}
	return "aiv"
}

// ParseKind reads a stub's core_type.
func ParseKind(s string) (Kind, bool) {
	switch s {
	case "aiv", "vector", "vec":
		return KindAIV, true
	case "aic", "cube":
		return KindAIC, true
	case "mixed", "mix":
		return KindMixed, true
	}
	return KindAIV, false
}

// Context is what the workspace knows about one C++ file.
type Context struct {
	Path string
	// Extern is true for a file defining a function that takes
	// `__gm__ int64_t *args`, or included (transitively) from one.
	Extern bool
	Entry  bool     // the file defines an extern "C" function taking the args pointer
	Units  []string // the entry files whose compile includes this file
	Kind   Kind
	// KindSource says where Kind came from: "stub", "config" (a runtime
	// kernel configuration's core_type) or "heuristic".
	KindSource string
}

// fileEntry is one text of a file. It never changes once in a workspace's
// map (forks share it); what is derived from the text lazily is in c.
type fileEntry struct {
	src     []byte
	stamp   fsys.Stamp // of the disk read (zero for overlays)
	overlay bool
	version int32
	c       *entryCell
}

func newEntry(src []byte) *fileEntry { return &fileEntry{src: src, c: &entryCell{}} }

// parsed returns the entry's parse (nil when none is held).
func (e *fileEntry) parsed() *grammar.File {
	e.c.mu.Lock()
	defer e.c.mu.Unlock()
	return e.c.file
}

// settled reports whether the entry's parse ran to its end: an overlay
// set again to the same text keeps only such a parse (one not yet run, under
// way or given up may be of a parse func whose context has ended).
func (c *entryCell) settled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.file != nil || c.err != nil && !errors.Is(c.err, context.Canceled)
}

// scanned returns the entry's text scan, made once (path is the entry's:
// an Ascend C `.asc` source declares SIMT kernels with `__global__` alone).
func (e *fileEntry) scanned(path string) *scan {
	e.c.mu.Lock()
	s := e.c.scan
	e.c.mu.Unlock()
	if s != nil {
		return s
	}
	s = scanText(e.src, strings.HasSuffix(path, ".asc"))
	e.c.mu.Lock()
	if e.c.scan == nil {
		e.c.scan = s
	}
	s = e.c.scan
	e.c.mu.Unlock()
	return s
}

// scan is the cheap text-level summary of a file: includes, entry shape and
// kind evidence. It needs no parse.
type scan struct {
	includes []grammar.Include
	// entry is set for a file whose compile is a unit: it defines a
	// `__global__` kernel or an extern "C" function taking a `__gm__
	// int64_t *` (launch.go says which launch model that is).
	entry bool
	// argsFn: a function takes a `__gm__ int64_t *` parameter; runtimeFn:
	// one takes it as its only parameter (the runtime's `kernel(args)`).
	argsFn    bool
	runtimeFn bool
	externC   bool
	// globalAny: a `__global__` kernel; global: one whose parameters are
	// not the runtime shape; launch: a host launch of a kernel (`<<<…>>>`,
	// an ACL launch call).
	globalAny bool
	global    bool
	launch    bool
	cube      bool
	vec       bool
	mixedSig  bool
	// taskTypes says which kernel task types the file declares.
	taskTypes uint8
	// defines are the macros the file #defines; kernels the names of its
	// `__global__` kernels; launched the kernels it launches by name
	// (`k<<<…>>>`, `ACLRT_LAUNCH_KERNEL(k)`, `#include "aclrtlaunch_k.h"`).
	defines, kernels, launched []string
	// kernelDefs are the function-like macros whose bodies declare a
	// `__global__` kernel, macroDefs those whose bodies name macro-like
	// words, macroWords the macro names code uses where a kernel macro
	// is instantiated (scan.go: a kernel declared by a macro).
	kernelDefs []string
	macroDefs  []macroDef
	macroWords []string
	// resolved is what Includes made of includes, and against which
	// resolutions (a closure walk asks for every file of every closure).
	resolved atomic.Pointer[resolvedIncludes]
}

// resolvedIncludes are the workspace files a scan's includes resolve to
// under one memo of resolutions (Workspace.resolved).
type resolvedIncludes struct {
	under *memo[[2]string, Resolution]
	from  string
	paths []string
}

// Workspace holds files by absolute path. It is safe for concurrent use.
type Workspace struct {
	mu    sync.Mutex
	roots []string
	files map[string]*fileEntry
	// IncludeDirs are searched after the including file's directory.
	includeDirs []string
	// noBuildIncludes turns off the build files' folders and the unique
	// suffix (SetBuildIncludes).
	noBuildIncludes bool
	// noDir says which include folders are not on disk (missingDir);
	// dropped with the resolutions.
	noDir *memo[string, bool]
	// live are the include folders an #include may resolve in (liveDirs),
	// listed with the noDir memo and stub index they name.
	live struct {
		dirs  []string
		noDir *memo[string, bool]
		stubs *stubIndex
	}
	// gaveUp is set once a parse read through this workspace ended given
	// up (an editor's text whose newer text is pending): what was derived
	// from the file without it (a unit missing a header, a stub index
	// with no stubs) describes no text the user has.
	gaveUp atomic.Bool
	// known is every C++ file found under the roots (for reverse includes).
	known   map[string]bool
	indexed bool
	// parsers are idle parsers by language (grammar.Lang): one of the
	// other language was replaced by a new parser at every parse. Forks
	// share them.
	parsers *[2]sync.Pool
	// parseCache keeps disk files' trees between runs (nil: none).
	parseCache *ParseCache
	// units maps a file to the entries whose compile includes it; nil when
	// it must be rebuilt (a file's includes or entry shape changed). Never
	// changed once built (forks share it).
	units map[string][]string
	// macroEntry are the files that declare kernels only by instantiating
	// another file's kernel macro (macroEntries), found with units.
	macroEntry map[string]bool
	// resolved caches include resolution by including folder and path;
	// dropped with units, as is suffixes (the suffix index of the files
	// under the roots).
	resolved *memo[[2]string, Resolution]
	suffixes *suffixIndex
	// unitsEpoch counts drops of units, so a units index built while the
	// include graph changed is not kept.
	unitsEpoch uint64
	// unitsBuild makes unitsOf's builds of units one at a time.
	unitsBuild sync.Mutex
	// closures memoizes Closure (and the kinds entries' closures say)
	// until a file's content, the include graph or the limits change;
	// drops counts those changes (see Generation).
	closures *closureTable
	drops    uint64
	// releases counts the parses released by this workspace and its forks
	// (they share the parses).
	releases *atomic.Uint64
	// abi is the Python stub index (stubs.go).
	abi abiState
	// maxFile is the size cap of a file (fsys.DefaultMaxFileSize when
	// nil); maxUnit caps the bytes of one include closure.
	maxFile func(path string) int64
	maxUnit int64
	// build caches BuildSettings by folder, launchDirs the first file of
	// each folder that launches a kernel (launch.go).
	launchDirs map[string][]string
	build      *memo[string, []BuildSetting]
	// hostLaunch caches HostLaunchOf by entry.
	hostLaunch *memo[string, HostLaunch]
	// splits caches SplitShares by entry.
	splits *memo[string, map[string]bool]
	// buildDirs caches what build files say about include folders, by
	// folder (BuildIncludeDirs).
	buildDirs *memo[string, *buildFolder]
	// counts caches LaunchCounts by operator host folder.
	counts *memo[string, map[string]LaunchCount]
	// problems are the files and folders that could not be read, by path
	// (forks share them).
	problems *memo[string, error]
	// uses counts File calls (see entryCell.used; forks share it).
	uses *atomic.Uint64
	// idx are the walks of the roots under way or done (forks share
	// them).
	idx *indexRuns
	// bounded: the index refuses broad roots and stops at the caps (see
	// BoundIndex).
	bounded bool
	// walked is the index walk last taken in; macros the macro names the
	// workspace defines or its build files name (MacroDefinedNowhere),
	// shared with forks until a file's #defines change.
	walked *indexRun
	macros *macroNames
}

// BoundIndex makes the index refuse roots too broad to walk (TooBroad) and
// stop at maxIndexFolders folders and maxIndexFiles files per root: for
// the server, whose folders come from a client (an editor opened on ~).
// `check` walks the paths it is given itself.
func (w *Workspace) BoundIndex() {
	w.mu.Lock()
	w.bounded = true
	w.mu.Unlock()
}

// New returns a workspace over the given root folders.
func New(roots ...string) *Workspace {
	w := &Workspace{files: map[string]*fileEntry{}, known: map[string]bool{},
		parsers: new([2]sync.Pool), uses: new(atomic.Uint64), releases: new(atomic.Uint64), problems: &memo[string, error]{}, idx: &indexRuns{}}
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			w.roots = append(w.roots, abs)
		}
	}
	return w
}

// Roots returns the workspace folders.
func (w *Workspace) Roots() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.roots...)
}

// AddRoot adds a workspace folder.
func (w *Workspace) AddRoot(root string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.roots {
		if r == abs {
			return
		}
	}
	w.roots = append(w.roots, abs)
	w.rootsChanged()
}

// rootsChanged drops what was derived from the old roots (w.mu held).
func (w *Workspace) rootsChanged() {
	w.indexed = false
	w.dropUnits()
	w.dropStubs()
	w.build, w.buildDirs = nil, nil
	w.counts = nil
	w.hostLaunch = nil
	w.splits = nil
	w.macros = nil
}

// RemoveRoot drops a workspace folder.
func (w *Workspace) RemoveRoot(root string) {
	abs, _ := filepath.Abs(root)
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, r := range w.roots {
		if r == abs {
			w.roots = append(w.roots[:i], w.roots[i+1:]...)
			w.rootsChanged()
			return
		}
	}
}

// SetIncludeDirs sets extra include folders (absolute).
func (w *Workspace) SetIncludeDirs(dirs []string) {
	w.mu.Lock()
	w.includeDirs = append([]string(nil), dirs...)
	w.dropClosures()
	w.mu.Unlock()
}

// SetBuildIncludes says whether an #include is also searched for in the
// folders the build files name and by its unique suffix (on unless set
// off: the front ends follow the configuration's build-includes).
func (w *Workspace) SetBuildIncludes(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.noBuildIncludes == !on {
		return
	}
	w.noBuildIncludes = !on
	w.dropUnits()
}

// AddIncludeDirs adds include folders (absolute) not already searched; a
// new one can change what includes resolve to, so resolutions and include
// units are recomputed.
func (w *Workspace) AddIncludeDirs(dirs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	added := false
	// A set, not a scan per folder: quadratic in a long include-dirs.
	have := make(map[string]bool, len(w.includeDirs))
	for _, d := range w.includeDirs {
		have[d] = true
	}
	for _, d := range dirs {
		if !have[d] {
			have[d] = true
			w.includeDirs = append(w.includeDirs, d)
			added = true
		}
	}
	if added {
		w.dropUnits()
	}
}

// SetOverlay records an editor buffer for path; it replaces disk content.
func (w *Workspace) SetOverlay(path string, src []byte, version int32) {
	w.SetOverlayParse(path, src, version, nil)
}

// SetOverlayParse records an editor buffer whose parse is made by parse
// when first asked (the server's incremental reparse; nil: a batch parse):
// an edit costs no parse until a request or an analysis reads the file,
// and the forks holding this text share the one parse.
func (w *Workspace) SetOverlayParse(path string, src []byte, version int32, parse func() (*grammar.File, error)) {
	path = Abs(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.files[path]
	if e != nil && e.overlay && bytes.Equal(e.src, src) && e.c.settled() {
		// The same text: its parse and scan stand.
		ne := *e
		ne.version = version
		w.files[path] = &ne
		return
	}
	ne := newEntry(src)
	ne.overlay, ne.version, ne.c.parse = true, version, parse
	w.replace(path, e, ne)
}

// replace installs a new entry, dropping the units index when the file's
// includes or entry shape changed.
func (w *Workspace) replace(path string, old, ne *fileEntry) {
	ns := ne.scanned(path)
	// A closure is cut by its bytes: any new text may change it.
	w.dropClosures()
	shape := old == nil || !old.scanned(path).sameShape(ns)
	if shape {
		w.dropUnits()
	}
	if old == nil || !slices.Equal(old.scanned(path).defines, ns.defines) {
		w.macros = nil // MacroDefinedNowhere reads every file's #defines
	}
	w.files[path] = ne
	w.markKnown(path)
	w.touched(path, shape)
}

// ClearOverlay drops an editor buffer; the disk content is read again.
func (w *Workspace) ClearOverlay(path string) {
	path = Abs(path)
	w.mu.Lock()
	delete(w.files, path)
	w.macros = nil
	w.dropUnits()
	w.touched(path, true)
	w.mu.Unlock()
}

// Invalidate forgets the cached content of a file (changed on disk).
func (w *Workspace) Invalidate(path string) {
	path = Abs(path)
	w.mu.Lock()
	if e := w.files[path]; e != nil && !e.overlay {
		delete(w.files, path)
	}
	w.macros = nil
	w.dropUnits()
	if _, err := os.Stat(path); err != nil {
		delete(w.known, path)
		delete(w.abi.py, path)
	} else {
		w.markKnown(path)
	}
	w.touched(path, true)
	w.mu.Unlock()
}

func (w *Workspace) markKnown(path string) {
	if l, ok := grammar.LangOf(path); ok && l == grammar.CPP {
		w.known[path] = true
	} else if ok && l == grammar.Python {
		w.abi.markPy(path)
	}
}

// isKnown reports whether the index already holds path (w.mu held).
func (w *Workspace) isKnown(path string) bool {
	if l, ok := grammar.LangOf(path); ok && l == grammar.Python {
		return w.abi.py[path]
	}
	return w.known[path]
}

// Abs cleans a path into the workspace's key form.
func Abs(path string) string {
	if cleanAbs(path) {
		return path // most paths asked are keys already: no Clean
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// cleanAbs reports whether path is absolute and filepath.Clean leaves it
// as it is: no empty, "." or ".." element, no trailing separator.
func cleanAbs(path string) bool {
	if filepath.Separator != '/' || len(path) == 0 || path[0] != '/' {
		return false
	}
	if path == "/" {
		return true
	}
	start := 1
	for i := 1; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		if el := path[start:i]; el == "" || el == "." || el == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// Source returns the current text of a file (overlay or disk).
func (w *Workspace) Source(path string) ([]byte, error) {
	e, err := w.entry(Abs(path))
	if err != nil {
		return nil, err
	}
	return e.src, nil
}

// ContentHash returns the SHA-256 of a file's current text (overlay or
// disk): equal hashes, equal parses. Caches of results key on it rather
// than on a parse, so they neither hold a tree nor miss when a released
// file is parsed again.
func (w *Workspace) ContentHash(path string) ([sha256.Size]byte, error) {
	e, err := w.entry(Abs(path))
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return e.contentHash(), nil
}

// contentHash is the SHA-256 of the entry's text, computed when first
// asked (a disk read's too: hashing every file read was 1% of a check).
func (e *fileEntry) contentHash() [sha256.Size]byte {
	e.c.mu.Lock()
	h, ok := e.c.hash, e.c.hashed
	e.c.mu.Unlock()
	if ok {
		return h
	}
	h = sha256.Sum256(e.src)
	e.c.mu.Lock()
	e.c.hash, e.c.hashed = h, true
	e.c.mu.Unlock()
	return h
}

// Version returns the overlay version of a file, or -1 for disk content.
func (w *Workspace) Version(path string) int32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.files[Abs(path)]; e != nil && e.overlay {
		return e.version
	}
	return -1
}

// DiskStamp returns the stamp of a file's disk content as the workspace
// read it (ok false for an overlay or an unread file): what a write must
// find on disk before replacing the file.
func (w *Workspace) DiskStamp(path string) (fsys.Stamp, bool) {
	w.mu.Lock()
	e := w.files[Abs(path)]
	w.mu.Unlock()
	if e == nil || e.overlay {
		return fsys.Stamp{}, false
	}
	st := e.stamp
	st.Hash = e.contentHash()
	return st, true
}

// SetLimits sets the size cap of each file (by path; nil or <= 0: the
// default) and of the bytes one include closure reads (<= 0: the default).
func (w *Workspace) SetLimits(maxFile func(path string) int64, maxUnit int64) {
	w.mu.Lock()
	w.maxFile, w.maxUnit = maxFile, maxUnit
	w.dropClosures()
	w.mu.Unlock()
}

// Problem is a file or folder the workspace could not read, or read only
// in part.
type Problem struct {
	Path string
	Err  error
}

// Problems returns what could not be read so far, sorted by path.
func (w *Workspace) Problems() []Problem {
	w.problems.mu.Lock()
	defer w.problems.mu.Unlock()
	out := make([]Problem, 0, len(w.problems.m))
	for p, err := range w.problems.m {
		out = append(out, Problem{p, err})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// AddProblem records a path that could not be read (the first failure per
// path): the workspace's own, and a folder a caller's walk could not list.
func (w *Workspace) AddProblem(path string, err error) {
	w.problems.mu.Lock()
	if w.problems.m == nil {
		w.problems.m = map[string]error{}
	}
	if _, ok := w.problems.m[path]; !ok {
		w.problems.m[path] = err
	}
	w.problems.mu.Unlock()
}

func (w *Workspace) entry(path string) (*fileEntry, error) {
	w.mu.Lock()
	e := w.files[path]
	w.mu.Unlock()
	// Disk content is trusted until Invalidate (the server hears of disk
	// changes through file watching; `check` reads each file once).
	if e != nil {
		return e, nil
	}
	w.mu.Lock()
	maxFile := w.maxFile
	w.mu.Unlock()
	var max int64
	if maxFile != nil {
		max = maxFile(path)
	}
	src, stamp, err := fsys.ReadFileUnhashed(path, max)
	if err != nil {
		// A folder is no file to read, and no problem to report: asked
		// only once a read failed (a stat per file read costs).
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return nil, &os.PathError{Op: "read", Path: path, Err: errIsDir}
		}
		w.AddProblem(path, err)
		return nil, err
	}
	e = newEntry(src)
	e.stamp = stamp
	w.mu.Lock()
	if cur := w.files[path]; cur != nil {
		// An overlay set, or the same file read by another goroutine, while
		// we read: keep that entry, so every caller shares one parse (facts
		// are keyed by the parse).
		e = cur
	} else {
		w.files[path] = e
	}
	if !w.isKnown(path) {
		// A file the index had not seen (a header in a skipped folder,
		// read through an include) can change the include units; a known
		// one (every file of a `check` run) cannot. The includes resolved
		// so far stand: they were resolved against the disk the file was
		// just read from. A stub file's include_dirs can change them.
		if l, _ := grammar.LangOf(path); l == grammar.Python {
			w.dropUnits()
		} else {
			w.dropIncludeUnits()
		}
	}
	w.markKnown(path)
	w.mu.Unlock()
	return e, nil
}

type dirError struct{}

func (dirError) Error() string { return "is a directory" }

var errIsDir = dirError{}

// parseHook, when set (by tests), runs before every parse with the parse
// registered as under way: a test holds a parse in flight with it.
var parseHook func(path string)

// File returns the parsed file at path, parsing it at most once per content.
func (w *Workspace) File(path string) (*grammar.File, error) {
	f, err, _ := w.file(Abs(path), true)
	return f, err
}

// GaveUp reports whether a parse read through this workspace was given
// up for a newer text (SetOverlayParse's parse ended by its context):
// results computed on it may have read the file as missing, so they are
// stale, not findings.
func (w *Workspace) GaveUp() bool { return w.gaveUp.Load() }

// Files returns the parses of paths as File does one by one, but waits
// for a file another goroutine is parsing only once it has parsed every
// file nobody had started: workers checking the files of one unit share
// the parses of its headers instead of queueing behind the first.
func (w *Workspace) Files(paths []string) ([]*grammar.File, []error) {
	files, errs := make([]*grammar.File, len(paths)), make([]error, len(paths))
	var busy []int
	for i, p := range paths {
		f, err, parsing := w.file(Abs(p), false)
		if parsing {
			busy = append(busy, i)
			continue
		}
		files[i], errs[i] = f, err
	}
	for _, i := range busy {
		files[i], errs[i] = w.File(paths[i])
	}
	return files, errs
}

// file returns the parse of path (absolute). When another goroutine is
// parsing it, it waits, or with wait false returns busy at once.
func (w *Workspace) file(path string, wait bool) (f *grammar.File, err error, busy bool) {
	defer func() {
		if err != nil && errors.Is(err, context.Canceled) {
			w.gaveUp.Store(true)
		}
	}()
	e, err := w.entry(path)
	if err != nil {
		return nil, err, false
	}
	c := e.c
	c.mu.Lock()
	c.used = w.uses.Add(1)
	for {
		f, ferr := c.file, c.err
		if f != nil || ferr != nil {
			c.mu.Unlock()
			return f, ferr, false
		}
		parsing := c.parsing
		if parsing != nil {
			select {
			case <-parsing:
				// Finished without leaving a result (released since):
				// waiting again would spin.
				parsing = nil
			default:
			}
		}
		if parsing == nil {
			break
		}
		if !wait {
			c.mu.Unlock()
			return nil, nil, true
		}
		// Another goroutine (of this workspace or a fork) is parsing this
		// content: a header shared by the files of a parallel check, or by
		// the snapshots of an editing session, is parsed once. Its parse
		// may be released (Release) before we look: then parse it again.
		c.mu.Unlock()
		<-parsing
		c.mu.Lock()
	}
	c.parsing = make(chan struct{})
	c.mu.Unlock()
	if parseHook != nil {
		parseHook(path)
	}
	if c.parse != nil {
		f, err = c.parse()
	} else {
		lang, _ := grammar.LangOf(path)
		var p *grammar.Parser
		if v := w.parsers[lang].Get(); v != nil {
			p = v.(*grammar.Parser)
		} else {
			p = grammar.NewBatchParser(lang)
		}
		if e.overlay {
			f, err = grammar.ParseFile(context.Background(), p, path, e.src, nil)
		} else {
			f, err = w.parseCache.parse(p, path, e.src)
		}
		w.parsers[lang].Put(p)
		if f != nil && !e.overlay {
			// Batch parses never reparse incrementally: free the C tree now.
			f.Tree.Close()
		}
	}
	c.mu.Lock()
	c.file, c.err = f, err
	close(c.parsing)
	c.mu.Unlock()
	return f, err, false
}

// Preload reads, with jobs goroutines, the files of a run and the headers
// they reach: their text, their scan, where their includes resolve and,
// for a Python file that may hold stubs, its parse. The include units, the
// stub index and each file's readers are then derived from memory, not by
// one goroutine reading the tree file by file before any file is checked.
// Those indexes read every file of the roots (the stubs of every .py file;
// which entries reach a header, from the scan of every C++ file and the
// closure of every entry), so Preload reads them too, and builds the
// include units. It follows the includes of the run's files no further
// than their closures may (the unit cap per file).
func (w *Workspace) Preload(paths []string, jobs int) {
	var cpp []string
	var py []string
	for _, p := range paths {
		p = Abs(p)
		if l, _ := grammar.LangOf(p); l == grammar.Python {
			py = append(py, p)
		} else {
			cpp = append(cpp, p)
		}
	}
	w.index(jobs)
	w.mu.Lock()
	py = append(py, slices.Sorted(maps.Keys(w.abi.py))...)
	w.mu.Unlock()
	// The stubs first: their include_dirs take part in resolving includes.
	Parallel(jobs, py, func(p string) []string {
		if src, err := w.Source(p); err == nil && bytes.Contains(src, externMarker) {
			w.File(p)
		}
		return nil
	})
	w.stubIncludeDirs()
	w.mu.Lock()
	limit := w.maxUnit
	w.mu.Unlock()
	if limit <= 0 {
		limit = fsys.DefaultMaxUnitBytes
	}
	budget := limit * int64(len(cpp))
	var read atomic.Int64
	Parallel(jobs, cpp, func(p string) []string {
		if src, err := w.Source(p); err != nil || read.Add(int64(len(src))) > budget {
			return nil
		}
		return w.Includes(p)
	})
	if len(cpp) > 0 {
		// What any C++ file's Context asks for first.
		w.buildUnits(jobs)
	}
}

// Parallel calls fn on every item with jobs goroutines, and on the items
// fn returns (each item once).
func Parallel(jobs int, items []string, fn func(string) []string) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	seen := map[string]bool{}
	var queue []string
	left := 0 // items queued or under way
	push := func(x string) {
		if !seen[x] {
			seen[x] = true
			queue = append(queue, x)
			left++
			cond.Signal()
		}
	}
	for _, x := range items {
		push(x)
	}
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for {
				for len(queue) == 0 && left > 0 {
					cond.Wait()
				}
				if left == 0 {
					cond.Broadcast()
					return
				}
				x := queue[0]
				queue = queue[1:]
				mu.Unlock()
				more := fn(x)
				mu.Lock()
				for _, y := range more {
					push(y)
				}
				left--
			}
		}()
	}
	wg.Wait()
}

// Release forgets the parse of a C++ disk file (its text stays; its facts
// are the fact store's to release): the next File parses the text again.
// `check` releases a file once no file left to check reads it, so a run
// holds the parses of the units under way, not of the whole tree. It
// returns the parse released, or nil.
func (w *Workspace) Release(path string) *grammar.File {
	path = Abs(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.files[path]
	if e == nil || e.overlay {
		return nil
	}
	e.c.mu.Lock()
	defer e.c.mu.Unlock()
	f := e.c.file
	if f == nil || f.Lang != grammar.CPP {
		return nil
	}
	// A finished parse: no goroutine waits on c.parsing.
	e.c.file, e.c.err, e.c.parsing = nil, nil, nil
	w.releases.Add(1)
	return f
}

// TrimParses releases the least recently used parses of C++ disk files
// until those that keep does not claim hold at most budget bytes of text,
// and returns the parses released (their facts go with them). A server
// keeps the parses its open documents' units read, and a few recent
// others, not every tree a request or a workspace run ever made. keep is
// called only when the parses held exceed the budget.
func (w *Workspace) TrimParses(budget int64, keep func() func(path string) bool) []*grammar.File {
	type held struct {
		path string
		size int64
		used uint64
	}
	var cands []held
	var total int64
	w.mu.Lock()
	for p, e := range w.files {
		if e.overlay {
			continue
		}
		e.c.mu.Lock()
		f, used := e.c.file, e.c.used
		e.c.mu.Unlock()
		if f == nil || f.Lang != grammar.CPP {
			continue
		}
		cands = append(cands, held{p, int64(len(e.src)), used})
		total += int64(len(e.src))
	}
	w.mu.Unlock()
	if total <= budget {
		return nil
	}
	kept := keep()
	total = 0
	others := cands[:0]
	for _, c := range cands {
		if !kept(c.path) {
			others = append(others, c)
			total += c.size
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].used < others[j].used })
	var out []*grammar.File
	for _, c := range others {
		if total <= budget {
			break
		}
		if f := w.Release(c.path); f != nil {
			out = append(out, f)
		}
		total -= c.size
	}
	return out
}

// Parsed lists the paths whose parse the workspace holds, sorted.
func (w *Workspace) Parsed() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for p, e := range w.files {
		if e.parsed() != nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Unparsed lists the paths of which the workspace holds no parse nor a
// parse's error: those a File call would parse or wait for.
func (w *Workspace) Unparsed(paths []string) []string {
	var out []string
	for _, p := range paths {
		p = Abs(p)
		w.mu.Lock()
		e := w.files[p]
		w.mu.Unlock()
		if e == nil || !e.c.settled() {
			out = append(out, p)
		}
	}
	return out
}

func (w *Workspace) scanOf(path string) *scan {
	e, err := w.entry(path)
	if err != nil {
		return nil
	}
	return e.scanned(path)
}

func (s *scan) sameShape(o *scan) bool {
	if s.entry != o.entry || s.argsFn != o.argsFn || s.runtimeFn != o.runtimeFn || s.externC != o.externC || s.global != o.global || s.globalAny != o.globalAny || s.launch != o.launch || s.cube != o.cube || s.vec != o.vec || s.mixedSig != o.mixedSig || s.taskTypes != o.taskTypes || len(s.includes) != len(o.includes) {
		return false
	}
	for i := range s.includes {
		if s.includes[i].Path != o.includes[i].Path || s.includes[i].System != o.includes[i].System {
			return false
		}
	}
	return slices.Equal(s.kernelDefs, o.kernelDefs) && slices.Equal(s.macroWords, o.macroWords) &&
		slices.EqualFunc(s.macroDefs, o.macroDefs, func(a, b macroDef) bool { return a.name == b.name && slices.Equal(a.refs, b.refs) })
}

// hasFile reports whether the workspace holds c or c is a file on disk;
// inDir: c is in an include folder, whose folders are looked up on disk
// once (missingDir).
func (w *Workspace) hasFile(c string, inDir bool) bool {
	w.mu.Lock()
	e := w.files[c]
	w.mu.Unlock()
	if e != nil {
		return true
	}
	if inDir && w.missingDir(filepath.Dir(c)) {
		return false
	}
	if statHook != nil {
		statHook(c)
	}
	st, err := os.Stat(c)
	return err == nil && !st.IsDir()
}

// liveDirs lists the include folders, then the stubs' (stub), an #include may
// resolve in: those on disk, and those holding a file the workspace
// holds (an editor's buffer in a folder not on disk). Listed once while
// the resolutions stand: with 100,000 folders not on disk, every #include
// looked at each of them.
func (w *Workspace) liveDirs(stub []string) []string {
	w.mu.Lock()
	nd, ix := memoOf(&w.noDir), w.abi.stubs
	if w.live.noDir == nd && w.live.stubs == ix {
		defer w.mu.Unlock()
		return w.live.dirs
	}
	dirs := append(slices.Clone(w.includeDirs), stub...)
	held := map[string]bool{}
	for p := range w.files {
		for d := filepath.Dir(p); !held[d]; d = filepath.Dir(d) {
			held[d] = true
		}
	}
	w.mu.Unlock()
	var live []string
	for _, d := range dirs {
		if held[d] || !w.missingDir(d) {
			live = append(live, d)
		}
	}
	w.mu.Lock()
	if w.noDir == nd && w.abi.stubs == ix {
		w.live.dirs, w.live.noDir, w.live.stubs = live, nd, ix
	}
	w.mu.Unlock()
	return live
}

// statHook, when set (tests), hears each path include resolution looks
// up on disk.
var statHook func(path string)

// missingDir reports whether folder d is not on disk, asked once per
// folder for as long as the resolutions are kept: with 100,000 include
// folders every #include looked in each of them on disk. A buffer the
// editor holds in such a folder is still found (w.files, above).
func (w *Workspace) missingDir(d string) bool {
	w.mu.Lock()
	nd := memoOf(&w.noDir)
	w.mu.Unlock()
	if m, ok := nd.get(d); ok {
		return m
	}
	if statHook != nil {
		statHook(d)
	}
	st, err := os.Stat(d)
	m := err != nil || !st.IsDir()
	w.mu.Lock()
	if w.noDir == nd {
		nd.put(d, m, 0)
	}
	w.mu.Unlock()
	return m
}

// Includes returns the workspace files path includes directly (shared:
// callers must not modify the list).
func (w *Workspace) Includes(path string) []string {
	return w.includes(Abs(path))
}

// includes is Includes of a path already absolute and clean (as the
// resolutions it returns are): a closure walk asks it of every file, and
// cleaning the path again cost 1% of a check's CPU.
func (w *Workspace) includes(path string) []string {
	s := w.scanOf(path)
	if s == nil {
		return nil
	}
	w.mu.Lock()
	res := memoOf(&w.resolved)
	w.mu.Unlock()
	if r := s.resolved.Load(); r != nil && r.under == res && r.from == path {
		return r.paths
	}
	var out []string
	for _, inc := range s.includes {
		if p := w.ResolveInclude(path, inc); p != "" {
			out = append(out, p)
		}
	}
	// Kept only while the resolutions it read are the workspace's: a
	// drop (include folders, a new stub) makes a new memo.
	w.mu.Lock()
	if w.resolved == res {
		s.resolved.Store(&resolvedIncludes{under: res, from: path, paths: slices.Clip(out)})
	}
	w.mu.Unlock()
	return out
}

// UnresolvedIncludes lists the quoted #includes of path that resolve to no
// file: headers outside the roots and include dirs (CANN, pto-isa), whose
// macros and constants the analysis does not see.
func (w *Workspace) UnresolvedIncludes(path string) []grammar.Include {
	var out []grammar.Include
	for _, r := range w.Resolutions(path) {
		if !r.Include.System && r.Path == "" {
			out = append(out, r.Include)
		}
	}
	return out
}

// IncludeResolution is one #include of a file and what it resolved to.
type IncludeResolution struct {
	Include grammar.Include
	Resolution
}

// Resolutions lists path's #includes with what each resolves to.
func (w *Workspace) Resolutions(path string) []IncludeResolution {
	path = Abs(path)
	s := w.scanOf(path)
	if s == nil {
		return nil
	}
	out := make([]IncludeResolution, 0, len(s.includes))
	for _, inc := range s.includes {
		out = append(out, IncludeResolution{inc, w.Resolve(path, inc)})
	}
	return out
}

// Closure returns path and every workspace file it includes transitively,
// in include order (dependencies before the file itself is not guaranteed;
// the file comes first). A closure stops growing once its files hold more
// bytes than the unit cap; the headers left out are recorded as problems.
func (w *Workspace) Closure(path string) []string {
	return w.closureOf(Abs(path), 0).list()
}

// closureTable is the Closure memo, shared by forks until either drops
// it.
type closureTable struct {
	mu sync.Mutex
	m  map[string]*closureMemo
	// paths counts the paths the walked closures hold (maxClosurePaths).
	paths int
	// kinds are the kinds entries' closures say (closureKind).
	kinds map[string]Kind
}

// closureMemo is a memoized closure: path, then its sole include's
// closure (sole, shared, not copied: a chain of headers each including
// the next holds one entry per header), or the paths walked; with the
// bytes they hold and whether it is whole (not cut at the unit cap).
// walked is the walked closure at the end of the sole includes.
type closureMemo struct {
	path   string
	sole   *closureMemo
	walked *closureMemo
	paths  []string
	n      int
	bytes  int64
	whole  bool
}

// list is the closure's paths, a new slice.
func (c *closureMemo) list() []string {
	out := make([]string, 0, c.n)
	for ; c.sole != nil; c = c.sole {
		out = append(out, c.path)
	}
	return append(out, c.paths...)
}

// cycles reports whether path is in c, the closure of path's sole
// include (an include cycle). A sole include's path is never in it: a
// memo of path would have its own closure after it, the include's again,
// and no memo holds a path twice. So only the walked paths are looked at
// (looking along the sole includes too made a chain quadratic).
func (c *closureMemo) cycles(path string) bool {
	if c.sole != nil {
		c = c.walked
	}
	return slices.Contains(c.paths, path)
}

// closureOf is path's closure (path absolute), memoized; depth counts
// the sole includes followed to get here (see closure).
func (w *Workspace) closureOf(path string, depth int) *closureMemo {
	w.mu.Lock()
	limit := w.maxUnit
	if w.closures == nil {
		w.closures = &closureTable{}
	}
	t := w.closures
	w.mu.Unlock()
	t.mu.Lock()
	c := t.m[path]
	t.mu.Unlock()
	if c != nil {
		return c
	}
	c = w.closure(path, limit, depth)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closures != t {
		// Dropped meanwhile (an edit): a fork may still read t.
		return c
	}
	t.mu.Lock()
	if t.m == nil || t.paths+len(c.paths) > maxClosurePaths {
		t.m, t.paths = map[string]*closureMemo{}, 0
	}
	t.m[path] = c
	t.paths += len(c.paths) + 1
	t.mu.Unlock()
	return c
}

// maxClosurePaths bounds the paths the Closure memo holds (16 bytes each):
// a run over a whole tree asks for every file's closure several times
// (its own check, its readers, its units).
const maxClosurePaths = 1 << 21

// maxSoleDepth bounds the sole includes closure follows through the memo
// (a goroutine's stack per level); past it a closure is walked.
const maxSoleDepth = 10000

// dropClosures forgets the memoized closures (w.mu held).
func (w *Workspace) dropClosures() {
	w.closures = nil
	w.drops++
}

// Generation changes whenever a closure, a stub link or a parse held may
// have changed (a file's text, the include graph, the limits, a parse
// released here or in a fork): what was made of this workspace's parses
// and closures at one generation holds while it stays the same.
func (w *Workspace) Generation() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.drops + w.releases.Load() + w.abi.stubsEpoch
}

// closureHook, when set (tests), hears each file a closure walk visits.
var closureHook func(path string)

func (w *Workspace) closure(path string, limit int64, depth int) *closureMemo {
	if limit <= 0 {
		limit = fsys.DefaultMaxUnitBytes
	}
	if incs := w.includes(path); len(incs) == 1 && depth < maxSoleDepth {
		// A file with one include: its closure is that file's, after it
		// (breadth first, the same order). Walked afresh for each header,
		// a chain of headers each including the next was quadratic.
		var own int64
		if e, err := w.entry(path); err == nil {
			own = int64(len(e.src))
		}
		if sub := w.closureOf(incs[0], depth+1); sub.whole && own+sub.bytes <= limit && !sub.cycles(path) {
			if closureHook != nil {
				closureHook(path)
			}
			walked := sub
			if sub.sole != nil {
				walked = sub.walked
			}
			return &closureMemo{path: path, sole: sub, walked: walked, n: sub.n + 1, bytes: own + sub.bytes, whole: true}
		}
	}
	seen := map[string]bool{path: true}
	out := []string{path}
	var total int64
	for i := 0; i < len(out); i++ {
		if closureHook != nil {
			closureHook(out[i])
		}
		if e, err := w.entry(out[i]); err == nil {
			total += int64(len(e.src))
		}
		if total > limit {
			for _, p := range out[max(i, 1):] {
				w.AddProblem(p, fmt.Errorf("not analysed with %s: its includes exceed %s in total", path, fsys.Bytes(limit)))
			}
			out = out[:max(i, 1)]
			return &closureMemo{paths: out, n: len(out), bytes: total}
		}
		for _, inc := range w.includes(out[i]) {
			if !seen[inc] {
				seen[inc] = true
				out = append(out, inc)
			}
		}
	}
	return &closureMemo{paths: out, n: len(out), bytes: total, whole: true}
}

// Index walks the roots once to learn every C++ file, so a header can find
// the entries that include it.
func (w *Workspace) Index() { w.index(1) }

// maxIndexFolders bounds the folders the index of one root lists: past
// it, the rest of the root is read only as files are opened or included.
var maxIndexFolders = 50000

// maxIndexFiles bounds the C++ and Python files the index of one root
// holds (every one is read to find the include units; the largest real
// trees hold a few thousand).
var maxIndexFiles = 20000

// NotIndexedError says why a root was not walked (in full): its files are
// read as they are opened or included.
type NotIndexedError struct {
	Root, Reason string
}

func (e *NotIndexedError) Error() string {
	return "workspace folder not indexed (" + e.Reason + "); its files are analysed as they are opened or included, and workspace-wide results cover only those"
}

// TooBroad says why a workspace folder must not be walked: the root of
// the file system, a home folder or a folder above one (a client opened
// on ~ or / would index the whole disk). "" for an ordinary folder.
func TooBroad(root string) string {
	cands := []string{filepath.Clean(root)}
	if r, err := filepath.EvalSymlinks(root); err == nil && r != cands[0] {
		cands = append(cands, r)
	}
	var homes []string
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		homes = append(homes, filepath.Clean(h))
		if r, err := filepath.EvalSymlinks(h); err == nil {
			homes = append(homes, r)
		}
	}
	for _, c := range cands {
		if c == filepath.Dir(c) {
			return "it is the root of the file system"
		}
		for _, h := range homes {
			if c == h {
				return "it is the home folder " + h
			}
			if strings.HasPrefix(h, c+string(filepath.Separator)) {
				return "it holds the home folder " + h
			}
		}
	}
	return ""
}

// index is Index listing folders with jobs goroutines.
func (w *Workspace) index(jobs int) {
	w.mu.Lock()
	if w.indexed {
		w.mu.Unlock()
		return
	}
	roots := append([]string(nil), w.roots...)
	bounded := w.bounded
	w.mu.Unlock()
	run, walk := w.idx.run(roots, bounded)
	if walk {
		run.found, run.foundPy, run.build, run.whole = w.walkRoots(roots, bounded, jobs)
		close(run.done)
	} else {
		// A fork asking while its parent walks (or after): one walk.
		<-run.done
	}
	found, foundPy := run.found, run.foundPy
	w.mu.Lock()
	w.walked = run
	fresh := false
	for p := range found {
		fresh = fresh || !w.known[p]
		w.known[p] = true
	}
	for p := range foundPy {
		fresh = fresh || !w.abi.py[p]
		w.abi.markPy(p)
	}
	if fresh {
		// A root added after the first index brings entries and stubs the
		// cached include units and stub index do not know.
		w.dropUnits()
		w.dropStubs()
	}
	// A root added or removed during the walk is not indexed yet.
	w.indexed = slices.Equal(roots, w.roots)
	w.mu.Unlock()
}

// walkRoots lists the C++ and Python files under roots, and the build
// files; whole says no root was refused or cut short.
func (w *Workspace) walkRoots(roots []string, bounded bool, jobs int) (found, foundPy map[string]bool, build []string, whole bool) {
	maxFolders, maxFiles := int64(math.MaxInt64), math.MaxInt
	if bounded {
		maxFolders, maxFiles = int64(maxIndexFolders), maxIndexFiles
	}
	found, foundPy, whole = map[string]bool{}, map[string]bool{}, true
	for _, r := range roots {
		if why := TooBroad(r); bounded && why != "" {
			w.AddProblem(r, &NotIndexedError{Root: r, Reason: why})
			whole = false
			continue
		}
		var listed atomic.Int64
		tree := ListTree(r, jobs, func(_ string, d fs.DirEntry) bool {
			return !SkipDir(d.Name()) && listed.Add(1) <= maxFolders
		})
		if listed.Load() > maxFolders {
			w.AddProblem(r, &NotIndexedError{Root: r, Reason: fmt.Sprintf("it holds more than %d folders: only some were indexed", maxIndexFolders)})
			whole = false
		}
		files := 0
		tree.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				// An unreadable folder: reported, the rest is indexed.
				w.AddProblem(p, err)
				return nil
			}
			if d.IsDir() {
				if p != r && (SkipDir(d.Name()) || !tree.Listed(p)) {
					return filepath.SkipDir
				}
				return nil
			}
			l, ok := grammar.LangOf(p)
			if ok && files >= maxFiles {
				w.AddProblem(r, &NotIndexedError{Root: r, Reason: fmt.Sprintf("it holds more than %d C++ and Python files: only the first were indexed", maxIndexFiles)})
				whole = false
				return filepath.SkipAll
			}
			if IsBuildFile(d.Name()) {
				build = append(build, p)
			}
			if ok && l == grammar.CPP {
				found[p] = true
			} else if ok && l == grammar.Python {
				foundPy[p] = true
			}
			if ok {
				files++
			}
			return nil
		})
	}
	return found, foundPy, build, whole
}

// Fork returns a workspace with the same roots, settings and file contents
// (overlays included) whose later changes stay its own: the server makes
// one per edit (its snapshots), the fix engine applies fixes to one. The
// fork shares the parent's entries, and so their parses, a parse under
// way included (awaited, not repeated), and what is derived from them
// (include resolutions, closures, include units, the stub index, the
// index walk) until either changes what those derive from.
func (w *Workspace) Fork() *Workspace {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := &Workspace{
		roots:           append([]string(nil), w.roots...),
		files:           maps.Clone(w.files),
		includeDirs:     append([]string(nil), w.includeDirs...),
		noBuildIncludes: w.noBuildIncludes,
		noDir:           w.noDir,
		known:           maps.Clone(w.known),
		indexed:         w.indexed,
		parsers:         w.parsers,
		parseCache:      w.parseCache,
		releases:        w.releases,
		units:           w.units,
		macroEntry:      w.macroEntry,
		resolved:        w.resolved,
		unitsEpoch:      w.unitsEpoch,
		closures:        w.closures,
		abi:             abiState{py: maps.Clone(w.abi.py), stubs: w.abi.stubs, stubsEpoch: w.abi.stubsEpoch},
		maxFile:         w.maxFile,
		maxUnit:         w.maxUnit,
		launchDirs:      w.launchDirs,
		build:           w.build,
		buildDirs:       w.buildDirs,
		suffixes:        w.suffixes,
		counts:          w.counts,
		hostLaunch:      w.hostLaunch,
		splits:          w.splits,
		problems:        w.problems,
		uses:            w.uses,
		idx:             w.idx,
		bounded:         w.bounded,
		walked:          w.walked,
		macros:          w.macros,
	}
	if f.files == nil {
		f.files = map[string]*fileEntry{}
	}
	if f.known == nil {
		f.known = map[string]bool{}
	}
	return f
}

// Seed records files the caller already found by walking every root with
// SkipDir, so Index need not walk them again.
func (w *Workspace) Seed(files, build []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	found := make(map[string]bool, len(files))
	for _, p := range files {
		found[Abs(p)] = true
		w.markKnown(Abs(p))
	}
	w.indexed = true
	w.walked = &indexRun{found: found, build: build, whole: true}
	w.macros = nil
	w.dropUnits()
}

// SkipDir reports folders never searched: VCS data, build outputs,
// dependencies and caches.
func SkipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "build", "build_output", "out", "dist", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", "third_party", "vendor", ".cache":
		return true
	}
	return len(name) > 1 && name[0] == '.'
}

// KnownFiles returns every C++ file the workspace knows, sorted.
func (w *Workspace) KnownFiles() []string {
	w.Index()
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.known))
}

// Context returns the extern context of a C++ file.
func (w *Workspace) Context(path string) *Context {
	path = Abs(path)
	c := &Context{Path: path, KindSource: "heuristic"}
	s := w.scanOf(path)
	if s == nil {
		return c
	}
	c.Entry = s.entry || w.isMacroEntry(path)
	c.Units = w.unitsOf(path)
	if !c.Entry && len(c.Units) == 0 && s.argsFn {
		c.Units = []string{path}
	}
	c.Extern = len(c.Units) > 0
	c.Kind, c.KindSource = w.kindOf(path, c.Units)
	return c
}

// unitsOf returns the entries whose compile includes path (path itself
// when it is an entry).
func (w *Workspace) unitsOf(path string) []string {
	w.Index()
	w.mu.Lock()
	units := w.units
	w.mu.Unlock()
	if units == nil {
		// One build at a time: a second asker (the server's index beside
		// an open's analysis) waits for the first's and reads it.
		w.unitsBuild.Lock()
		w.mu.Lock()
		units = w.units
		w.mu.Unlock()
		if units == nil {
			units = w.buildUnits(1)
		}
		w.unitsBuild.Unlock()
	}
	if _, known := units[path]; !known {
		if s := w.scanOf(path); s != nil && (s.entry || s.argsFn) {
			// An entry outside the roots, or a file whose args functions no
			// entry includes: it is its own unit.
			return []string{path}
		}
	}
	return append([]string(nil), units[path]...)
}

// buildUnits builds, with jobs goroutines, the map of each file to the
// entries whose closure holds it, and keeps it unless the include graph
// changed meanwhile.
func (w *Workspace) buildUnits(jobs int) map[string][]string {
	w.mu.Lock()
	epoch := w.unitsEpoch
	w.mu.Unlock()
	known := w.KnownFiles()
	closures := make(map[string][]string, len(known))
	var mu sync.Mutex
	macro := w.macroEntries(known)
	Parallel(jobs, known, func(p string) []string {
		if s := w.scanOf(p); s != nil && (s.entry || macro[p]) {
			c := w.Closure(p)
			mu.Lock()
			closures[p] = c
			mu.Unlock()
		}
		return nil
	})
	units := map[string][]string{}
	// In path order: a file's entries are listed sorted.
	for _, p := range known {
		for _, inc := range closures[p] {
			units[inc] = append(units[inc], p)
		}
	}
	w.mu.Lock()
	if w.unitsEpoch == epoch {
		// Not when roots or includes changed meanwhile: rebuild next time.
		w.units, w.macroEntry = units, macro
	}
	w.mu.Unlock()
	return units
}

// UnitKind returns the kind of the extern whose entry is the given file.
func (w *Workspace) UnitKind(entry string) (Kind, string) {
	entry = Abs(entry)
	if k, ok := w.stubKind(entry); ok {
		return k, "stub"
	}
	if k, ok := w.configKind(entry); ok {
		return k, "config"
	}
	return w.closureKind(entry), "heuristic"
}

// closureKind is what the scans of entry's closure say its kind is,
// memoized with the closures: every header of a unit asks for its
// entry's (a chain of a thousand headers walked the whole chain for each).
func (w *Workspace) closureKind(entry string) Kind {
	w.mu.Lock()
	if w.closures == nil {
		w.closures = &closureTable{}
	}
	t := w.closures
	w.mu.Unlock()
	t.mu.Lock()
	k, ok := t.kinds[entry]
	t.mu.Unlock()
	if ok {
		return k
	}
	var cube, vec, mixed bool
	for _, p := range w.Closure(entry) {
		if s := w.scanOf(p); s != nil {
			cube = cube || s.cube
			vec = vec || s.vec
			mixed = mixed || s.mixedSig
		}
	}
	switch {
	case mixed || cube && vec:
		k = KindMixed
	case cube:
		k = KindAIC
	default:
		k = KindAIV
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closures == t {
		t.mu.Lock()
		if t.kinds == nil {
			t.kinds = map[string]Kind{}
		}
		t.kinds[entry] = k
		t.mu.Unlock()
	}
	return k
}

// kindOf is the most demanding kind among a file's units: a header compiled
// into one mixed extern is analysed as mixed.
func (w *Workspace) kindOf(path string, units []string) (Kind, string) {
	if len(units) == 0 {
		return w.UnitKind(path)
	}
	best, src := KindAIV, "heuristic"
	for i, u := range units {
		k, s := w.UnitKind(u)
		if i == 0 || k == KindMixed || k == KindAIC && best == KindAIV {
			best, src = k, s
		}
	}
	return best, src
}
