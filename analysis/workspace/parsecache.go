package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// ParseCache keeps in a folder the trees of the files a workspace parses
// from disk, keyed by their text, so a server started again on the same
// files reads their trees back instead of parsing them (gopls keeps a
// file cache the same way). A first open is mostly parsing: the 45
// headers of a realistic unit take two cores ~130 ms to parse and ~10 ms
// to read back. Open documents' texts are parsed as before (their next
// edit reparses from the C tree). A tree depends on the program that
// parsed it: each build has a folder of its own.
type ParseCache struct {
	root, dir    string
	read, parsed atomic.Int64

	// With writes deferred (DeferWrites), a tree parsed is queued rather
	// than written: a first open's 50 file creations and writes are no
	// part of its first diagnostics (with the folder emptied before, the
	// filesystem's inode search made them a tenth of the open's CPU).
	mu       sync.Mutex
	deferred bool
	queue    []queuedTree
	queued   int64 // source bytes of the trees queued
	writing  bool  // a Drain goroutine is under way
}

// queuedTree is a tree waiting to be written under its key.
type queuedTree struct {
	at string
	f  *grammar.File
}

// maxQueuedBytes bounds the source bytes of the trees a deferring cache
// holds for writing (a tree is 3-4 times its text): past it a tree is
// written at once, as the queue would keep trees the workspace released.
const maxQueuedBytes = 16 << 20

// Counts says how many trees the cache gave and how many were parsed.
func (c *ParseCache) Counts() (read, parsed int64) { return c.read.Load(), c.parsed.Load() }

// NewParseCache returns the cache under root, which it creates.
func NewParseCache(root string) *ParseCache {
	os.MkdirAll(root, 0o755)
	return &ParseCache{root: root, dir: filepath.Join(root, buildKey())}
}

// SetParseCache makes w and its forks read and keep the trees of the
// files they parse from disk in c (nil: none).
func (w *Workspace) SetParseCache(c *ParseCache) {
	w.mu.Lock()
	w.parseCache = c
	w.mu.Unlock()
}

// parse is grammar.ParseFile of a disk file's text with a batch parser,
// its tree read from the cache when the cache holds it, and kept there
// when it did not.
func (c *ParseCache) parse(p *grammar.Parser, path string, src []byte) (*grammar.File, error) {
	if c == nil {
		return grammar.ParseFile(context.Background(), p, path, src, nil)
	}
	lang, _ := grammar.LangOf(path)
	h := sha256.New()
	h.Write([]byte{byte(lang)})
	h.Write(src)
	key := hex.EncodeToString(h.Sum(nil))
	at := filepath.Join(c.dir, key[:2], key[2:])
	if f, ok := c.queuedAs(at, path, src); ok {
		c.read.Add(1)
		return f, nil
	}
	if data, err := os.ReadFile(at); err == nil {
		if f, ok := grammar.FileFromStored(path, src, data); ok {
			// Its time says when it was last used (Prune drops the oldest).
			now := time.Now()
			os.Chtimes(at, now, now)
			c.read.Add(1)
			return f, nil
		}
	}
	f, err := grammar.ParseFile(context.Background(), p, path, src, nil)
	c.parsed.Add(1)
	if err == nil && !c.enqueue(at, f) {
		c.store(at, f)
	}
	return f, err
}

// DeferWrites makes c queue the trees it is to keep until Drain or Flush
// writes them.
func (c *ParseCache) DeferWrites() {
	c.mu.Lock()
	c.deferred = true
	c.mu.Unlock()
}

// enqueue queues f's tree for writing at at, unless writes are not
// deferred or the queue is full.
func (c *ParseCache) enqueue(at string, f *grammar.File) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.deferred || c.queued+int64(len(f.Src)) > maxQueuedBytes {
		return false
	}
	c.queue = append(c.queue, queuedTree{at, f})
	c.queued += int64(len(f.Src))
	return true
}

// queuedAs is the tree queued under at (a file of the same text parsed
// before, not written yet) as path's, as a read from the cache gives it.
func (c *ParseCache) queuedAs(at, path string, src []byte) (*grammar.File, bool) {
	c.mu.Lock()
	var q *grammar.File
	for _, e := range c.queue {
		if e.at == at {
			q = e.f
			break
		}
	}
	c.mu.Unlock()
	if q == nil {
		return nil, false
	}
	return grammar.FileFromStored(path, src, bytes.Join(grammar.Stored(q), nil))
}

// next takes the oldest queued tree (ok false: none).
func (c *ParseCache) next() (q queuedTree, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return q, false
	}
	q = c.queue[0]
	c.queue[0] = queuedTree{}
	c.queue = c.queue[1:]
	c.queued -= int64(len(q.f.Src))
	return q, true
}

// Queued reports whether trees wait to be written.
func (c *ParseCache) Queued() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue) > 0 && !c.writing
}

// Drain writes the queued trees one at a time, each once wait returns
// nil (the caller's wait for no work more urgent), and returns at the
// first error of wait (Flush writes what is left) or when none is left.
// It returns at once when another Drain is under way.
func (c *ParseCache) Drain(wait func() error) {
	c.mu.Lock()
	if c.writing {
		c.mu.Unlock()
		return
	}
	c.writing = true
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.writing = false
		c.mu.Unlock()
	}()
	for wait() == nil {
		q, ok := c.next()
		if !ok {
			return
		}
		c.store(q.at, q.f)
	}
}

// Flush writes every queued tree now.
func (c *ParseCache) Flush() {
	for {
		q, ok := c.next()
		if !ok {
			return
		}
		c.store(q.at, q.f)
	}
}

// store writes a tree under its key: a whole file or none (a rename), as
// another server may read it at once. A cache that cannot be written is
// no cache, and one whose folder was removed stays removed.
func (c *ParseCache) store(at string, f *grammar.File) {
	os.Mkdir(c.dir, 0o755)
	if err := os.Mkdir(filepath.Dir(at), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(at), ".tmp-*")
	if err != nil {
		return
	}
	for _, piece := range grammar.Stored(f) {
		if err == nil {
			_, err = tmp.Write(piece)
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), at)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// Prune removes the least recently used trees (other builds' first, as
// none reads them) until the cache holds at most half of max bytes, when
// it holds more than max.
func (c *ParseCache) Prune(max int64) {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var all []entry
	var total int64
	filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			all = append(all, entry{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	if total <= max {
		return
	}
	ours := func(e entry) bool { return strings.HasPrefix(e.path, c.dir+string(filepath.Separator)) }
	slices.SortFunc(all, func(a, b entry) int {
		if ours(a) != ours(b) {
			if ours(b) {
				return -1
			}
			return 1
		}
		return a.used.Compare(b.used)
	})
	for _, e := range all {
		if total <= max/2 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// buildKey names this build of the program: its trees are read by it
// alone (another build may flatten trees otherwise).
var buildKey = sync.OnceValue(func() string {
	h := sha256.New()
	h.Write([]byte(runtime.GOARCH))
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			h.Write([]byte(exe + st.ModTime().String()))
			h.Write([]byte{byte(st.Size()), byte(st.Size() >> 8), byte(st.Size() >> 16), byte(st.Size() >> 24)})
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		h.Write([]byte(bi.String()))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})
