package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// Fault injection around the file system: each test builds a scratch copy
// of the check fixture tree, breaks something in it, and runs check as a
// user would.

const fixedFile = "kernels/mixed/entry.cpp" // --select EXT004 --fix rewrites it

// safetyTree is a scratch fixture tree (cwd set to it) with EXT004 pinned.
func safetyTree(t *testing.T) string {
	t.Helper()
	pinRules(t, rules.SyncAllAIVOnly)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	return dir
}

// runGuarded runs check in-process and fails (rather than hanging the
// suite) if it does not return: a FIFO or a device must never block it.
func runGuarded(t *testing.T, args ...string) runResult {
	t.Helper()
	done := make(chan runResult, 1)
	go func() { done <- runCmd(append([]string{"check"}, args...)...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(2 * time.Minute):
		buf := make([]byte, 1<<20)
		t.Fatalf("check %v hung:\n%s", args, buf[:runtime.Stack(buf, true)])
	}
	return runResult{}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func wantSkipped(t *testing.T, r runResult, path, why string) {
	t.Helper()
	if r.code != 2 {
		t.Errorf("exit %d, want 2 (something was skipped)\nstderr: %s", r.code, r.stderr)
	}
	line := "skipped " + path + ": "
	if !strings.Contains(r.stderr, line) || !strings.Contains(r.stderr, why) {
		t.Errorf("stderr %q, want a line %q ... %q", r.stderr, line, why)
	}
}

func TestFixRefusesReadOnlyFile(t *testing.T) {
	dir := safetyTree(t)
	before := readString(t, fixedFile)
	os.Chmod(fixedFile, 0o444)
	r := runGuarded(t, "--fix", ".")
	wantSkipped(t, r, fixedFile, "fixes not written: read-only (mode 0444)")
	if got := readString(t, fixedFile); got != before {
		t.Error("a 0444 file was rewritten")
	}
	// The summary counts what is on disk: its two errors remain.
	if !strings.Contains(r.stdout, ": 2 errors,") {
		t.Errorf("summary after an unwritten fix:\n%s", r.stdout)
	}
	// The other fixedFile file of the tree is still fixed.
	if !strings.Contains(readString(t, filepath.Join(dir, "kernels/mixed/barrier.h")), "SyncAll<false>()") {
		t.Error("barrier.h was not fixed: one refused file stopped the run")
	}
}

func TestFixKeepsModeOwnerAndSpecialBits(t *testing.T) {
	safetyTree(t)
	if err := os.Chmod(fixedFile, 0o2775|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	uid, gid := 4321, 4322
	canChown := os.Chown(fixedFile, uid, gid) == nil
	hasXattr := unix.Setxattr(fixedFile, "user.origin", []byte("kernel-team"), 0) == nil
	st0, _ := os.Stat(fixedFile)
	r := runGuarded(t, "--fix", ".")
	if r.code == 2 {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	st, _ := os.Stat(fixedFile)
	if !strings.Contains(readString(t, fixedFile), "SyncAll<false>();\n  vec_phase") {
		t.Fatal("not fixed")
	}
	if st.Mode() != st0.Mode() {
		t.Errorf("mode %v, want %v (setgid kept)", st.Mode(), st0.Mode())
	}
	if canChown {
		sys := st.Sys().(*syscall.Stat_t)
		if int(sys.Uid) != uid || int(sys.Gid) != gid {
			t.Errorf("owner %d:%d, want %d:%d", sys.Uid, sys.Gid, uid, gid)
		}
	}
	buf := make([]byte, 64)
	if n, err := unix.Getxattr(fixedFile, "user.origin", buf); hasXattr && (err != nil || string(buf[:n]) != "kernel-team") {
		t.Errorf("extended attribute lost: %q, %v", buf[:max(n, 0)], err)
	}
	if leftovers, _ := filepath.Glob("kernels/mixed/.*extern-lsp*"); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// A hard-linked file is never rewritten in place (a full disk or a kill
// between the write and the truncate tore it): it is refused, every name
// keeps the old text whole, and the summary counts the findings still on
// disk (it said 0 errors).
func TestFixRefusesHardLinkedFile(t *testing.T) {
	safetyTree(t)
	before := readString(t, fixedFile)
	other := filepath.Join(t.TempDir(), "elsewhere.cpp")
	if err := os.Link(fixedFile, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	r := runGuarded(t, "--select", "EXT004", "--fix", ".")
	wantSkipped(t, r, fixedFile, "fixes not written: has 2 hard links")
	if readString(t, fixedFile) != before || readString(t, other) != before {
		t.Error("a hard-linked file was written")
	}
	a, _ := os.Stat(fixedFile)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the hard link was broken")
	}
	if !strings.Contains(r.stdout, ": 2 errors,") || !strings.Contains(r.stdout, "entry.cpp:15:26: error:") {
		t.Errorf("the summary does not count the findings left in the unwritten file:\n%s", r.stdout)
	}
}

func TestFixNeverWritesOutsideTheTree(t *testing.T) {
	dir := safetyTree(t)
	outside := t.TempDir()
	target := filepath.Join(outside, "entry.cpp")
	orig := readString(t, fixedFile)
	os.WriteFile(target, []byte(orig), 0o644)
	// The tree's file is a symlink to a kernel outside it.
	os.Remove(fixedFile)
	if err := os.Symlink(target, filepath.Join(dir, fixedFile)); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{"--fix"}, {"--fix", "--unsafe-fixes"}} {
		r := runGuarded(t, append(flags, ".")...)
		wantSkipped(t, r, fixedFile, "outside the workspace")
		if got := readString(t, target); got != orig {
			t.Fatalf("%v wrote through a symlink out of the tree", flags)
		}
		if fi, _ := os.Lstat(fixedFile); fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%v replaced the symlink", flags)
		}
	}
	// A baseline path that is a symlink out of the tree is refused too.
	victim := filepath.Join(outside, "victim.json")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	os.Symlink(victim, "baseline.json")
	r := runGuarded(t, "--write-baseline", "baseline.json", ".")
	if r.code != 2 || !strings.Contains(r.stderr, "outside the workspace") {
		t.Errorf("--write-baseline through a symlink out of the tree: exit %d, %s", r.code, r.stderr)
	}
	if readString(t, victim) != "precious\n" {
		t.Error("--write-baseline wrote outside the tree")
	}
	r = runGuarded(t, "--write-baseline", filepath.Join(outside, "b.json"), ".")
	if r.code != 2 {
		t.Errorf("--write-baseline outside the tree: exit %d", r.code)
	}
	if _, err := os.Stat(filepath.Join(outside, "b.json")); err == nil {
		t.Error("baseline written outside the tree")
	}
}

// A writer appends to the fixed file while check --fix runs: every line it
// wrote is still there afterwards, and a file not written is reported.
func TestFixConcurrentWriter(t *testing.T) {
	safetyTree(t)
	for round := 0; round < 5; round++ {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var n int
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				f, err := os.OpenFile(fixedFile, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					continue // between the rename and the next open
				}
				fmt.Fprintf(f, "// appended %d.%d\n", round, n)
				f.Close()
				n++
				time.Sleep(200 * time.Microsecond)
			}
		}()
		r := runCmd("check", "--fix", ".")
		close(stop)
		wg.Wait()
		t.Logf("round %d: %d lines appended; exit %d; %s", round, n, r.code, r.stderr)
		got := readString(t, fixedFile)
		for i := 0; i < n; i++ {
			if !strings.Contains(got, fmt.Sprintf("// appended %d.%d\n", round, i)) {
				t.Fatalf("round %d: line %d of the concurrent writer was lost (exit %d, %s)", round, i, r.code, r.stderr)
			}
		}
		if strings.Contains(got, "SyncAll<true>") && !strings.Contains(r.stderr, "changed on disk") {
			t.Errorf("round %d: the fix was not written and not reported: %s", round, r.stderr)
		}
	}
}

func TestIrregularFilesAreSkipped(t *testing.T) {
	dir := safetyTree(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "kernels/pipe.cpp"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	syscall.Mkfifo(filepath.Join(dir, "kernels/mixed/fifo.h"), 0o644)
	os.Symlink("/dev/zero", filepath.Join(dir, "kernels/mixed/zero.h"))
	os.Symlink(filepath.Join(dir, "kernels/pipe.cpp"), filepath.Join(dir, "kernels/to_pipe.cpp"))
	// Includes of a device and a FIFO, next to a fixedFile finding.
	src := readString(t, fixedFile)
	src = strings.Replace(src, `#include "barrier.h"`, "#include \"barrier.h\"\n#include \"zero.h\"\n#include \"fifo.h\"", 1)
	os.WriteFile(fixedFile, []byte(src), 0o644)
	r := runGuarded(t, "--fix", ".")
	wantSkipped(t, r, "kernels/pipe.cpp", "not a regular file (a FIFO)")
	wantSkipped(t, r, "kernels/to_pipe.cpp", "not a regular file (a FIFO)")
	wantSkipped(t, r, "kernels/mixed/zero.h", "not a regular file (a character device)")
	wantSkipped(t, r, "kernels/mixed/fifo.h", "not a regular file (a FIFO)")
	if !strings.Contains(readString(t, fixedFile), "SyncAll<false>();\n  vec_phase") {
		t.Errorf("the rest of the tree was not fixed: %s", r.stderr)
	}
}

func TestOversizedAndUTF16FilesAreSkipped(t *testing.T) {
	dir := safetyTree(t)
	os.WriteFile(filepath.Join(dir, "extern-lsp.toml"), []byte("exclude = [\"skipped\"]\nmax-file-size = \"1KB\"\n"), 0o644)
	os.WriteFile("kernels/big.cpp", []byte("// "+strings.Repeat("x", 2000)+"\n"), 0o644)
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range "int x;\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	os.WriteFile("kernels/wide.cpp", utf16, 0o644)
	os.WriteFile("kernels/latin1.cpp", []byte("// Gr\xf6\xdfe\nint y;\n"), 0o644)
	r := runGuarded(t, ".")
	wantSkipped(t, r, "kernels/big.cpp", "over the max-file-size limit of 1 KB")
	wantSkipped(t, r, "kernels/wide.cpp", "UTF-16")
	if !strings.Contains(r.stderr, "note: kernels/latin1.cpp:1:6: not valid UTF-8") {
		t.Errorf("no note for the Latin-1 file: %s", r.stderr)
	}
	if strings.Contains(r.stderr, "skipped kernels/latin1.cpp") {
		t.Error("a Latin-1 file is still checked, not skipped")
	}
}

func TestBrokenSymlinkDoesNotStopTheRun(t *testing.T) {
	dir := safetyTree(t)
	os.Symlink(filepath.Join(dir, "gone.cpp"), filepath.Join(dir, "kernels", "dangling.cpp"))
	r := runGuarded(t, "--fix", ".")
	wantSkipped(t, r, "kernels/dangling.cpp", "broken symlink to "+filepath.Join(dir, "gone.cpp"))
	if !strings.Contains(readString(t, fixedFile), "SyncAll<false>();\n  vec_phase") {
		t.Error("the rest of the tree was not fixed")
	}
	if !strings.Contains(r.stdout, "files checked") {
		t.Errorf("no summary: %s", r.stdout)
	}
}

// An unreadable folder is reported with its path and the run goes on. Root
// reads any folder, so as root the check runs as nobody in a copy of the
// tree that nobody may read except the one folder.
func TestUnreadableFolder(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	base, err := os.MkdirTemp("", "unreadable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(base, "tree", "kernels", "aiv"), 0o755); os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	tree := filepath.Join(base, "tree")
	copyTreeTo(t, filepath.Join(checkData, "tree"), tree)
	locked := filepath.Join(tree, "kernels", "aiv")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "check", ".")
	if os.Getuid() == 0 {
		bin := filepath.Join(base, "extern-lsp")
		data, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(bin, data, 0o755)
		cmd = exec.Command(bin, "check", "--select", "EXT004", ".")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		cmd.Args = append(cmd.Args[:2], "--select", "EXT004", ".")
	}
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), "EXTERN_LSP_RUN_MAIN=1", "HOME="+base)
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if code != 2 || !strings.Contains(string(out), "skipped kernels/aiv: permission denied") {
		t.Fatalf("exit %d (%v), output:\n%s", code, err, out)
	}
	if !strings.Contains(string(out), "kernels/mixed/entry.cpp:") {
		t.Errorf("the readable folders were not checked:\n%s", out)
	}
}

func copyTreeTo(t *testing.T, src, dst string) {
	t.Helper()
	filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

func TestControlCharactersEscaped(t *testing.T) {
	dir := safetyTree(t)
	evil := "kernels/\x1b[2Jevil\nname.cpp"
	data := readString(t, filepath.Join(dir, fixedFile))
	data = strings.Replace(data, "mixed_entry", "evil_entry", 1)
	data = strings.Replace(data, `#include "barrier.h"`, `#include "mixed/barrier.h"`, 1)
	if err := os.WriteFile(evil, []byte(data), 0o644); err != nil {
		t.Skip("file system refuses the name:", err)
	}
	for _, format := range []string{"text", "concise"} {
		r := runGuarded(t, "--format", format, "kernels")
		if strings.ContainsRune(r.stdout, 0x1b) || strings.Contains(r.stdout, "evil\nname") {
			t.Errorf("%s: raw control characters reached the output:\n%q", format, r.stdout)
		}
		if !strings.Contains(r.stdout, `kernels/\x1b[2Jevil\nname.cpp:`) {
			t.Errorf("%s: no escaped name in:\n%s", format, r.stdout)
		}
	}
}

func TestFlagsAfterPaths(t *testing.T) {
	safetyTree(t)
	r := runGuarded(t, "kernels", "--select", "EXT004", "--format", "concise")
	if r.code != 1 || !strings.Contains(r.stdout, "EXT004") || strings.Contains(r.stderr, "no such file") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// After --, an argument that looks like a flag is a path.
	r = runGuarded(t, "--", "--fix")
	if r.code != 2 || !strings.Contains(r.stderr, "--fix: no such file or directory") {
		t.Errorf("-- --fix: exit %d, %s", r.code, r.stderr)
	}
}

func TestBaselineValidation(t *testing.T) {
	safetyTree(t)
	good := `{"version": 1, "findings": [{"file": "kernels/mixed/entry.cpp", "code": "EXT004", "name": "syncall-aiv-only", "fingerprint": "0123456789abcdef0123", "count": %d, "snippet": ""}]}`
	for _, tc := range []struct {
		count int
		want  string
	}{{-3, "count -3: want 1 or more"}, {0, "count 0: want 1 or more"}} {
		os.WriteFile("b.json", []byte(fmt.Sprintf(good, tc.count)), 0o644)
		r := runGuarded(t, "--baseline", "b.json", ".")
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("count %d: exit %d, %s", tc.count, r.code, r.stderr)
		}
	}
	os.WriteFile("b.json", []byte(strings.Replace(fmt.Sprintf(good, 1), "0123456789abcdef0123", "zz", 1)), 0o644)
	if r := runGuarded(t, "--baseline", "b.json", "."); r.code != 2 || !strings.Contains(r.stderr, `fingerprint "zz"`) {
		t.Errorf("bad fingerprint: exit %d, %s", r.code, r.stderr)
	}
}

// Many findings on one long line: the text output quotes a window of the
// line per finding, so its size stays linear in the number of findings.
func TestLongLineOutputIsBounded(t *testing.T) {
	pinRules(t, rules.FFTSBaseReset)
	dir := t.TempDir()
	t.Chdir(dir)
	var b strings.Builder
	b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {")
	const n = 2000
	for i := 0; i < n; i++ {
		b.WriteString(" set_ffts_base_addr(0);")
	}
	b.WriteString("\n}\n")
	os.WriteFile("big.cpp", []byte(b.String()), 0o644)
	r := runGuarded(t, "--format", "text", "--max-findings-per-rule", "0", ".")
	if got := strings.Count(r.stdout, "[EXT007 "); got != n {
		t.Fatalf("%d findings, want %d", got, n)
	}
	if per := len(r.stdout) / n; per > 2*maxEchoedLine+400 {
		t.Errorf("%d bytes of output per finding on a %d-byte line", per, b.Len())
	}
	// The caret still points at the call it underlines.
	lines := strings.Split(r.stdout, "\n")
	for i := 0; i+2 < len(lines) && i < 3000; i++ {
		if strings.Contains(lines[i], "[EXT007 ") {
			quote, caret := []rune(lines[i+1]), lines[i+2] // columns, not bytes: … is one
			at := strings.IndexByte(caret, '^')
			if at < 0 || at >= len(quote) || !strings.HasPrefix(string(quote[at:]), "set_ffts_base_addr") {
				t.Fatalf("caret at %d does not underline the call:\n%s\n%s", at, string(quote), caret)
			}
		}
	}
}

// endless is /dev/zero that gives up after 64 MB, so that a reader without
// a cap fails the test instead of filling the memory.
type endless struct {
	f *os.File
	n int64
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 64<<20 {
		return 0, fmt.Errorf("read %d bytes of /dev/zero: no cap", e.n)
	}
	n, err := e.f.Read(p)
	e.n += int64(n)
	return n, err
}

func TestStdinIsCapped(t *testing.T) {
	t.Chdir(t.TempDir())
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	in := &endless{f: zero}
	r := runCmdStdin(in, "check", "--stdin-filename", "k.cpp", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "reading stdin: more than the max-file-size limit of 4 MB; not checked") {
		t.Errorf("exit %d, %s", r.code, r.stderr)
	}
	if in.n > 5<<20 {
		t.Errorf("read %d bytes of stdin for a 4 MB cap", in.n)
	}
	os.WriteFile("extern-lsp.toml", []byte("max-file-size = 1024\n"), 0o644)
	r = runCmdStdin(strings.NewReader(strings.Repeat("x", 1025)), "check", "--stdin-filename", "k.cpp", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "limit of 1 KB") {
		t.Errorf("configured cap: exit %d, %s", r.code, r.stderr)
	}
}

// A CRLF file gets CRLF in the lines a fix inserts: no line of it may end
// in a bare LF afterwards.
func TestFixFollowsCRLF(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	src := strings.ReplaceAll(`extern "C" __global__ __aicore__ void k(__gm__ int64_t *args)
{
    __gm__ int32_t *lens = reinterpret_cast<__gm__ int32_t *>(args[1]);
    int32_t n = static_cast<int32_t>(args[2]);
    int32_t s = 0;
    for (int32_t r = 0; r < 622; ++r) {
        s += lens[n];
    }
    lens[get_block_idx(args)] = s;
}
`, "\n", "\r\n")
	os.WriteFile("k.cpp", []byte(src), 0o644)
	r := runCmd("check", "--fix", "--unsafe-fixes", "--select", "EXT001", "k.cpp")
	got := readString(t, "k.cpp")
	if !strings.Contains(got, "dcci(") {
		t.Fatalf("not fixed (exit %d, %s):\n%s", r.code, r.stderr, got)
	}
	if bare := strings.Count(got, "\n") - strings.Count(got, "\r\n"); bare > 0 {
		t.Errorf("%d line(s) end in a bare LF:\n%q", bare, got)
	}
}

// A symlink beside its target in the tree names one file twice: the fix is
// written once, and the second name is not "another program wrote it".
func TestFixTwoNamesForOneFile(t *testing.T) {
	safetyTree(t)
	if err := os.Symlink("entry.cpp", "kernels/mixed/entry2.cpp"); err != nil {
		t.Fatal(err)
	}
	r := runGuarded(t, "--select", "EXT004", "--fix", ".")
	if r.code == 2 || strings.Contains(r.stderr, "skipped") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(readString(t, fixedFile), "SyncAll<false>();\n  vec_phase") {
		t.Error("not fixed")
	}
	if fi, _ := os.Lstat("kernels/mixed/entry2.cpp"); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
}

// One NUL byte made a file silently unchecked (no findings, exit 0): it is
// listed as skipped, with where the NUL is, and the exit code is 2.
func TestNulByteIsReported(t *testing.T) {
	safetyTree(t)
	src := readString(t, fixedFile)
	i := strings.Index(src, "\n") + 1
	os.WriteFile(fixedFile, []byte(src[:i]+"\x00"+src[i:]), 0o644)
	r := runGuarded(t, "--select", "EXT004", ".")
	wantSkipped(t, r, fixedFile, "a NUL byte at line 2, column 1: not a text file; not checked")
}
