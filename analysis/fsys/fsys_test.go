package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv("FSYS_HELPER") != "" {
		helper()
		return
	}
	os.Exit(m.Run())
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRefusesIrregularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "k.cpp")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "link.h")
	os.Symlink(fifo, link)
	zero := filepath.Join(dir, "zero.h")
	os.Symlink("/dev/zero", zero)
	for _, p := range []string{fifo, link, zero, dir} {
		done := make(chan error, 1)
		go func() { _, _, err := ReadFile(p, 0); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: err %v, want ErrNotRegular", p, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: ReadFile blocked", p)
		}
	}
}

func TestReadFileLimitsAndEncodings(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.cpp")
	write(t, big, strings.Repeat("x", 2048))
	if _, _, err := ReadFile(big, 1024); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2 KB is over the max-file-size limit of 1 KB") {
		t.Errorf("big: %v", err)
	}
	if data, _, err := ReadFile(big, 4096); err != nil || len(data) != 2048 {
		t.Errorf("big under a higher cap: %d bytes, %v", len(data), err)
	}
	bom := filepath.Join(dir, "bom.cpp")
	write(t, bom, "\xff\xfei\x00n\x00t\x00")
	noBOM := filepath.Join(dir, "nobom.py")
	write(t, noBOM, "i\x00m\x00p\x00o\x00r\x00t\x00 \x00o\x00s\x00\n\x00")
	for _, p := range []string{bom, noBOM} {
		if _, _, err := ReadFile(p, 0); !errors.Is(err, ErrUTF16) {
			t.Errorf("%s: %v, want ErrUTF16", p, err)
		}
	}
	bin := filepath.Join(dir, "bin.cpp")
	write(t, bin, "\x7fELF\x02\x01\x01\x00\x00\x00int main;\x00\xff")
	if _, _, err := ReadFile(bin, 0); err != nil {
		t.Errorf("a binary file is the parser's to refuse, not UTF-16: %v", err)
	}
	gone := filepath.Join(dir, "gone.cpp")
	os.Symlink(filepath.Join(dir, "nowhere.cpp"), gone)
	if _, _, err := ReadFile(gone, 0); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "broken symlink to "+filepath.Join(dir, "nowhere.cpp")) {
		t.Errorf("dangling symlink: %v", err)
	}
	if l, c := InvalidUTF8([]byte("ok\nGr\xf6\xdfe")); l != 2 || c != 3 {
		t.Errorf("InvalidUTF8 = %d:%d, want 2:3", l, c)
	}
	if l, _ := InvalidUTF8([]byte("Größe")); l != 0 {
		t.Error("valid UTF-8 reported invalid")
	}
}

func TestReplaceComparesBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "k.cpp")
	write(t, p, "old\n")
	_, stamp, err := ReadFile(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := &Writer{Roots: []string{dir}}
	// Another program writes the file after it was read; same size, and
	// the clock may even give it the same mtime: the hash still tells.
	write(t, p, "new\n")
	os.Chtimes(p, time.Unix(0, stamp.ModTime), time.Unix(0, stamp.ModTime))
	if err := w.Replace(p, &stamp, []byte("fixed\n")); !errors.Is(err, ErrChanged) {
		t.Fatalf("err %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Fatalf("the other program's write was lost: %q", b)
	}
	_, stamp, _ = ReadFile(p, 0)
	if err := w.Replace(p, &stamp, []byte("fixed\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "fixed\n" {
		t.Fatalf("got %q", b)
	}
	os.Remove(p)
	if err := w.Replace(p, &stamp, []byte("again\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("deleted file: %v", err)
	}
}

func TestInside(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	write(t, filepath.Join(out, "x.cpp"), "x")
	os.Symlink(filepath.Join(out, "x.cpp"), filepath.Join(root, "link.cpp"))
	os.Symlink(out, filepath.Join(root, "outdir"))
	os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "subdir"))
	for p, want := range map[string]bool{
		filepath.Join(root, "sub", "a.cpp"):    true,
		filepath.Join(root, "subdir", "a.cpp"): true, // a symlink that stays inside
		filepath.Join(root, "new.json"):        true,
		filepath.Join(root, "link.cpp"):        false,
		filepath.Join(root, "outdir", "y.cpp"): false,
		filepath.Join(out, "x.cpp"):            false,
		filepath.Join(root, "..", "z.cpp"):     false,
		root + "-sibling/a.cpp":                false,
	} {
		if got := Inside([]string{root}, p); got != want {
			t.Errorf("Inside(%s) = %v, want %v", p, got, want)
		}
	}
	if Inside(nil, filepath.Join(root, "a.cpp")) {
		t.Error("no roots: nothing is inside")
	}
}

func TestReplaceRefusals(t *testing.T) {
	dir := t.TempDir()
	w := &Writer{Roots: []string{dir}}
	ro := filepath.Join(dir, "ro.cpp")
	write(t, ro, "x")
	os.Chmod(ro, 0o444)
	if err := w.Replace(ro, nil, []byte("y")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("0444: %v", err)
	}
	fifo := filepath.Join(dir, "f.json")
	if syscall.Mkfifo(fifo, 0o644) == nil {
		if err := w.Replace(fifo, nil, []byte("y")); !errors.Is(err, ErrNotRegular) {
			t.Errorf("FIFO: %v", err)
		}
	}
	if err := w.Replace(filepath.Join(t.TempDir(), "x.json"), nil, []byte("y")); !errors.Is(err, ErrOutside) {
		t.Errorf("outside: %v", err)
	}
	created := filepath.Join(dir, "new.json")
	if err := w.Replace(created, nil, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(created); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v", st.Mode())
	}
}

// The text the workspace keeps is held in a buffer of its own size, and a
// file that grew since its Stat is still read to its end.
func TestReadSized(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.cpp")
	text := strings.Repeat("x", 100000)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _, err := ReadFile(path, 0)
	if err != nil || string(data) != text {
		t.Fatalf("ReadFile = %d bytes, %v", len(data), err)
	}
	if cap(data) > len(text)+1 {
		t.Errorf("cap %d for %d bytes", cap(data), len(text))
	}
	grown, err := readSized(strings.NewReader(text), 10)
	if err != nil || string(grown) != text {
		t.Errorf("readSized of a grown file = %d bytes, %v", len(grown), err)
	}
}
