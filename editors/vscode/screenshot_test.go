package vscode_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// TestVSCodeScreenshot takes docs/screenshot.png's picture: test/features
// waits, in code-server's real workbench in headless Chromium, until the
// example kernel shows diagnostics, the code lens, inlay hints, the cube
// per-core view and the hover on args[3] (it fails if one never appears),
// and the window is captured. The capture must be a real PNG of the
// window; EXTERN_LSP_UPDATE_SCREENSHOT=1 writes it to docs/screenshot.png.
func TestVSCodeScreenshot(t *testing.T) {
	heavy(t)
	csDir := filepath.Join(editortest.CacheDir(), "code-server")
	if editortest.FindExecutable(editortest.Cached("code-server", "node_modules/.bin/code-server")) == "" {
		editortest.Missing(t, "vscode", "no code-server ("+csDir+")")
	}
	if editortest.FindExecutable("/usr/bin/chromium") == "" {
		editortest.Missing(t, "vscode", "no chromium (/usr/bin/chromium)")
	}
	extDir := extensionDir(t)
	npm(t, extDir, "run", "build")
	bin := editortest.BuildServer(t)
	ws := editortest.Workspace(t)
	settings := filepath.Join(t.TempDir(), "settings.json")
	s, _ := json.Marshal(map[string]any{
		"security.workspace.trust.enabled": false,
		"telemetry.telemetryLevel":         "off",
		"extensions.autoCheckUpdates":      false,
		"extensions.autoUpdate":            false,
		"update.mode":                      "none",
		"workbench.startupEditor":          "none",
		"workbench.colorTheme":             "Default Dark Modern",
		"editor.fontSize":                  14,
		"editor.minimap.enabled":           false,
		"editor.inlayHints.enabled":        "on",
		"externLsp.path":                   bin,
	})
	if err := os.WriteFile(settings, s, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.TempDir(), "screenshot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := editortest.RepoRoot(t)
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "editors", "ci", "run-vscode-tests.sh"),
		extDir, filepath.Join(extDir, "out", "test", "features", "index.js"), ws, settings)
	cmd.Env = append(os.Environ(), "CS_DIR="+csDir, fmt.Sprintf("PORT=%d", freePort(t)), "SCREENSHOT="+shot)
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the features pose failed: %v\n%s", err, tail(logs, 60))
	}
	for _, want := range []string{"features: code lens \"scale_add · args: 3 tensors, 2 scalars", "inlay hints", "cube view dims lines", "hover(s) on args[3]", "screenshot: " + shot} {
		if !strings.Contains(string(logs), want) {
			t.Errorf("the run did not log %q\n%s", want, tail(logs, 40))
		}
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, tail(logs, 40))
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 760 {
		t.Errorf("screenshot is %dx%d, want the 1280x760 window", b.Dx(), b.Dy())
	}
	if os.Getenv("EXTERN_LSP_UPDATE_SCREENSHOT") == "1" {
		if err := os.WriteFile(filepath.Join(root, "docs", "screenshot.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("wrote docs/screenshot.png")
	}
}
