package fsys

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Fault injection in the write path: testHook runs at each step of a
// write (see its comment), where a test breaks something, fails the step
// or stops the process.

// A fix that grows the file and one that shrinks it: writing a file in
// place tears the first on a full disk (the head of the new text over the
// old blocks, then no room for the rest) and the second when stopped
// before the truncate (the new text, then the old tail).
const (
	original = "void k() {\n  old();\n  older();\n}\n"
	fixed    = "void k() {\n  fixed();\n  more();\n  most();\n}\n"
	shorter  = "void k() {\n  fixed();\n}\n"
)

// scratch is a root folder with k.cpp holding original, and its stamp.
func scratch(t *testing.T) (root, path string, stamp *Stamp) {
	t.Helper()
	root = t.TempDir()
	path = filepath.Join(root, "k.cpp")
	write(t, path, original)
	_, st, err := ReadFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	return root, path, &st
}

func withHook(t *testing.T, h func(step string) error) {
	t.Helper()
	testHook = h
	t.Cleanup(func() { testHook = nil })
}

func wantFile(t *testing.T, path, want string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		t.Errorf("%s is %q (%v), want %q", path, b, err, want)
	}
}

func noTemps(t *testing.T, dir string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(dir, ".*"+tempMark+"*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A full disk while the new text is written leaves the file whole, and
// the error says so; a hard-linked file (which the old path rewrote in
// place, then truncated) is refused before anything is written.
func TestFullDiskLeavesTheFileWhole(t *testing.T) {
	for _, linked := range []bool{false, true} {
		root, path, stamp := scratch(t)
		other := filepath.Join(t.TempDir(), "other.cpp")
		if linked {
			if err := os.Link(path, other); err != nil {
				t.Skip(err)
			}
		}
		withHook(t, func(step string) error {
			if step == "write" {
				return unix.ENOSPC
			}
			return nil
		})
		err := (&Writer{Roots: []string{root}}).Replace(path, stamp, []byte(fixed))
		switch {
		case linked && (!errors.Is(err, ErrHardLinked) || !strings.Contains(err.Error(), "has 2 hard links")):
			t.Errorf("hard-linked: Replace = %v, want ErrHardLinked", err)
		case !linked && (err == nil || !strings.Contains(err.Error(), "the file is unchanged: no space left on device")):
			t.Errorf("Replace = %v", err)
		}
		wantFile(t, path, original)
		if linked {
			wantFile(t, other, original)
		}
		noTemps(t, root)
	}
}

// An editor saving by temp+rename at any moment of the write keeps its
// save: before the last look, between it and the rename (the exchange
// shows the displaced file is not the one read), and just after.
func TestEditorSaveIsNeverLost(t *testing.T) {
	for _, at := range []string{"written", "rename", "renamed"} {
		root, path, stamp := scratch(t)
		withHook(t, func(step string) error {
			if step == at {
				swp := filepath.Join(root, ".k.cpp.swp")
				write(t, swp, "// the user's save\n")
				if err := os.Rename(swp, path); err != nil {
					t.Fatal(err)
				}
			}
			return nil
		})
		err := (&Writer{Roots: []string{root}}).Replace(path, stamp, []byte(fixed))
		if !errors.Is(err, ErrChanged) {
			t.Errorf("save at %q: Replace = %v, want ErrChanged", at, err)
		}
		wantFile(t, path, "// the user's save\n")
		noTemps(t, root)
	}
}

// A writer that opened the file before the rename and writes after it
// writes into the replaced copy: its bytes come back, and the fix is
// reported as not written; if the file was replaced a third time
// meanwhile, that copy is saved beside it.
func TestLateWriteAfterRenameIsKept(t *testing.T) {
	useLeases = false // a lease would make the in-process open below wait for it
	t.Cleanup(func() { useLeases = true })
	for _, alsoReplaced := range []bool{false, true} {
		root, p, stamp := scratch(t)
		var writer *os.File
		withHook(t, func(step string) error {
			var err error
			switch step {
			case "rename":
				writer, err = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			case "renamed":
				writer.WriteString("// appended late\n")
				writer.Close()
				if alsoReplaced {
					write(t, p+".new", "third\n")
					err = os.Rename(p+".new", p)
				}
			}
			return err
		})
		err := (&Writer{Roots: []string{root}}).Replace(p, stamp, []byte(fixed))
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("alsoReplaced=%v: Replace = %v, want ErrChanged", alsoReplaced, err)
		}
		if !alsoReplaced {
			wantFile(t, p, original+"// appended late\n")
			continue
		}
		wantFile(t, p, "third\n")
		wantFile(t, p+".extern-lsp-saved", original+"// appended late\n")
		if !strings.Contains(err.Error(), ".extern-lsp-saved") {
			t.Errorf("the message does not name the saved copy: %v", err)
		}
		noTemps(t, root)
	}
}

// With a lease, a writer that had the file open is waited for (however
// slow: it writes and closes at the third look) and its bytes are seen
// before the rename; one that never closes makes the write refused.
func TestOpenWriterIsWaitedFor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("leases are Linux's")
	}
	defer func(n int) { writerWaits = n }(writerWaits)
	writerWaits = 5
	for _, closes := range []bool{true, false} {
		root, p, stamp := scratch(t)
		var writer *os.File
		looks := 0
		withHook(t, func(step string) error {
			var err error
			switch step {
			case "written":
				writer, err = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			case "writers":
				if looks++; looks == 3 && closes {
					writer.WriteString("// appended slowly\n")
					writer.Close()
				}
			case "rename":
				if !closes {
					t.Error("renamed while a writer held the file open")
				}
			}
			return err
		})
		err := (&Writer{Roots: []string{root}}).Replace(p, stamp, []byte(fixed))
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("closes=%v: Replace = %v, want ErrChanged", closes, err)
		}
		if closes {
			wantFile(t, p, original+"// appended slowly\n")
		} else {
			writer.Close()
			wantFile(t, p, original)
			if !strings.Contains(err.Error(), "held open for writing") {
				t.Errorf("the refusal does not say why: %v", err)
			}
		}
		noTemps(t, root)
	}
}

// With a lease, another process that starts opening the file for writing
// just before the rename (its open waits on the lease) writes into the
// file put back in place, or into the copy saved beside it when a third
// program replaced the file meanwhile: whatever its timing, nothing it
// writes is lost.
func TestOpenDuringRenameWritesThePutBackFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("leases are Linux's")
	}
	for _, alsoReplaced := range []bool{false, true} {
		root, p, stamp := scratch(t)
		writer := exec.Command("sh", "-c", `printf '// appended late\n' >> "$0"`, p)
		withHook(t, func(step string) error {
			switch step {
			case "rename":
				if err := writer.Start(); err != nil {
					return err
				}
				waitLeaseBreaking(t)
			case "renamed":
				if alsoReplaced {
					write(t, p+".new", "third\n")
					return os.Rename(p+".new", p)
				}
			}
			return nil
		})
		err := (&Writer{Roots: []string{root}}).Replace(p, stamp, []byte(fixed))
		if werr := writer.Wait(); werr != nil {
			t.Fatalf("the writer failed: %v", werr)
		}
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("alsoReplaced=%v: Replace = %v, want ErrChanged", alsoReplaced, err)
		}
		if !alsoReplaced {
			wantFile(t, p, original+"// appended late\n")
			continue
		}
		wantFile(t, p, "third\n")
		wantFile(t, p+".extern-lsp-saved", original+"// appended late\n")
		noTemps(t, root)
	}
}

// waitLeaseBreaking returns once the kernel lists a lease being broken
// (an open for writing waiting on ours).
func waitLeaseBreaking(t *testing.T) {
	t.Helper()
	for i := 0; i < 1000000; i++ {
		if b, _ := os.ReadFile("/proc/locks"); strings.Contains(string(b), "BREAKING") {
			return
		}
		runtime.Gosched()
	}
	t.Fatal("no lease break listed in /proc/locks")
}

// A folder swapped for a symlink leading out of the root, after the path
// was judged inside, cannot redirect the write: before the folders are
// opened the walk refuses the symlink; after, the write stays in the
// folder opened (moved aside, still inside).
func TestSwappedFolderCannotRedirectTheWrite(t *testing.T) {
	for _, at := range []string{"resolved", "rename"} {
		for _, create := range []bool{false, true} {
			root := t.TempDir()
			outside := t.TempDir()
			sub := filepath.Join(root, "sub")
			os.Mkdir(sub, 0o755)
			path := filepath.Join(sub, "k.cpp")
			var stamp *Stamp
			if !create {
				write(t, path, original)
				write(t, filepath.Join(outside, "k.cpp"), original)
				_, st, _ := ReadFile(path, 0)
				stamp = &st
			}
			withHook(t, func(step string) error {
				if step == at {
					os.Rename(sub, sub+".aside")
					os.Symlink(outside, sub)
				}
				return nil
			})
			err := (&Writer{Roots: []string{root}}).Replace(path, stamp, []byte(fixed))
			if at == "resolved" && !errors.Is(err, ErrOutside) {
				t.Errorf("swap at %s (create %v): Replace = %v, want ErrOutside", at, create, err)
			}
			names, _ := filepath.Glob(filepath.Join(outside, "*"))
			hidden, _ := filepath.Glob(filepath.Join(outside, ".*"))
			if want := 1; create {
				want = 0
				if len(names)+len(hidden) != want {
					t.Errorf("swap at %s (create): files outside the root: %v %v", at, names, hidden)
				}
			} else if len(names)+len(hidden) != want {
				t.Errorf("swap at %s: files outside the root: %v %v", at, names, hidden)
			} else {
				wantFile(t, filepath.Join(outside, "k.cpp"), original)
			}
			if at == "rename" && err == nil {
				wantFile(t, filepath.Join(sub+".aside", "k.cpp"), fixed)
			}
		}
	}
}

// Two names for one file (a symlink beside its target) given in one run
// are written once, not reported as another program's write.
func TestTwoNamesForOneFile(t *testing.T) {
	root, path, stamp := scratch(t)
	link := filepath.Join(root, "link.cpp")
	os.Symlink("k.cpp", link)
	w := &Writer{Roots: []string{root}}
	for _, p := range []string{path, link} {
		if err := w.Replace(p, stamp, []byte(fixed)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	wantFile(t, path, fixed)
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if err := w.Replace(link, stamp, []byte("other\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("other fixes under the second name: %v", err)
	}
}

func TestReplaceKeepsXattrsAndMode(t *testing.T) {
	root, path, stamp := scratch(t)
	if err := unix.Setxattr(path, "user.origin", []byte("kernel-team"), 0); err != nil {
		t.Skip("no user xattrs here:", err)
	}
	os.Chmod(path, 0o640)
	if err := (&Writer{Roots: []string{root}}).Replace(path, stamp, []byte(fixed)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, err := unix.Getxattr(path, "user.origin", buf); err != nil || string(buf[:n]) != "kernel-team" {
		t.Errorf("xattr after the fix: %q, %v", buf[:max(n, 0)], err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode())
	}
}

// helper runs one write in a child process, which a signal stops at a
// step: FSYS_HELPER is "signal:step:path".
func helper() {
	parts := strings.SplitN(os.Getenv("FSYS_HELPER"), ":", 3)
	sig, at, p := parts[0], parts[1], parts[2]
	got := make(chan bool)
	testHookSignal = func() { close(got) }
	reached := false
	testHook = func(step string) error {
		if step != at {
			return nil
		}
		reached = true
		switch sig {
		case "KILL":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		case "INT":
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		case "TERM":
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
		}
		<-got // the handler has the signal, and waits for this write
		return nil
	}
	_, stamp, err := ReadFile(p, 0)
	if err != nil {
		os.Exit(3)
	}
	(&Writer{Roots: []string{filepath.Dir(p)}}).Replace(p, &stamp, []byte(shorter))
	if !reached {
		os.Exit(5) // refused before the step
	}
	select {} // the handler ends the process
}

// runHelper returns the signal the helper died of, or -1 when the write
// was refused before the step.
func runHelper(t *testing.T, sig, at, path string) syscall.Signal {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FSYS_HELPER="+sig+":"+at+":"+path)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("helper: %v", err)
	}
	if ee.ExitCode() == 5 {
		return -1
	}
	return ee.Sys().(syscall.WaitStatus).Signal()
}

var steps = []string{"resolved", "write", "written", "rename", "renamed"}

// Ctrl-C or SIGTERM at any step of a write lets it finish: the file is
// fixed whole, no temporary file is left, and the process then dies of
// the signal. A hard-linked file is refused, whole.
func TestSignalWaitsForTheWrite(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, linked := range []bool{false, true} {
			for _, at := range steps {
				root, path, _ := scratch(t)
				if linked {
					os.Link(path, filepath.Join(t.TempDir(), "other.cpp"))
				}
				name := map[syscall.Signal]string{syscall.SIGINT: "INT", syscall.SIGTERM: "TERM"}[sig]
				got := runHelper(t, name, at, path)
				want := shorter
				if linked {
					want = original
				}
				if got != sig && !(linked && got == -1) {
					t.Errorf("%v at %s (linked %v): helper died of %v", sig, at, linked, got)
				}
				wantFile(t, path, want)
				noTemps(t, root)
			}
		}
	}
}

// SIGKILL cannot be waited for: at any step the file is either the old
// text or the new one, whole; a temporary file it leaves is recognised and
// removed by the next write in that folder.
func TestKillLeavesOldOrNewAndNoTempForLong(t *testing.T) {
	for _, linked := range []bool{false, true} {
		for _, at := range steps {
			root, path, _ := scratch(t)
			if linked {
				os.Link(path, filepath.Join(t.TempDir(), "other.cpp"))
			}
			if got := runHelper(t, "KILL", at, path); got != syscall.SIGKILL && !(linked && got == -1) {
				t.Fatalf("at %s: helper died of %v", at, got)
			}
			b, _ := os.ReadFile(path)
			if string(b) != original && string(b) != shorter {
				t.Errorf("killed at %s (linked %v): file torn: %q", at, linked, b)
			}
			other := filepath.Join(root, "other.json")
			if err := (&Writer{Roots: []string{root}}).Replace(other, nil, []byte("{}\n")); err != nil {
				t.Fatal(err)
			}
			noTemps(t, root)
		}
	}
}
