package fsys

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func refuse(path string, err error, format string, args ...any) error {
	return &Error{Path: path, Err: err, Reason: fmt.Sprintf(format, args...)}
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
	lexical := false
	for _, r := range roots {
		if ra, err := filepath.Abs(r); err == nil && within(ra, abs) {
			lexical = true
		}
	}
	return lexical && resolvedRoot(roots, real) != ""
}

// resolvedRoot is the root (symlinks resolved) holding real, the deepest
// when they nest; "" for none.
func resolvedRoot(roots []string, real string) string {
	best := ""
	for _, r := range roots {
		ra, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if rr, err := filepath.EvalSymlinks(ra); err == nil && within(rr, real) && len(rr) > len(best) {
			best = rr
		}
	}
	return best
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
// it may write; a write anywhere else is refused. One Writer serves a run:
// it remembers the files it replaced, so a second name for one of them
// (a symlink given as well) is not taken for another program's write.
type Writer struct {
	Roots []string

	mu      sync.Mutex
	wrote   map[fileID][sha256.Size]byte // file replaced → hash of its new text
	cleaned map[fileID]bool              // folders rid of stale temporary files
}

type fileID struct{ dev, ino uint64 }

func idOf(st *unix.Stat_t) fileID { return fileID{uint64(st.Dev), st.Ino} }

// testHook, when a test sets it, runs at each step of a write: "resolved"
// (the path is judged inside), "write" (writing the new text: an error it
// returns is that write's error, a full disk), "written" (the temporary
// file is complete), "writers" (another process has the file open for
// writing: waiting for it to close), "rename" (the last look passed) and
// "renamed".
var testHook func(step string) error

func step(name string) error {
	if testHook != nil {
		return testHook(name)
	}
	return nil
}

// Replace writes data to path, which a read with stamp `read` returned
// (nil: a file the run did not read, such as a baseline). Nothing is ever
// rewritten in place, and every step is relative to a folder opened below
// the workspace root, so:
//
//   - path must be inside the roots, also after following symlinks, and
//     the folders down to it are opened without following symlinks: one
//     swapped for a symlink meanwhile fails the write instead of
//     redirecting it;
//   - it must be a regular file with a write bit and one link (a
//     hard-linked file is refused: replacing it would split the names,
//     rewriting it in place could tear it);
//   - the new text goes to a temporary file beside it, with its mode,
//     owner (where permitted) and extended attributes, synced; just
//     before the rename the name must still lead to the same file with
//     the content read; the rename exchanges the two names, so the file
//     it displaced can be checked afterwards: if another program had
//     saved in between (an editor's temp+rename), its file is put back
//     and the write refused;
//   - writes that land in the replaced file after the rename (from a
//     program that opened it before) are not lost: see settle.
//
// A file that does not exist is created (mode 0644), never replacing one
// that appears meanwhile. A SIGINT or SIGTERM waits for a write under way.
func (w *Writer) Replace(path string, read *Stamp, data []byte) error {
	watchOnce.Do(watchSignals)
	writing.RLock()
	defer writing.RUnlock()
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
	root := resolvedRoot(w.Roots, real)
	if err := step("resolved"); err != nil {
		return err
	}
	dir, err := openBelow(root, filepath.Dir(real))
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return refuse(abs, ErrOutside, "a folder on its path was replaced by a symlink or a file while it was being written")
	}
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	w.removeStale(dir)
	return w.replaceAt(dir, abs, filepath.Base(real), read, data)
}

// openBelow opens folder dir, which lies in root (both symlink-free when
// resolved), one component at a time without following symlinks.
func openBelow(root, dir string) (int, error) {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return -1, fmt.Errorf("%s is not below %s", dir, root)
	}
	fd, err := unix.Open(root, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: root, Err: err}
	}
	if rel == "." {
		return fd, nil
	}
	for _, name := range strings.Split(rel, "/") {
		next, err := unix.Openat(fd, name, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: dir, Err: err}
		}
		fd = next
	}
	return fd, nil
}

func (w *Writer) replaceAt(dir int, abs, base string, read *Stamp, data []byte) error {
	fd, err := unix.Openat(dir, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ENOENT):
		if read != nil {
			return refuse(abs, ErrChanged, "deleted since it was read")
		}
		return create(dir, abs, base, data)
	case errors.Is(err, unix.ELOOP):
		return refuse(abs, ErrChanged, "replaced by a symlink since it was read")
	case err != nil:
		return &os.PathError{Op: "open", Path: abs, Err: err}
	}
	held := os.NewFile(uintptr(fd), abs)
	defer held.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	fi, err := held.Stat()
	if err != nil {
		return err
	}
	mode := fi.Mode()
	if !mode.IsRegular() {
		return refuse(abs, ErrNotRegular, "not a regular file (%s)", Describe(mode))
	}
	if mode.Perm()&0o222 == 0 {
		return refuse(abs, ErrReadOnly, "read-only (mode %04o)", mode.Perm())
	}
	if done, err := w.writtenBefore(idOf(&st), held, data); done || err != nil {
		return err
	}
	if st.Nlink > 1 {
		return refuse(abs, ErrHardLinked, "has %d hard links: replacing it would leave the other names on the old text, and rewriting it in place could tear it (break the link, or apply the fix with --diff)", st.Nlink)
	}
	if err := sameContent(held, read); err != nil {
		return err
	}
	tmp, ours, err := writeTemp(dir, base, data, mode, fd, &st)
	if err != nil {
		return fmt.Errorf("writing the new text failed, the file is unchanged: %v", err)
	}
	defer unix.Unlinkat(dir, tmp, 0)
	if err := step("written"); err != nil {
		return err
	}
	// No other process may hold the file open for writing over the
	// rename: what it wrote after would land in the displaced file.
	leased, err := awaitWriters(fd, abs)
	if err != nil {
		return err
	}
	if leased {
		defer dropLease(fd) // before the displaced file is removed, after any put back
	}
	// The last look: the name still leads to the file read, unchanged.
	var cur unix.Stat_t
	if err := unix.Fstatat(dir, base, &cur, unix.AT_SYMLINK_NOFOLLOW); err != nil || idOf(&cur) != idOf(&st) {
		return refuse(abs, ErrChanged, "replaced on disk while it was being written (another program saved it)")
	}
	if leased && leaseBroken(fd) {
		return refuse(abs, ErrChanged, "opened for writing by another program while the fix was being written")
	}
	if err := sameContent(held, read); err != nil {
		return err
	}
	if err := step("rename"); err != nil {
		return err
	}
	if err := swap(dir, tmp, base); err != nil {
		return fmt.Errorf("replacing it failed, the file is unchanged: %v", err)
	}
	unix.Fsync(dir)
	if err := step("renamed"); err != nil {
		return err
	}
	// tmp now names the file displaced by the rename.
	if err := settle(dir, abs, base, tmp, idOf(&st), ours, held, &st, leased); err != nil {
		return err
	}
	w.mu.Lock()
	if w.wrote == nil {
		w.wrote = map[fileID][sha256.Size]byte{}
	}
	w.wrote[ours] = sha256.Sum256(data)
	w.mu.Unlock()
	return nil
}

// writtenBefore reports whether this writer already replaced the file
// (under another name) with data; a different text is refused.
func (w *Writer) writtenBefore(id fileID, f *os.File, data []byte) (bool, error) {
	w.mu.Lock()
	h, ok := w.wrote[id]
	w.mu.Unlock()
	if !ok {
		return false, nil
	}
	cur, err := readAll(f)
	if err != nil {
		return true, err
	}
	if sha256.Sum256(cur) != h {
		return true, refuse(f.Name(), ErrChanged, "changed on disk since it was written under another name in this run")
	}
	if h != sha256.Sum256(data) {
		return true, refuse(f.Name(), ErrChanged, "the same file as another name written in this run, with other fixes; not written again")
	}
	return true, nil
}

// sameContent checks that the open file still holds what read stamped.
func sameContent(f *os.File, read *Stamp) error {
	if read == nil {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != read.Size || st.ModTime().UnixNano() != read.ModTime {
		return refuse(f.Name(), ErrChanged, "changed on disk since it was read (another program wrote it)")
	}
	cur, err := readAll(f)
	if err != nil {
		return err
	}
	if sha256.Sum256(cur) != read.Hash {
		return refuse(f.Name(), ErrChanged, "changed on disk since it was read (another program wrote it)")
	}
	return nil
}

// readAll reads the open file; one that grows while being read comes
// back one byte longer than its size, which no stamp matches.
func readAll(f *os.File) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, st.Size()+1)
	n, err := f.ReadAt(buf, 0)
	if err != nil && n < int(st.Size()) {
		return nil, err
	}
	return buf[:n], nil
}

// settle runs after the rename, with displaced naming the file the rename
// displaced and held the file read. If displaced is not that file, another
// program saved between the last look and the rename; if a program opened
// the held file for writing since the lease (leased), or, with no lease,
// the held file changed after the rename, a program that had it open may
// write or wrote to it; if our file is gone, another program replaced it
// right after. In each case the other program's text is what stays
// (displaced goes back in place, before the lease lets a waiting opener
// on), and the write is refused.
func settle(dir int, abs, base, displaced string, read, ours fileID, held *os.File, st *unix.Stat_t, leased bool) error {
	var d unix.Stat_t
	if err := unix.Fstatat(dir, displaced, &d, unix.AT_SYMLINK_NOFOLLOW); err == nil && idOf(&d) != read {
		return putBack(dir, abs, base, displaced, ours, "saved by another program just as the fix was written")
	}
	late := "written by another program that had it open, just as the fix was written"
	var now unix.Stat_t
	if leased {
		if leaseBroken(int(held.Fd())) {
			return putBack(dir, abs, base, displaced, ours, late)
		}
	} else {
		time.Sleep(lateWriteGrace)
		if err := unix.Fstat(int(held.Fd()), &now); err == nil && (now.Size != st.Size || now.Mtim != st.Mtim) {
			return putBack(dir, abs, base, displaced, ours, late)
		}
	}
	if err := unix.Fstatat(dir, base, &now, unix.AT_SYMLINK_NOFOLLOW); err != nil || idOf(&now) != ours {
		return refuse(abs, ErrChanged, "replaced by another program just after the fix was written; left as that program wrote it, the fix is not applied")
	}
	return nil
}

// lateWriteGrace is how long a replaced file is watched after the rename,
// where no lease can be taken (another system, a network file system, a
// file of another owner), for writes from programs that opened it before:
// an open-write-close writer usually finishes within it. A lease makes
// that certain instead (awaitWriters).
var lateWriteGrace = 10 * time.Millisecond

// awaitWriters takes a read lease on the file read (fd), waiting while
// another process has it open for writing (an open-write-close writer
// closes soon; a lease is not granted before). leased is false where no
// lease can be taken: settle then watches the displaced file instead.
func awaitWriters(fd int, abs string) (leased bool, err error) {
	if !useLeases {
		return false, nil
	}
	for i := 0; ; i++ {
		err := readLease(fd)
		switch {
		case err == nil:
			return true, nil
		case !errors.Is(err, unix.EAGAIN):
			return false, nil
		case i == writerWaits:
			return false, refuse(abs, ErrChanged, "held open for writing by another program; the fix is not applied")
		}
		if err := step("writers"); err != nil {
			return false, err
		}
		time.Sleep(time.Millisecond)
	}
}

// writerWaits bounds awaitWriters: about two seconds of tries.
// useLeases is false in tests of the path without leases.
var (
	writerWaits = 2000
	useLeases   = true
)

// putBack puts the file named theirs back at base, where ours is, and
// returns the refusal saying so. If base no longer holds ours (a third
// program replaced it too), theirs is kept beside it instead.
func putBack(dir int, abs, base, theirs string, ours fileID, what string) error {
	var cur unix.Stat_t
	if unix.Fstatat(dir, base, &cur, unix.AT_SYMLINK_NOFOLLOW) == nil && idOf(&cur) == ours && swap(dir, theirs, base) == nil {
		unix.Fsync(dir)
		// theirs now names what was at base: ours, unless a third
		// program replaced it in between, whose file is then kept.
		if unix.Fstatat(dir, theirs, &cur, unix.AT_SYMLINK_NOFOLLOW) != nil || idOf(&cur) == ours {
			return refuse(abs, ErrChanged, "%s; left as that program wrote it, the fix is not applied", what)
		}
	}
	saved, err := keepAs(dir, theirs, base+".extern-lsp-saved")
	if err != nil {
		return fmt.Errorf("%s: %s, and keeping that program's text failed (%v); it is in %s", abs, what, err, filepath.Join(filepath.Dir(abs), theirs))
	}
	return refuse(abs, ErrChanged, "%s, and replaced again meanwhile; the fix is not applied, the other program's text is saved as %s", what, filepath.Join(filepath.Dir(abs), saved))
}

// swap exchanges the names a and b in dir, so that a then names what b
// did. Where the file system cannot exchange (NFS), b's file is given a
// second name a first and a renamed over b: a save landing between the
// two is then not seen.
func swap(dir int, a, b string) error {
	err := exchange(dir, a, b)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.ENOTSUP) {
		return err
	}
	spare := a + ".old"
	if err := unix.Linkat(dir, b, dir, spare, 0); err != nil {
		return err
	}
	if err := unix.Renameat(dir, a, dir, b); err != nil {
		unix.Unlinkat(dir, spare, 0)
		return err
	}
	return unix.Renameat(dir, spare, dir, a)
}

// create gives data the new name base, never replacing a file another
// program created meanwhile.
func create(dir int, abs, base string, data []byte) error {
	tmp, _, err := writeTemp(dir, base, data, 0o644, -1, nil)
	if err != nil {
		return fmt.Errorf("writing it failed, nothing was created: %v", err)
	}
	defer unix.Unlinkat(dir, tmp, 0)
	if err := step("rename"); err != nil {
		return err
	}
	if err := unix.Linkat(dir, tmp, dir, base, 0); err != nil {
		if errors.Is(err, unix.EEXIST) {
			return refuse(abs, ErrChanged, "created by another program while it was being written")
		}
		return err
	}
	unix.Fsync(dir)
	return nil
}

// tempMark is in the name of every temporary file, with the writer's pid:
// the temporary files of a process that was killed are recognised, and
// removed by the next write in their folder.
const tempMark = ".extern-lsp-"

// writeTemp writes data to a new temporary file in dir, with mode and,
// when old (an open file, with its stat) is given, its owner (where
// permitted) and extended attributes; synced. ours identifies it.
func writeTemp(dir int, base string, data []byte, mode fs.FileMode, old int, oldSt *unix.Stat_t) (name string, ours fileID, err error) {
	if len(base) > 100 {
		base = base[:100]
	}
	var r [6]byte
	rand.Read(r[:])
	name = fmt.Sprintf(".%s%s%d-%x.tmp", base, tempMark, os.Getpid(), r)
	fd, err := unix.Openat(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return "", ours, err
	}
	f := os.NewFile(uintptr(fd), name)
	err = func() error {
		if err := step("write"); err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			return err
		}
		if oldSt != nil {
			// Owner first: chown clears setuid/setgid (and
			// security.capability), which come back below. Not being
			// allowed to give the file away (not root) leaves it ours,
			// as an editor would.
			_ = f.Chown(int(oldSt.Uid), int(oldSt.Gid))
			if err := copyXattrs(old, fd); err != nil {
				return err
			}
		}
		if err := f.Chmod(mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		ours = idOf(&st)
		return nil
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		unix.Unlinkat(dir, name, 0)
		return "", ours, err
	}
	return name, ours, nil
}

// copyXattrs gives file to the extended attributes of file from (ACLs,
// SELinux labels, user attributes). One that cannot be set, and that the
// new file does not already have, fails the write: the file would lose it.
func copyXattrs(from, to int) error {
	names, err := xattr(func(b []byte) (int, error) { return unix.Flistxattr(from, b) })
	if errors.Is(err, unix.ENOTSUP) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, name := range strings.Split(string(names), "\x00") {
		if name == "" {
			continue
		}
		val, err := xattr(func(b []byte) (int, error) { return unix.Fgetxattr(from, name, b) })
		if err != nil {
			return err
		}
		if err := unix.Fsetxattr(to, name, val, 0); err != nil {
			if has, _ := xattr(func(b []byte) (int, error) { return unix.Fgetxattr(to, name, b) }); !bytes.Equal(has, val) {
				return fmt.Errorf("cannot keep its extended attribute %s: %v", name, err)
			}
		}
	}
	return nil
}

// xattr calls get with a buffer of the size it asks for.
func xattr(get func([]byte) (int, error)) ([]byte, error) {
	n, err := get(nil)
	if err != nil || n == 0 {
		return nil, err
	}
	buf := make([]byte, n)
	n, err = get(buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// removeStale removes the temporary files a killed extern-lsp left in dir:
// ours by name and owner, of a process that no longer exists. Each folder
// is listed once per Writer.
func (w *Writer) removeStale(dir int) {
	var st unix.Stat_t
	if unix.Fstat(dir, &st) != nil {
		return
	}
	w.mu.Lock()
	done := w.cleaned[idOf(&st)]
	if w.cleaned == nil {
		w.cleaned = map[fileID]bool{}
	}
	w.cleaned[idOf(&st)] = true
	w.mu.Unlock()
	if done {
		return
	}
	d, err := unix.Dup(dir)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(d), ".")
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, name := range names {
		i := strings.LastIndex(name, tempMark)
		if !strings.HasPrefix(name, ".") || i < 0 || !strings.HasSuffix(name, ".tmp") && !strings.HasSuffix(name, ".tmp.old") {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(name[i+len(tempMark):], "-", 2)[0])
		if err != nil || pid <= 0 || unix.Kill(pid, 0) != unix.ESRCH {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Uid == uint32(os.Geteuid()) && st.Mode&unix.S_IFMT == unix.S_IFREG {
			unix.Unlinkat(dir, name, 0)
		}
	}
}

// keepAs gives the file name in dir a name of its own, want or want with a
// number, never replacing a file that exists.
func keepAs(dir int, name, want string) (string, error) {
	for i := 0; ; i++ {
		to := want
		if i > 0 {
			to = fmt.Sprintf("%s.%d", want, i)
		}
		err := unix.Linkat(dir, name, dir, to, 0)
		if err == nil {
			unix.Unlinkat(dir, name, 0)
			return to, nil
		}
		if !errors.Is(err, unix.EEXIST) || i == 99 {
			return "", err
		}
	}
}

// Equal reports whether path already holds data (nothing to write).
func Equal(path string, data []byte) bool {
	cur, _, err := ReadFile(path, int64(len(data))+1)
	return err == nil && bytes.Equal(cur, data)
}

// writing is held (shared) by every write under way; the signal handler
// takes it exclusively, so SIGINT or SIGTERM lets a write finish (or
// refuse) and removes its temporary file before the process dies, and no
// write starts after.
var (
	writing   sync.RWMutex
	watchOnce sync.Once
	// testHookSignal, when a test sets it, runs when the signal arrives.
	testHookSignal func()
)

// watchSignals makes SIGINT and SIGTERM wait for the write under way, then
// kill the process with the same signal.
func watchSignals() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-ch
		if testHookSignal != nil {
			testHookSignal()
		}
		writing.Lock() // held to the end
		signal.Reset(syscall.SIGINT, syscall.SIGTERM)
		if s, ok := sig.(syscall.Signal); ok {
			syscall.Kill(os.Getpid(), s)
			time.Sleep(time.Second) // delivery is asynchronous
		}
		os.Exit(130)
	}()
}
