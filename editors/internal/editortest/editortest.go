// Package editortest holds what the real-editor end-to-end tests share: a
// freshly built server, a scratch copy of the fixture workspace, the
// `// want` expectations written in it, and finding the installed editors.
package editortest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// RequireEnv names the editors whose tests must run: a missing one fails its
// test instead of skipping it. .ci/run sets it to the editors
// editors/ci/install.sh provided (space- or comma-separated: nvim,
// nvim-0.10, vscode, emacs, vim), so CI can never pass by skipping an editor
// it installed, and never fails for one the machine could not install. "1"
// or "all" requires every editor.
const RequireEnv = "EXTERN_LSP_REQUIRE_EDITORS"

// SkipLogEnv names a file each skipped editor test appends its
// `SKIP <editor>: <why>` line to, so .ci/run can print them (go test hides
// the output of passing packages).
const SkipLogEnv = "EXTERN_LSP_SKIP_LOG"

// Required reports whether RequireEnv demands editor.
func Required(editor string) bool {
	v := strings.TrimSpace(os.Getenv(RequireEnv))
	if v == "1" || v == "all" {
		return true
	}
	for _, e := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		if e == editor {
			return true
		}
	}
	return false
}

// RepoRoot is the directory holding go.mod, found upwards from the test's directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// CacheDir is where editors/ci/install.sh puts the editors.
func CacheDir() string {
	if d := os.Getenv("EXTERN_LSP_CI_CACHE"); d != "" {
		return d
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "extern-lsp-ci")
}

// Cached is the path of exe inside the cache's dir, or "" while that install
// is not complete (install.sh marks finished installs with a .complete file).
func Cached(dir, exe string) string {
	d := filepath.Join(CacheDir(), dir)
	if _, err := os.Stat(filepath.Join(d, ".complete")); err != nil {
		return ""
	}
	return filepath.Join(d, exe)
}

// Missing skips the test with `SKIP <editor>: <why>`, or fails it when
// RequireEnv requires that editor.
func Missing(t testing.TB, editor, why string) {
	t.Helper()
	msg := fmt.Sprintf("SKIP %s: %s (run editors/ci/install.sh or .ci/run to install it)", editor, why)
	if Required(editor) {
		t.Fatalf("%s is required (%s=%s) but cannot run: %s", editor, RequireEnv, os.Getenv(RequireEnv), why)
	}
	if log := os.Getenv(SkipLogEnv); log != "" {
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s (%s)\n", msg, t.Name())
			f.Close()
		}
	}
	skipped.Lock()
	skipped.lines = append(skipped.lines, fmt.Sprintf("%s (%s)", msg, t.Name()))
	skipped.Unlock()
	t.Skip(msg)
}

// skipped collects the SKIP lines of this test binary for Main.
var skipped struct {
	sync.Mutex
	lines []string
}

// Main runs the package's tests (call it from TestMain), then prints the
// SKIP lines of the editors that were missing where the user sees them.
// `go test ./...` discards everything a passing package's test binary
// prints unless -v is set, so they go to the stderr of the go command that
// started this binary (its parent), and to this binary's own stderr when
// that is the same file or the parent's cannot be opened. The after
// functions run once the tests are done (cleanup shared by several tests).
func Main(m *testing.M, after ...func()) {
	// The servers the editors start keep their parse cache in the test's
	// own folder, not the user's.
	if _, ok := os.LookupEnv("EXTERN_LSP_PARSE_CACHE"); !ok {
		if dir, err := os.MkdirTemp("", "extern-lsp-parses-"); err == nil {
			os.Setenv("EXTERN_LSP_PARSE_CACHE", dir)
			after = append(after, func() { os.RemoveAll(dir) })
		}
	}
	code := m.Run()
	for _, f := range after {
		f()
	}
	skipped.Lock()
	lines := skipped.lines
	skipped.Unlock()
	if len(lines) > 0 && !testing.Verbose() {
		w := parentStderr()
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		if w != os.Stderr {
			w.Close()
		}
	}
	os.Exit(code)
}

// parentStderr opens the parent process's stderr (Linux /proc), or returns
// os.Stderr.
func parentStderr() *os.File {
	if runtime.GOOS != "linux" {
		return os.Stderr
	}
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return os.Stderr
	}
	a, errA := f.Stat()
	b, errB := os.Stderr.Stat()
	if errA != nil || errB != nil || os.SameFile(a, b) {
		f.Close()
		return os.Stderr
	}
	return f
}

// FindExecutable returns the first candidate that is an executable file, or
// a name found in PATH; "" when none is.
func FindExecutable(candidates ...string) string {
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if strings.ContainsRune(c, os.PathSeparator) {
			if st, err := os.Stat(c); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				return c
			}
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// BuildServer builds cmd/extern-lsp into a temp dir and returns its path.
func BuildServer(t testing.TB) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "extern-lsp")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "build", "-o", out, "./cmd/extern-lsp")
	cmd.Dir = RepoRoot(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/extern-lsp: %v\n%s", err, b)
	}
	return out
}

// Workspace copies testdata/editors/ws into a temp dir (editors apply fixes
// and write settings there) and returns the copy's path.
func Workspace(t testing.TB) string {
	t.Helper()
	src := filepath.Join(RepoRoot(t), "testdata", "editors", "ws")
	dst := filepath.Join(t.TempDir(), "ws")
	analysistest.CopyTree(t, src, dst)
	return dst
}

// Want is one expected diagnostic: a regexp over "CODE message" on a 0-based line.
type Want struct {
	Line int
	Re   *regexp.Regexp
}

var wantRe = regexp.MustCompile(`(?://|#) want "((?:[^"\\]|\\.)*)"`)

// Wants reads the `// want "re"` (or `# want "re"`) comments of a fixture file.
func Wants(t testing.TB, path string) []Want {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ws []Want
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		for _, m := range wantRe.FindAllStringSubmatch(sc.Text(), -1) {
			re, err := regexp.Compile(strings.ReplaceAll(m[1], `\"`, `"`))
			if err != nil {
				t.Fatalf("%s:%d: bad want regexp: %v", path, line+1, err)
			}
			ws = append(ws, Want{Line: line, Re: re})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ws
}

// Diag is a diagnostic as an editor reported it, reduced to what tests compare.
type Diag struct {
	Line    int // 0-based
	Code    string
	Message string
}

func (d Diag) String() string { return fmt.Sprintf("line %d: %s %s", d.Line+1, d.Code, d.Message) }

// CheckDiagnostics fails unless every want is matched by a diagnostic on its
// line and every diagnostic is matched by a want on its line.
func CheckDiagnostics(t testing.TB, editor string, wants []Want, got []Diag) {
	t.Helper()
	sort.Slice(got, func(i, j int) bool { return got[i].Line < got[j].Line })
	used := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, d := range got {
			if !used[i] && d.Line == w.Line && w.Re.MatchString(d.Code+" "+d.Message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s: no diagnostic matching %q on line %d; got %v", editor, w.Re, w.Line+1, got)
		}
	}
	for i, d := range got {
		if !used[i] {
			t.Errorf("%s: unexpected diagnostic %v", editor, d)
		}
	}
}

// ParamNames are the extern's parameters in args[] order (tensors, then scalars).
var ParamNames = []string{"result", "lhs", "rhs", "elem_count", "alpha"}

// Kernel and Stub are the fixture files, relative to the workspace.
const (
	Kernel = "kernels/scale_add.cpp"
	Stub   = "scale_add.py"
)
