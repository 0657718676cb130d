package vscode_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// TestVSCodeScreenshot takes docs/screenshot.png's picture: test/features
// waits, in code-server's real workbench in headless Chromium, until the
// example kernel shows diagnostics, the code lens, inlay hints, the cube
// per-core view and the hover on args[3] (it fails if one never appears),
// and the window is captured. The capture must be a real PNG of the
// window; EXTERN_LSP_UPDATE_SCREENSHOT=1 writes it to docs/screenshot.png.
func TestVSCodeScreenshot(t *testing.T) {
	ws := editortest.Workspace(t)
	shot := filepath.Join(t.TempDir(), "screenshot.png")
	logs, err := runWorkbench(t, "features", ws, map[string]any{
		"workbench.colorTheme":      "Default Dark Modern",
		"editor.fontSize":           14,
		"editor.minimap.enabled":    false,
		"editor.inlayHints.enabled": "on",
	}, []string{"SCREENSHOT=" + shot})
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
		if err := os.WriteFile(filepath.Join(editortest.RepoRoot(t), "docs", "screenshot.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("wrote docs/screenshot.png")
	}
}
