package vscode_test

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// TestVSCodeIntegration runs test/integration (compiled by `npm run build`)
// inside code-server's real extension host, in headless Chromium, against a
// freshly built server, and reports each of its tests here.
func TestVSCodeIntegration(t *testing.T) {
	ws := editortest.Workspace(t)
	logs, runErr := runWorkbench(t, "integration", ws, nil, nil)

	b, err := os.ReadFile(filepath.Join(ws, ".vscode-test-results.json"))
	if err != nil {
		t.Fatalf("the integration suite wrote no results (%v); run: %v\n%s", err, runErr, tail(logs, 60))
	}
	var res struct {
		VSCode  string `json:"vscode"`
		Results []struct {
			Name  string `json:"name"`
			OK    bool   `json:"ok"`
			Error string `json:"error"`
			MS    int    `json:"ms"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("bad results JSON: %v\n%s", err, b)
	}
	failed := 0
	for _, r := range res.Results {
		if r.OK {
			t.Logf("ok   %s (%d ms)", r.Name, r.MS)
			continue
		}
		failed++
		t.Errorf("VS Code %s: %s: %s", res.VSCode, r.Name, r.Error)
	}
	t.Logf("vscode integration (VS Code %s): %d passed, %d failed", res.VSCode, len(res.Results)-failed, failed)
	if len(res.Results) == 0 {
		t.Error("the integration suite ran no tests")
	}
	if runErr != nil && failed == 0 {
		t.Errorf("run-vscode-tests.sh: %v\n%s", runErr, tail(logs, 60))
	}
}

// runWorkbench runs out/test/<suite>/index.js (built from test/<suite>) in
// code-server's real extension host, in headless Chromium, on a copy of
// workspace ws, with a freshly built server and the given extra user
// settings and environment; it returns the run's output and error.
func runWorkbench(t *testing.T, suite, ws string, settings map[string]any, env []string) ([]byte, error) {
	t.Helper()
	heavy(t)
	csDir := filepath.Join(editortest.CacheDir(), "code-server")
	if editortest.FindExecutable(editortest.Cached("code-server", "node_modules/.bin/code-server")) == "" {
		editortest.Missing(t, "vscode", "no code-server in "+csDir)
	}
	if editortest.FindExecutable("/usr/bin/chromium") == "" {
		editortest.Missing(t, "vscode", "no /usr/bin/chromium")
	}
	extDir := extensionDir(t)
	npm(t, extDir, "run", "build")
	all := map[string]any{
		"security.workspace.trust.enabled": false,
		"telemetry.telemetryLevel":         "off",
		"extensions.autoCheckUpdates":      false,
		"extensions.autoUpdate":            false,
		"update.mode":                      "none",
		"workbench.startupEditor":          "none",
		"externLsp.path":                   editortest.BuildServer(t),
	}
	for k, v := range settings {
		all[k] = v
	}
	file := filepath.Join(t.TempDir(), "settings.json")
	s, _ := json.Marshal(all)
	if err := os.WriteFile(file, s, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(editortest.RepoRoot(t), "editors", "ci", "run-vscode-tests.sh"),
		extDir, filepath.Join(extDir, "out", "test", suite, "index.js"), ws, file)
	cmd.Env = append(append(os.Environ(), env...), "CS_DIR="+csDir, fmt.Sprintf("PORT=%d", freePort(t)))
	return cmd.CombinedOutput()
}

// heavy skips the suites that start a browser or package a .vsix (minutes,
// not seconds) unless CI asks for them, so everyday `go test ./...` stays fast.
func heavy(t *testing.T) {
	if !editortest.Required("vscode") && os.Getenv("EXTERN_LSP_VSCODE_TESTS") == "" {
		t.Skip("SKIP vscode: set EXTERN_LSP_VSCODE_TESTS=1 to run the VS Code suites (.ci/run does when it installed code-server)")
	}
}

// extensionDir is this directory, once its node_modules are installed.
func extensionDir(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-languageclient")); err != nil {
		editortest.Missing(t, "vscode", "no editors/vscode/node_modules (npm ci)")
	}
	return dir
}

func npm(t *testing.T, dir string, args ...string) string {
	bin := editortest.FindExecutable("npm")
	if bin == "" {
		editortest.Missing(t, "vscode", "no npm on PATH")
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, tail(out, 80))
	}
	return string(out)
}

// TestVSCodeUnit runs the extension's unit tests (node --test, vscode mocked).
func TestVSCodeUnit(t *testing.T) {
	out := npm(t, extensionDir(t), "run", "test:unit")
	pass := regexp.MustCompile(`(?m)^# pass (\d+)`).FindStringSubmatch(out)
	fail := regexp.MustCompile(`(?m)^# fail (\d+)`).FindStringSubmatch(out)
	if pass == nil || fail == nil {
		t.Fatalf("no test summary in the output:\n%s", tail([]byte(out), 40))
	}
	t.Logf("vscode unit: %s passed, %s failed", pass[1], fail[1])
	if pass[1] == "0" {
		t.Error("no unit tests ran")
	}
}

// TestVSCodePackage checks `npm run package`: a .vsix holding the bundled
// client and the linux-x64 server with its run bit, which code-server installs.
func TestVSCodePackage(t *testing.T) {
	heavy(t)
	dir := extensionDir(t)
	npm(t, dir, "run", "package")
	vsix := filepath.Join(dir, "extern-lsp-linux-x64.vsix")
	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	for _, name := range []string{"extension/package.json", "extension/dist/extension.js", "extension/readme.md", "extension/bin/linux-x64/extern-lsp"} {
		if files[name] == nil {
			t.Errorf("%s is missing from the .vsix", name)
		}
	}
	for name := range files {
		if strings.Contains(name, "node_modules/") || strings.HasPrefix(name, "extension/src/") || strings.HasPrefix(name, "extension/out/") {
			t.Errorf("%s should not be packaged", name)
		}
	}
	if f := files["extension/bin/linux-x64/extern-lsp"]; f != nil && f.Mode()&0o111 == 0 {
		t.Errorf("the bundled server lost its run bit: %v", f.Mode())
	}
	cs := editortest.FindExecutable(editortest.Cached("code-server", "node_modules/.bin/code-server"))
	if cs == "" {
		editortest.Missing(t, "vscode", "no code-server")
	}
	extDir := t.TempDir()
	cmd := exec.Command(cs, "--extensions-dir", extDir, "--user-data-dir", t.TempDir(), "--install-extension", vsix)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("code-server --install-extension: %v\n%s", err, out)
	}
	installed, _ := filepath.Glob(filepath.Join(extDir, "extern-lsp.extern-lsp-*"))
	if len(installed) != 1 {
		t.Fatalf("want one installed extern-lsp extension in %s, got %v", extDir, installed)
	}
	bin := filepath.Join(installed[0], "bin", "linux-x64", "extern-lsp")
	if st, err := os.Stat(bin); err != nil || st.Mode()&0o111 == 0 {
		entries, _ := os.ReadDir(extDir)
		t.Fatalf("installed extension has no runnable server at %s (%v); extensions dir: %v", bin, err, entries)
	}
	if out, err := exec.Command(bin, "--help").CombinedOutput(); err != nil {
		t.Errorf("the installed server does not run: %v\n%s", err, out)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
