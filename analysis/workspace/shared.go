package workspace

import (
	"fmt"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Forks share what is derived lazily: the server forks its workspace on
// every edit (a snapshot per edit), and a fork that recomputed each
// file's parse, every include resolution and the index would make each
// keystroke cost a cold start. What a fork shares with its parent stays
// valid for both until one of them changes something it derives from;
// that change replaces the changed one's copy (a drop assigns nil), never
// the other's.

// entryCell is what is derived from one entry's text, shared by every
// workspace holding the entry: a parse under way in one fork is awaited,
// not repeated, by the others.
type entryCell struct {
	mu      sync.Mutex
	file    *grammar.File
	err     error
	parsing chan struct{} // closed when the parse under way finishes
	scan    *scan
	// host is the text read as a host file (hostRead).
	host *hostSrc
	// hash is the SHA-256 of the entry's text, computed when first asked
	// (fileEntry.contentHash).
	hash   [32]byte
	hashed bool
	// used is the use count (shared by forks) when File last returned the
	// parse: TrimParses releases the least recently used first.
	used uint64
	// parse, when set, parses the overlay's text (the server's
	// incremental reparse); nil means a batch parse.
	parse func() (*grammar.File, error)
}

// memo is a map shared by forks while neither has dropped it.
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (s *memo[K, V]) get(k K) (V, bool) {
	if s == nil {
		var zero V
		return zero, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

// put records k; with limit > 0 a full memo starts over.
func (s *memo[K, V]) put(k K, v V, limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || limit > 0 && len(s.m) >= limit {
		s.m = map[K]V{}
	}
	s.m[k] = v
}

// memoOf returns *p, made when nil (the workspace's mu held).
func memoOf[K comparable, V any](p **memo[K, V]) *memo[K, V] {
	if *p == nil {
		*p = &memo[K, V]{}
	}
	return *p
}

// indexRun is one walk of a set of roots, shared by the forks asking for
// the index of the same roots while it is under way or after.
type indexRun struct {
	done    chan struct{}
	found   map[string]bool
	foundPy map[string]bool
	// build are the build files found (isBuildFile); whole: no root was
	// cut short (MacroDefinedNowhere needs the whole build).
	build []string
	whole bool
	// words are the build files' words (buildWords).
	wordsOnce sync.Once
	words     map[string]bool
	// unread are the build definitions whose names are not plain text
	// (unreadDefinition), file:line, read with words.
	unread []string
	// libs are the sources `ascendc_library` calls of the build files
	// name, by absolute path (kernelLibraries).
	libsOnce sync.Once
	libs     map[string][]BuildSetting
}

// indexRuns are the walks of a workspace and its forks, by roots.
type indexRuns struct {
	mu   sync.Mutex
	runs map[string]*indexRun
}

// run returns the walk of roots, and whether the caller is to make it.
func (r *indexRuns) run(roots []string, bounded bool) (*indexRun, bool) {
	key := fmt.Sprint(bounded, roots)
	r.mu.Lock()
	defer r.mu.Unlock()
	if run := r.runs[key]; run != nil {
		return run, false
	}
	if r.runs == nil {
		r.runs = map[string]*indexRun{}
	}
	run := &indexRun{done: make(chan struct{})}
	r.runs[key] = run
	return run, true
}
