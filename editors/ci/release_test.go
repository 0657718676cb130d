// Package ci_test tests the release artifacts tools/release/release.sh makes,
// the way a user without Go, gcc or Node installs them: the wheel in a fresh
// venv, the arm64 binary under qemu-user, the .vsix in code-server. Each test
// skips with `SKIP <tool>: <why>` when this machine lacks what it needs, and
// fails instead when .ci/run required that tool (editors/ci/install.sh
// provides arm64, wheel and vscode).
package ci_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

var targets = map[string]struct {
	machine elf.Machine
	wheel   string // the wheel's platform tag
}{
	"linux-x64":   {elf.EM_X86_64, "manylinux_2_17_x86_64"},
	"linux-arm64": {elf.EM_AARCH64, "manylinux_2_17_aarch64"},
}

// release is one run of tools/release/release.sh for the whole test binary,
// with the targets and parts this machine can build; missing says why a part
// was left out (keyed by target or "vsix").
var release struct {
	once    sync.Once
	dir     string
	version string
	missing map[string]string
	err     error
	log     []byte
}

// TestMain prints the SKIP lines past go test's quiet mode (editortest.Main)
// and removes the release folder the tests shared.
func TestMain(m *testing.M) {
	editortest.Main(m, func() {
		if release.dir != "" {
			os.RemoveAll(release.dir)
		}
	})
}

// vsixWanted mirrors editors/vscode's rule for its heavy suites: packaging
// and a browser run take a minute, so they run when CI requires VS Code or
// EXTERN_LSP_VSCODE_TESTS asks for them.
func vsixWanted() bool {
	return editortest.Required("vscode") || os.Getenv("EXTERN_LSP_VSCODE_TESTS") != ""
}

// artifacts runs the release once and returns its output folder.
func artifacts(t *testing.T) string {
	t.Helper()
	root := editortest.RepoRoot(t)
	release.once.Do(func() {
		release.missing = map[string]string{}
		v, err := os.ReadFile(filepath.Join(root, "VERSION"))
		if err != nil {
			release.err = err
			return
		}
		release.version = strings.TrimSpace(string(v))
		args := []string{filepath.Join(root, "tools", "release", "release.sh")}
		if runtime.GOARCH == "amd64" && runtime.GOOS == "linux" {
			args = append(args, "linux-x64")
		} else {
			release.missing["linux-x64"] = "the release builds linux-x64 on an x86_64 Linux host only"
		}
		if editortest.FindExecutable("aarch64-linux-gnu-gcc") == "" {
			release.missing["linux-arm64"] = "no aarch64-linux-gnu-gcc (Debian gcc-aarch64-linux-gnu)"
		} else if _, err := os.Stat("/usr/aarch64-linux-gnu/lib/libc.a"); err != nil {
			release.missing["linux-arm64"] = "no static arm64 libc (Debian libc6-dev-arm64-cross)"
		} else {
			args = append(args, "linux-arm64")
		}
		switch {
		case !vsixWanted():
			release.missing["vsix"] = "set EXTERN_LSP_VSCODE_TESTS=1 to package and run the .vsix (.ci/run does when it installed code-server)"
		case editortest.FindExecutable("npm") == "":
			release.missing["vsix"] = "no npm on PATH"
		case editortest.FindExecutable(filepath.Join(root, "editors", "vscode", "node_modules", ".bin", "vsce")) == "":
			release.missing["vsix"] = "no editors/vscode/node_modules (npm ci)"
		}
		if release.missing["vsix"] != "" {
			args = append(args, "--no-vsix")
		}
		if len(args) == 1 || (len(args) == 2 && args[1] == "--no-vsix") {
			return
		}
		release.dir, release.err = os.MkdirTemp("", "extern-lsp-release-")
		if release.err != nil {
			return
		}
		cmd := exec.Command("bash", append(args, "--out", release.dir)...)
		cmd.Dir = root
		release.log, release.err = cmd.CombinedOutput()
	})
	if release.err != nil {
		t.Fatalf("tools/release/release.sh: %v\n%s", release.err, release.log)
	}
	return release.dir
}

// need returns the release folder once the part (a target or "vsix") was
// built, else skips the test (or fails it when CI requires tool).
func need(t *testing.T, tool string, parts ...string) string {
	t.Helper()
	dir := artifacts(t)
	for _, p := range parts {
		if why := release.missing[p]; why != "" {
			editortest.Missing(t, tool, p+": "+why)
		}
	}
	return dir
}

func name(target string) string { return "extern-lsp-" + release.version + "-" + target }

func wheelName(target string) string {
	return "extern_lsp-" + release.version + "-py3-none-" + targets[target].wheel + ".whl"
}

// TestVersionOneSource: VERSION is the one version; the extension's
// package.json must say the same (the release refuses to run otherwise).
func TestVersionOneSource(t *testing.T) {
	root := editortest.RepoRoot(t)
	v, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "editors", "vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(v)); pkg.Version != want {
		t.Errorf("editors/vscode/package.json has version %q, VERSION says %q", pkg.Version, want)
	}
}

// tarBinary returns the extern-lsp binary and the file names in a target's
// tarball, checking its layout on the way.
func tarBinary(t *testing.T, dir, target string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name(target)+".tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var bin []byte
	seen := map[string]bool{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seen[h.Name] = true
		if h.Name == name(target)+"/extern-lsp" {
			if h.Mode&0o111 == 0 {
				t.Errorf("%s: extern-lsp has no run bit (%o)", target, h.Mode)
			}
			if bin, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, want := range []string{"extern-lsp", "README.md", "docs/rules.md"} {
		if !seen[name(target)+"/"+want] {
			t.Errorf("%s.tar.gz has no %s/%s", name(target), name(target), want)
		}
	}
	if bin == nil {
		t.Fatalf("%s.tar.gz holds no binary", name(target))
	}
	return bin
}

func zipFiles(t *testing.T, path string) map[string]*zip.File {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zr.Close() })
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	return files
}

func read(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReleaseArtifacts checks what each artifact holds without installing
// it: one static binary per target, the same bytes in the tarball, the wheel
// and the .vsix, the version everywhere, and the checksums.
func TestReleaseArtifacts(t *testing.T) {
	dir := need(t, "release", "linux-x64")
	for target, want := range targets {
		if release.missing[target] != "" {
			continue
		}
		bin := tarBinary(t, dir, target)
		ef, err := elf.NewFile(bytes.NewReader(bin))
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if ef.Machine != want.machine {
			t.Errorf("%s: binary is for %v, want %v", target, ef.Machine, want.machine)
		}
		for _, p := range ef.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s: binary is dynamically linked (it needs a loader, so it would not run on every Linux)", target)
			}
		}

		wheel := zipFiles(t, filepath.Join(dir, wheelName(target)))
		dist := "extern_lsp-" + release.version
		script := wheel[dist+".data/scripts/extern-lsp"]
		if script == nil {
			t.Fatalf("%s: the wheel has no %s.data/scripts/extern-lsp", target, dist)
		}
		if script.Mode()&0o111 == 0 {
			t.Errorf("%s: the wheel's extern-lsp has no run bit: %v", target, script.Mode())
		}
		if !bytes.Equal(read(t, script), bin) {
			t.Errorf("%s: the wheel's binary differs from the tarball's", target)
		}
		meta := string(read(t, wheel[dist+".dist-info/METADATA"]))
		if !strings.Contains(meta, "\nVersion: "+release.version+"\n") || !strings.Contains(meta, "Name: extern-lsp\n") {
			t.Errorf("%s: METADATA does not name extern-lsp %s:\n%.300s", target, release.version, meta)
		}
		if w := string(read(t, wheel[dist+".dist-info/WHEEL"])); !strings.Contains(w, "Tag: py3-none-"+want.wheel+"\n") || !strings.Contains(w, "Root-Is-Purelib: false") {
			t.Errorf("%s: WHEEL:\n%s", target, w)
		}
		// RECORD lists every other entry with its hash and size.
		record := wheel[dist+".dist-info/RECORD"]
		listed := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(string(read(t, record))), "\n") {
			parts := strings.Split(line, ",")
			if len(parts) != 3 {
				t.Fatalf("%s: bad RECORD line %q", target, line)
			}
			listed[parts[0]] = true
			if parts[0] == record.Name {
				continue
			}
			f := wheel[parts[0]]
			if f == nil {
				t.Errorf("%s: RECORD lists %s, which the wheel lacks", target, parts[0])
				continue
			}
			data := read(t, f)
			sum := sha256.Sum256(data)
			if want := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]); parts[1] != want || parts[2] != fmt.Sprint(len(data)) {
				t.Errorf("%s: RECORD says %s,%s for %s; the entry has %s,%d", target, parts[1], parts[2], parts[0], want, len(data))
			}
		}
		for n := range wheel {
			if !listed[n] {
				t.Errorf("%s: %s is not in RECORD", target, n)
			}
		}

		if release.missing["vsix"] != "" {
			continue
		}
		vsix := zipFiles(t, filepath.Join(dir, name(target)+".vsix"))
		var pkg struct{ Version string }
		if err := json.Unmarshal(read(t, vsix["extension/package.json"]), &pkg); err != nil || pkg.Version != release.version {
			t.Errorf("%s: the .vsix's package.json has version %q (%v), want %s", target, pkg.Version, err, release.version)
		}
		if m := string(read(t, vsix["extension.vsixmanifest"])); !strings.Contains(m, `TargetPlatform="`+target+`"`) {
			t.Errorf("%s: the .vsix manifest names no TargetPlatform %s", target, target)
		}
		for n, f := range vsix {
			if !strings.HasPrefix(n, "extension/bin/") {
				continue
			}
			if n != "extension/bin/"+target+"/extern-lsp" {
				t.Errorf("%s: the .vsix carries %s too", target, n)
			} else if f.Mode()&0o111 == 0 || !bytes.Equal(read(t, f), bin) {
				t.Errorf("%s: the .vsix's binary differs from the tarball's or lost its run bit (%v)", target, f.Mode())
			}
		}
		if vsix["extension/bin/"+target+"/extern-lsp"] == nil {
			t.Errorf("%s: the .vsix carries no bin/%s/extern-lsp", target, target)
		}
	}

	// SHA256SUMS covers every artifact, in `sha256sum -c` format.
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, file, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("bad SHA256SUMS line %q", line)
		}
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			t.Errorf("SHA256SUMS: %s does not match", file)
		}
		listed[file] = true
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "SHA256SUMS" && !listed[e.Name()] {
			t.Errorf("SHA256SUMS does not cover %s", e.Name())
		}
		if e.Name() != "SHA256SUMS" && !strings.Contains(e.Name(), "-"+release.version+"-") {
			t.Errorf("%s does not carry the version %s", e.Name(), release.version)
		}
	}
}

// run runs bin with args in the repository root and returns its stdout and
// exit code.
func run(t *testing.T, env []string, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = editortest.RepoRoot(t)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code > 1 {
		t.Fatalf("%s %s: exit %d\n%s", bin, strings.Join(args, " "), code, stderr.String())
	}
	return string(out), cmd.ProcessState.ExitCode()
}

var reference struct {
	once         sync.Once
	traps, clean string
	trapsCode    int
	cleanCode    int
}

// sameCheck runs `check` on examples/ with an installed binary (run through
// runner) and wants what a plain `go build` of this tree reports: the
// examples' known findings, exit 1 (and 0 on examples/clean).
func sameCheck(t *testing.T, env []string, runner string, pre ...string) {
	t.Helper()
	reference.once.Do(func() {
		bin := editortest.BuildServer(t)
		reference.traps, reference.trapsCode = run(t, nil, bin, "check", "--format", "concise", "--no-color", "examples/")
		reference.clean, reference.cleanCode = run(t, nil, bin, "check", "--format", "concise", "--no-color", "examples/clean")
	})
	if reference.trapsCode != 1 || !strings.Contains(reference.traps, "EXT004") {
		t.Fatalf("the examples no longer exit 1 with their known findings:\n%s", reference.traps)
	}
	out, code := run(t, env, runner, append(pre, "check", "--format", "concise", "--no-color", "examples/")...)
	if code != 1 || out != reference.traps {
		t.Errorf("check examples/: exit %d, want 1; output:\n%s\nwant:\n%s", code, out, reference.traps)
	}
	out, code = run(t, env, runner, append(pre, "check", "--format", "concise", "--no-color", "examples/clean")...)
	if code != reference.cleanCode || out != reference.clean {
		t.Errorf("check examples/clean: exit %d, want %d; output:\n%s", code, reference.cleanCode, out)
	}
	out, _ = run(t, env, runner, append(pre, "version")...)
	if want := "extern-lsp " + release.version + "\n"; out != want {
		t.Errorf("version: %q, want %q", out, want)
	}
}

// TestWheelInVenv installs the linux-x64 wheel into a fresh venv with pip,
// offline, and runs extern-lsp from that venv's PATH.
func TestWheelInVenv(t *testing.T) {
	dir := need(t, "wheel", "linux-x64")
	py := editortest.FindExecutable("python3")
	if py == "" {
		editortest.Missing(t, "wheel", "no python3")
	}
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", venv).CombinedOutput(); err != nil {
		editortest.Missing(t, "wheel", fmt.Sprintf("python3 -m venv: %v: %s", err, bytes.TrimSpace(out)))
	}
	pip := exec.Command(filepath.Join(venv, "bin", "pip"), "install", "--no-index", "--disable-pip-version-check", "-q", filepath.Join(dir, wheelName("linux-x64")))
	if out, err := pip.CombinedOutput(); err != nil {
		t.Fatalf("pip install: %v\n%s", err, out)
	}
	// On PATH as a user has it after activating the venv: found by name.
	// Only the venv on PATH: no compiler, Go or Node is there to lean on.
	env := []string{"PATH=" + filepath.Join(venv, "bin"), "VIRTUAL_ENV=" + venv}
	sh := editortest.FindExecutable("/bin/sh")
	sameCheck(t, env, sh, "-c", `exec extern-lsp "$@"`, "extern-lsp")
	if out, _ := run(t, env, filepath.Join(venv, "bin", "python"), "-m", "extern_lsp", "version"); out != "extern-lsp "+release.version+"\n" {
		t.Errorf("python -m extern_lsp version: %q", out)
	}
}

// TestArm64UnderQemu runs the linux-arm64 release binary under qemu-user.
func TestArm64UnderQemu(t *testing.T) {
	dir := need(t, "arm64", "linux-arm64")
	qemu := editortest.FindExecutable("qemu-aarch64", "qemu-aarch64-static")
	if qemu == "" {
		editortest.Missing(t, "arm64", "no qemu-aarch64 (Debian qemu-user)")
	}
	bin := filepath.Join(t.TempDir(), "extern-lsp")
	if err := os.WriteFile(bin, tarBinary(t, dir, "linux-arm64"), 0o755); err != nil {
		t.Fatal(err)
	}
	sameCheck(t, nil, qemu, bin)
}

// TestVSIXInCodeServer installs the linux-x64 .vsix into code-server's
// extensions folder and, with no externLsp.path, sees the server it carries
// publish a diagnostic and answer a hover (editors/vscode/test/vsix).
func TestVSIXInCodeServer(t *testing.T) {
	dir := need(t, "vscode", "linux-x64", "vsix")
	root := editortest.RepoRoot(t)
	csDir := filepath.Join(editortest.CacheDir(), "code-server")
	if editortest.FindExecutable(editortest.Cached("code-server", "node_modules/.bin/code-server")) == "" {
		editortest.Missing(t, "vscode", "no code-server in "+csDir)
	}
	if editortest.FindExecutable("/usr/bin/chromium") == "" {
		editortest.Missing(t, "vscode", "no /usr/bin/chromium")
	}
	// The suite runs from a harness extension of its own (bundled into one
	// file), so the extension under test is only the installed one.
	harness := t.TempDir()
	bundle := exec.Command(filepath.Join(root, "editors", "vscode", "node_modules", ".bin", "esbuild"), "test/vsix/index.ts",
		"--bundle", "--platform=node", "--format=cjs", "--external:vscode", "--log-level=warning", "--outfile="+filepath.Join(harness, "index.js"))
	bundle.Dir = filepath.Join(root, "editors", "vscode")
	if out, err := bundle.CombinedOutput(); err != nil {
		t.Fatalf("esbuild test/vsix: %v\n%s", err, out)
	}
	manifest := `{"name":"vsix-probe","publisher":"extern-lsp-test","version":"0.0.0","engines":{"vscode":"^1.90.0"}}`
	if err := os.WriteFile(filepath.Join(harness, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := editortest.Workspace(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("bash", filepath.Join(root, "editors", "ci", "run-vscode-tests.sh"), harness, filepath.Join(harness, "index.js"), ws)
	cmd.Env = append(os.Environ(), "CS_DIR="+csDir, fmt.Sprintf("PORT=%d", port), "VSIX="+filepath.Join(dir, name("linux-x64")+".vsix"))
	logs, runErr := cmd.CombinedOutput()

	b, err := os.ReadFile(filepath.Join(ws, ".vscode-test-results.json"))
	if err != nil {
		t.Fatalf("the vsix suite wrote no results (%v); run: %v\n%s", err, runErr, logs)
	}
	var res struct {
		VSCode  string
		Results []struct {
			Name  string
			OK    bool
			Error string
		}
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("bad results JSON: %v\n%s", err, b)
	}
	for _, r := range res.Results {
		if !r.OK {
			t.Errorf("VS Code %s, installed .vsix: %s: %s", res.VSCode, r.Name, r.Error)
		}
	}
	if len(res.Results) != 3 {
		t.Errorf("the vsix suite ran %d tests, want 3", len(res.Results))
	}
	if runErr != nil && !t.Failed() {
		t.Errorf("run-vscode-tests.sh: %v\n%s", runErr, logs)
	}
}
