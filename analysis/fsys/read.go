// Package fsys is extern-lsp's only door to the file system for source
// files: reads that open nothing but regular files, within a size cap, and
// the one write path (compare-before-write, atomic replace, workspace
// boundaries) that `check --fix`, `--write-baseline` and the language server
// use. Nothing else in the module reads a source or writes a user's file.
package fsys

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"unicode/utf8"
)

// DefaultMaxFileSize is the largest source read when the configuration sets
// no max-file-size: far above any hand-written kernel, far below what the
// analysis can hold in memory.
const DefaultMaxFileSize = 4 << 20

// DefaultMaxUnitBytes caps the bytes one unit (an entry and every header
// its compile reaches) reads in total.
const DefaultMaxUnitBytes = 32 << 20

// The reasons a file is not read (the first three) or not written, for
// errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
	ErrUTF16      = errors.New("UTF-16 encoded")
	ErrOutside    = errors.New("outside the workspace")
	ErrChanged    = errors.New("changed since it was read")
	ErrReadOnly   = errors.New("read-only")
	ErrHardLinked = errors.New("hard-linked")
)

// Error is a file deliberately not read or not written: the path and why,
// worded for the user, wrapping one of the reasons above.
type Error struct {
	Path   string
	Reason string
	Err    error
}

func (e *Error) Error() string { return e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// Stamp identifies the content a read saw, so a later write can tell
// whether the file changed since.
type Stamp struct {
	Size    int64
	ModTime int64 // nanoseconds
	Hash    [sha256.Size]byte
}

// StampOf is the stamp of data read from a file with the given info.
func StampOf(data []byte, st fs.FileInfo) Stamp {
	return Stamp{Size: st.Size(), ModTime: st.ModTime().UnixNano(), Hash: sha256.Sum256(data)}
}

// ReadFile reads a regular file of at most max bytes (max <= 0: the
// default). FIFOs, devices, sockets and symlinks to them are refused
// without being opened for reading in a way that could block; so are
// larger files (also when they grow while being read) and UTF-16 text.
func ReadFile(path string, max int64) ([]byte, Stamp, error) {
	data, st, err := ReadFileUnhashed(path, max)
	if err == nil {
		st.Hash = sha256.Sum256(data)
	}
	return data, st, err
}

// ReadFileUnhashed is ReadFile with the stamp's Hash left zero: for the
// workspace, which keeps the data and hashes it when a write or a cache
// asks (a check asks for none of the tree's files).
func ReadFileUnhashed(path string, max int64) ([]byte, Stamp, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, Stamp{}, Broken(path, err)
	}
	if err := checkRegular(path, st, max); err != nil {
		return nil, Stamp{}, err
	}
	// O_NONBLOCK: if a FIFO replaced the file since the Stat, opening it
	// must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, Stamp{}, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, Stamp{}, err
	}
	if err := checkRegular(path, st, max); err != nil {
		return nil, Stamp{}, err
	}
	data, err := readSized(io.LimitReader(f, max+1), st.Size())
	if err != nil {
		return nil, Stamp{}, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > max {
		return nil, Stamp{}, tooLarge(path, int64(len(data)), max)
	}
	if isUTF16(data) {
		return nil, Stamp{}, &Error{Path: path, Err: ErrUTF16,
			Reason: "UTF-16 encoded text; extern-lsp reads UTF-8 (convert it: iconv -f UTF-16 -t UTF-8)"}
	}
	return data, Stamp{Size: st.Size(), ModTime: st.ModTime().UnixNano()}, nil
}

// readSized reads r to its end into a buffer sized for size bytes (and the
// read that finds the end): the workspace keeps every text it reads, and
// io.ReadAll's doubling would leave up to half of each buffer unused.
func readSized(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			// The file grew since its Stat.
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Broken rewords a failed Stat of a dangling symlink as such ("broken
// symlink to X" rather than "no such file" for a file the user can see).
func Broken(path string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if target, lerr := os.Readlink(path); lerr == nil {
		return &os.PathError{Op: "stat", Path: path, Err: brokenLink(target)}
	}
	return err
}

type brokenLink string

func (b brokenLink) Error() string        { return "broken symlink to " + string(b) }
func (b brokenLink) Is(target error) bool { return target == fs.ErrNotExist }

func checkRegular(path string, st fs.FileInfo, max int64) error {
	if !st.Mode().IsRegular() {
		return &Error{Path: path, Err: ErrNotRegular, Reason: "not a regular file (" + Describe(st.Mode()) + "); not read"}
	}
	if st.Size() > max {
		return tooLarge(path, st.Size(), max)
	}
	return nil
}

func tooLarge(path string, size, max int64) error {
	return &Error{Path: path, Err: ErrTooLarge,
		Reason: fmt.Sprintf("%s is over the max-file-size limit of %s; not read", Bytes(size), Bytes(max))}
}

// Describe names a file type for messages.
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "an irregular file"
}

// Bytes formats a size for messages.
func Bytes(n int64) string {
	for _, u := range []struct {
		unit string
		size int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n >= u.size {
			if n%u.size == 0 || n >= 10*u.size {
				return fmt.Sprintf("%d %s", n/u.size, u.unit)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.unit)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// isUTF16 recognizes UTF-16 text: a byte-order mark, or (without one) NUL
// bytes in most odd or most even positions of the head, as ASCII encoded
// in UTF-16 has. Binary files with scattered NULs do not match.
func isUTF16(data []byte) bool {
	if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
		return true
	}
	head := data
	if len(head) > 4096 {
		head = head[:4096]
	}
	if len(head) < 8 || bytes.IndexByte(head, 0) < 0 {
		return false
	}
	var nul [2]int
	for i, b := range head {
		if b == 0 {
			nul[i&1]++
		}
	}
	half := len(head) / 2
	return nul[0] > half*9/10 && nul[1] == 0 || nul[1] > half*9/10 && nul[0] == 0
}

// InvalidUTF8 returns the 1-based line and byte column of the first byte
// that is not UTF-8, or 0, 0 when data is valid UTF-8.
func InvalidUTF8(data []byte) (line, col int) {
	if utf8.Valid(data) {
		return 0, 0
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				line, start = line+1, i+1
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return line, i - start + 1
		}
		i += n
	}
	return 0, 0
}
