package fsys

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Errors a RefusedError wraps, for errors.Is.
var (
	ErrOutside  = errors.New("outside the workspace")
	ErrChanged  = errors.New("changed since it was read")
	ErrReadOnly = errors.New("read-only")
)

// RefusedError is a write that was not done, and why.
type RefusedError struct {
	Path   string
	Reason string
	Err    error
}

func (e *RefusedError) Error() string { return e.Reason }
func (e *RefusedError) Unwrap() error { return e.Err }

func refuse(path string, err error, format string, args ...any) error {
	return &RefusedError{Path: path, Err: err, Reason: fmt.Sprintf(format, args...)}
}

// Inside reports whether path, and the file it resolves to through any
// symlinks, both lie within one of roots (resolved the same way). A path
// that does not exist yet is judged by its folder.
func Inside(roots []string, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	real, err := resolve(abs)
	if err != nil {
		return false
	}
	lexical, resolved := false, false
	for _, r := range roots {
		ra, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		lexical = lexical || within(ra, abs)
		if rr, err := filepath.EvalSymlinks(ra); err == nil {
			resolved = resolved || within(rr, real)
		}
	}
	return lexical && resolved
}

// resolve is EvalSymlinks for a path whose last element may not exist.
func resolve(abs string) (string, error) {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	} else if _, lerr := os.Lstat(abs); lerr == nil {
		// A dangling symlink (or a loop): where it points is unknowable.
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

func within(root, p string) bool {
	if p == root {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// Writer is the one way extern-lsp replaces a user's file. Roots bound where
// it may write; a write anywhere else is refused.
type Writer struct {
	Roots []string
}

// Replace writes data to path, which a read with stamp `read` returned.
// Before replacing, it checks the file is still what was read (size,
// modification time and content); if not, nothing is written and the
// error says so. A nil stamp skips that check (a file the run did not
// read, such as a baseline). Path must be inside the roots, also after
// following symlinks; it must be a regular file with a write bit. The new
// content goes to a temporary file in the same folder, which takes the
// file's mode (with setuid, setgid and sticky bits) and, where permitted,
// its owner, and is renamed over it, so a crash never leaves half a file.
// A file with several hard links is instead rewritten in place, so every
// link keeps seeing it. A file that does not exist is created (mode 0644).
// Writes that land in the replaced file after the rename (from a program
// that opened it before) are not lost: see lateWrites.
func (w *Writer) Replace(path string, read *Stamp, data []byte) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if !Inside(w.Roots, abs) {
		return refuse(abs, ErrOutside, "outside the workspace (%s), or a symlink leading out of it", strings.Join(w.Roots, ", "))
	}
	real, err := resolve(abs)
	if err != nil {
		return err
	}
	st, err := os.Lstat(real)
	if errors.Is(err, fs.ErrNotExist) {
		if read != nil {
			return refuse(abs, ErrChanged, "deleted since it was read")
		}
		return writeNew(real, data, 0o644, nil)
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return refuse(abs, ErrNotRegular, "not a regular file (%s)", Describe(st.Mode()))
	}
	if st.Mode().Perm()&0o222 == 0 {
		return refuse(abs, ErrReadOnly, "read-only (mode %04o)", st.Mode().Perm())
	}
	if err := unchanged(real, read); err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		return writeInPlace(real, read, data)
	}
	return writeNew(real, data, st.Mode(), st)
}

// unchanged checks that path still holds what a read stamped.
func unchanged(path string, read *Stamp) error {
	if read == nil {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return refuse(path, ErrChanged, "deleted since it was read")
		}
		return err
	}
	if !st.Mode().IsRegular() {
		return refuse(path, ErrNotRegular, "replaced by %s since it was read", Describe(st.Mode()))
	}
	if st.Size() != read.Size || st.ModTime().UnixNano() != read.ModTime {
		return refuse(path, ErrChanged, "changed on disk since it was read (another program wrote it)")
	}
	cur, _, err := ReadFile(path, st.Size()+1)
	if errors.Is(err, ErrTooLarge) {
		// It grew between the stat and the read.
		return refuse(path, ErrChanged, "changed on disk since it was read (another program wrote it)")
	}
	if err != nil {
		return err
	}
	if sha256.Sum256(cur) != read.Hash {
		return refuse(path, ErrChanged, "changed on disk since it was read (another program wrote it)")
	}
	return nil
}

// testHookBeforeRename, when set by a test, runs between writing the
// temporary file and renaming it over the target; testHookAfterRename
// right after the rename.
var testHookBeforeRename, testHookAfterRename func(tmp string)

// lateWriteGrace is how long a replaced file is watched after the rename
// for writes from programs that opened it before: an open-write-close
// writer finishes well within it, even on a loaded machine.
var lateWriteGrace = 10 * time.Millisecond

func writeNew(path string, data []byte, mode fs.FileMode, old fs.FileInfo) error {
	name, ours, err := writeTemp(path, data, mode, old)
	if err != nil {
		return err
	}
	defer temps.remove(name)
	if testHookBeforeRename != nil {
		testHookBeforeRename(name)
	}
	var held *os.File
	if old != nil {
		// The last moment to notice a writer that raced the work above;
		// the file stays open so writes that land after the rename are
		// seen too (see lateWrites).
		if held, err = holdUnchanged(path, old); err != nil {
			os.Remove(name)
			return err
		}
		defer held.Close()
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	syncDir(filepath.Dir(path))
	if testHookAfterRename != nil {
		testHookAfterRename(name)
	}
	if held != nil {
		return lateWrites(path, held, old, ours, data)
	}
	return nil
}

// writeTemp writes data to a new temporary file beside path, with the
// mode (and, where permitted, the owner) of old, synced; ours is what
// the temporary file is, to recognise it after the rename.
func writeTemp(path string, data []byte, mode fs.FileMode, old fs.FileInfo) (name string, ours fs.FileInfo, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".extern-lsp-*")
	if err != nil {
		return "", nil, err
	}
	name = tmp.Name()
	temps.add(name)
	werr := func() error {
		if _, err := tmp.Write(data); err != nil {
			return err
		}
		if old != nil {
			if sys, ok := old.Sys().(*syscall.Stat_t); ok {
				// Owner first: chown clears setuid/setgid, which the
				// chmod below restores. Not being allowed to give the
				// file away (not root) leaves it ours, as an editor would.
				_ = tmp.Chown(int(sys.Uid), int(sys.Gid))
			}
		}
		if err := tmp.Chmod(mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return err
		}
		if err := tmp.Sync(); err != nil {
			return err
		}
		ours, err = tmp.Stat()
		return err
	}()
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(name)
		temps.remove(name)
		return "", nil, werr
	}
	return name, ours, nil
}

// holdUnchanged opens path and checks that it is still old (the same
// file, size and modification time).
func holdUnchanged(path string, old fs.FileInfo) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refuse(path, ErrChanged, "deleted while it was being written")
		}
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !os.SameFile(st, old) || st.Size() != old.Size() || !st.ModTime().Equal(old.ModTime()) {
		f.Close()
		return nil, refuse(path, ErrChanged, "changed on disk while it was being written")
	}
	return f, nil
}

// lateWrites looks, after the rename, for writes into the replaced file
// from programs that opened it before: nobody would ever see them. If
// there are any, the replaced file's content (with those writes) is put
// back in place of ours, and the write is refused as a change seen before
// the rename would be; if even our file was replaced meanwhile, that
// content is saved beside it, so that no writer's bytes are lost.
func lateWrites(path string, held *os.File, old, ours fs.FileInfo, data []byte) error {
	time.Sleep(lateWriteGrace)
	st, err := held.Stat()
	if err == nil && st.Size() == old.Size() && st.ModTime().Equal(old.ModTime()) {
		return nil
	}
	if err != nil {
		return err
	}
	theirs := make([]byte, st.Size())
	n, err := held.ReadAt(theirs, 0)
	if err != nil && n < len(theirs) {
		return fmt.Errorf("%s changed on disk while it was being written, and reading what the other program wrote failed: %v", path, err)
	}
	name, _, err := writeTemp(path, theirs[:n], old.Mode(), old)
	if err != nil {
		return err
	}
	defer temps.remove(name)
	if cur, err := os.Stat(path); err == nil && os.SameFile(cur, ours) && Equal(path, data) {
		if err := os.Rename(name, path); err == nil {
			syncDir(filepath.Dir(path))
			return refuse(path, ErrChanged, "changed on disk while it was being written (another program wrote it); left as that program wrote it")
		}
	}
	saved, err := keepAs(name, path+".extern-lsp-saved")
	if err != nil {
		return fmt.Errorf("%s changed on disk while it was being written, and saving what the other program wrote failed: %v", path, err)
	}
	return refuse(path, ErrChanged, "changed on disk twice while it was being written; what the other program wrote to the replaced copy is saved as %s", saved)
}

// keepAs gives the temporary file name a name of its own, want or want
// with a number, never replacing a file that exists.
func keepAs(name, want string) (string, error) {
	for i := 0; ; i++ {
		to := want
		if i > 0 {
			to = fmt.Sprintf("%s.%d", want, i)
		}
		err := os.Link(name, to)
		if err == nil {
			os.Remove(name)
			return to, nil
		}
		if !errors.Is(err, fs.ErrExist) || i == 99 {
			os.Remove(name)
			return "", err
		}
	}
}

// writeInPlace rewrites a hard-linked file through its own inode, checking
// once more, with the file open, that it is what was read.
func writeInPlace(path string, read *Stamp, data []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return refuse(path, ErrNotRegular, "not a regular file (%s)", Describe(st.Mode()))
	}
	if read != nil {
		cur := make([]byte, st.Size()+1)
		n, _ := f.ReadAt(cur, 0)
		if int64(n) != read.Size || sha256.Sum256(cur[:n]) != read.Hash {
			return refuse(path, ErrChanged, "changed on disk since it was read (another program wrote it)")
		}
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	return f.Sync()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Equal reports whether path already holds data (nothing to write).
func Equal(path string, data []byte) bool {
	cur, _, err := ReadFile(path, int64(len(data))+1)
	return err == nil && bytes.Equal(cur, data)
}

// temps are the temporary files being written, removed on SIGINT/SIGTERM.
var temps = &tempSet{m: map[string]bool{}}

type tempSet struct {
	mu   sync.Mutex
	m    map[string]bool
	once sync.Once
}

func (t *tempSet) add(name string) {
	t.once.Do(t.watch)
	t.mu.Lock()
	t.m[name] = true
	t.mu.Unlock()
}

func (t *tempSet) remove(name string) {
	t.mu.Lock()
	delete(t.m, name)
	t.mu.Unlock()
}

// watch removes the temporary files when the process is interrupted, then
// dies of the same signal.
func (t *tempSet) watch() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-ch
		// Held to the end: a write that starts now blocks in add.
		t.mu.Lock()
		for name := range t.m {
			os.Remove(name)
		}
		signal.Reset(syscall.SIGINT, syscall.SIGTERM)
		if s, ok := sig.(syscall.Signal); ok {
			syscall.Kill(os.Getpid(), s)
			time.Sleep(time.Second) // delivery is asynchronous
		}
		os.Exit(130)
	}()
}
