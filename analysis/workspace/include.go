package workspace

// Which file an #include names is the workspace's to say: ResolveInclude
// (Resolve says which search found it), and which quoted includes name a
// toolkit header, never a file of the project (IsSDKHeader).

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// sdkHeaders are the quoted includes that name the toolkit (CANN AscendC,
// pto-isa, the runtime's own headers): never in the workspace, and their
// functions are the known device API rather than project code.
var sdkHeaders = []string{"kernel_operator.h", "kernel_tiling/", "lib/", "pto/", "acl/", "aclnn", "tikcfw/", "graph/", "register/", "tiling/", "securec.h", "kernel_macros.h", "kernel_event.h"}

// runtimeHeaders are the pypto runtime's kernel headers: `tensor.h` (the
// Tensor descriptor) and `intrinsic.h` (the `get_block_idx(args)` family).
// A kernel tree built against the runtime names them without holding
// them; they declare the ABI's accessors and call none of the kernel's
// code. Unlike a toolkit header they are looked for in the workspace
// first: the names are common, and the runtime's own tree holds them.
var runtimeHeaders = []string{"tensor.h", "intrinsic.h"}

// IsRuntimeHeader reports whether a quoted include names one of the pypto
// runtime's kernel headers (meaningful only in runtime-ABI code).
func IsRuntimeHeader(path string) bool { return slices.Contains(runtimeHeaders, path) }

// IsSDKHeader reports whether a quoted include names a toolkit header.
func IsSDKHeader(path string) bool {
	for _, h := range sdkHeaders {
		if strings.HasSuffix(h, "/") && strings.HasPrefix(path, h) || path == h {
			return true
		}
	}
	return false
}

// IncludeSource says which search found the file an #include names.
type IncludeSource uint8

const (
	Unresolved IncludeSource = iota
	// FromFolder: the including file's folder (a quoted include).
	FromFolder
	// FromConfig: -I, include-dirs or a stub's include_dirs.
	FromConfig
	// FromBuild: a folder a build file names (BuildIncludeDirs).
	FromBuild
	// FromSuffix: the one file under the roots whose path ends with the
	// include's (or the nearest of several, see suffixPick).
	FromSuffix
)

// IncludeSources lists the sources in search order.
var IncludeSources = []IncludeSource{FromFolder, FromConfig, FromBuild, FromSuffix}

func (s IncludeSource) String() string {
	return [...]string{"unresolved", "folder", "config", "build", "suffix"}[s]
}

// Resolution is the file an #include names and how it was found.
type Resolution struct {
	Path   string
	Source IncludeSource
	// By is the build file that named the folder (FromBuild).
	By string
	// Candidates counts the files under the roots whose path ends with
	// the include's, for FromSuffix and an unresolved quoted include (more
	// than one and none nearest: ambiguous).
	Candidates int
}

// Ambiguous: the include names no file the searches found, and several
// files of the workspace end with its path, none nearest the includer.
func (r Resolution) Ambiguous() bool { return r.Source == Unresolved && r.Candidates > 1 }

// ResolveInclude returns the workspace path an #include refers to (""
// for none: CANN, the C++ library); Resolve says how.
func (w *Workspace) ResolveInclude(from string, inc grammar.Include) string {
	return w.Resolve(from, inc).Path
}

// Resolve finds the file an #include names as a compile does: the
// including file's folder first (not for `<...>`), then the include
// folders (-I, include-dirs, stubs' include_dirs), then the folders the
// build files over the including folder name; a quoted include still not
// found (and no toolkit header) is the one file under the roots whose
// path ends with it, if there is one.
func (w *Workspace) Resolve(from string, inc grammar.Include) Resolution {
	// The folder as written (up to the last '/'), not cleaned as
	// filepath.Dir would: the closures ask this for every include of
	// every file, and equal prefixes are equal folders.
	key := [2]string{from[:strings.LastIndexByte(from, '/')+1], inc.Path}
	if inc.System {
		key[0] += "<"
	}
	w.mu.Lock()
	res := memoOf(&w.resolved)
	w.mu.Unlock()
	if r, ok := res.get(key); ok {
		return r
	}
	r := w.resolve(from, inc)
	w.mu.Lock()
	if w.resolved == res {
		// Not dropped meanwhile (a fork may still read res).
		res.put(key, r, 0)
	}
	w.mu.Unlock()
	return r
}

func (w *Workspace) resolve(from string, inc grammar.Include) Resolution {
	// The stub index first, as any resolution did: built later, its
	// index walk would drop the closures made meanwhile.
	stub := w.stubIncludeDirs()
	if c := filepath.Join(filepath.Dir(from), inc.Path); !inc.System && w.hasFile(c, false) {
		return Resolution{Path: c, Source: FromFolder}
	}
	for _, d := range w.liveDirs(stub) {
		if c := filepath.Join(d, inc.Path); w.hasFile(c, true) {
			return Resolution{Path: c, Source: FromConfig}
		}
	}
	w.mu.Lock()
	off := w.noBuildIncludes
	w.mu.Unlock()
	if off {
		return Resolution{}
	}
	dirs, _ := w.BuildIncludeDirs(filepath.Dir(from))
	for _, d := range dirs {
		if c := filepath.Join(d.Dir, inc.Path); w.hasFile(c, true) {
			return Resolution{Path: c, Source: FromBuild, By: d.File}
		}
	}
	if inc.System || IsSDKHeader(inc.Path) {
		return Resolution{}
	}
	cands := w.suffixIndex().lookup(inc.Path, from)
	r := Resolution{Candidates: len(cands)}
	if p := suffixPick(cands, from); p != "" {
		r.Path, r.Source = p, FromSuffix
	}
	return r
}

// suffixPick is the candidate to take: the only one, or of several the
// one whose folder shares the longest run of folders with the includer's
// (the copy in the includer's own project), when no other shares as
// many; else "" (ambiguous: never guessed).
func suffixPick(cands []string, from string) string {
	if len(cands) == 1 {
		return cands[0]
	}
	best, n, tie := "", -1, false
	for _, c := range cands {
		k := commonFolders(c, from)
		if k > n {
			best, n, tie = c, k, false
		} else if k == n {
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// commonFolders counts the leading folders a and b share.
func commonFolders(a, b string) int {
	n := 0
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}

// suffixIndex is the C++ files under the roots (not in skipped folders),
// by file name.
type suffixIndex struct {
	byName map[string][]string
}

// suffixIndex returns the index, built once per set of resolutions from
// the files the index walk found (and editor buffers): files read later
// through an include are not in it, so what it says depends on the tree,
// not on the order files were read.
func (w *Workspace) suffixIndex() *suffixIndex {
	w.mu.Lock()
	ix := w.suffixes
	w.mu.Unlock()
	if ix != nil {
		return ix
	}
	w.Index()
	w.mu.Lock()
	defer w.mu.Unlock()
	ix = &suffixIndex{byName: map[string][]string{}}
	var paths []string
	if w.walked != nil {
		for p := range w.walked.found {
			paths = append(paths, p)
		}
	}
	for p, e := range w.files {
		if e.overlay && (w.walked == nil || !w.walked.found[p]) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		if l, ok := grammar.LangOf(p); ok && l == grammar.CPP && w.underRoot(p) {
			b := filepath.Base(p)
			ix.byName[b] = append(ix.byName[b], p)
		}
	}
	w.suffixes = ix
	return ix
}

// underRoot: p is under a root, in no folder the index skips (w.mu held).
func (w *Workspace) underRoot(p string) bool {
	for _, r := range w.roots {
		if under(p, r) {
			for _, part := range strings.Split(p[len(r):], string(os.PathSeparator)) {
				if part != "" && SkipDir(part) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// lookup lists the files whose path ends with /inc (the includer from
// left out: a header does not include itself).
func (ix *suffixIndex) lookup(inc, from string) []string {
	inc = filepath.ToSlash(filepath.Clean(inc))
	if strings.HasPrefix(inc, "../") || strings.HasPrefix(inc, "/") || inc == "." {
		return nil
	}
	var out []string
	for _, p := range ix.byName[filepath.Base(inc)] {
		if p != from && strings.HasSuffix(p, "/"+inc) {
			out = append(out, p)
		}
	}
	return out
}
