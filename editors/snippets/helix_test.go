package snippets_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// TestHelixE2E runs the real Helix (hx) in a pseudo-terminal (`script`) with
// snippets/helix-languages.toml, on the pypto-lib-shaped testdata/noroot
// started from its top folder as a user would: it types a search for
// args[1] and `space k`, then quits. The server's log and the terminal
// output must show the session: initialize from Helix with the folder as
// root, pulled diagnostics, inlay hints naming the stub's parameters (and the
// out-of-range slot), and the hover naming `gamma`.
func TestHelixE2E(t *testing.T) {
	hx := editortest.FindExecutable(os.Getenv("EXTERN_LSP_HX"), editortest.Cached("helix", "hx"))
	if hx == "" {
		editortest.Missing(t, "helix", "no Helix (cache helix/hx or $EXTERN_LSP_HX)")
	}
	script := editortest.FindExecutable("/usr/bin/script", "script")
	if script == "" {
		editortest.Missing(t, "helix", "no `script` (util-linux) to give Helix a terminal")
	}
	bin := editortest.BuildServer(t)
	tree := t.TempDir()
	analysistest.CopyTree(t, filepath.Join(editortest.RepoRoot(t), "testdata", "noroot"), tree)
	cfg := filepath.Join(t.TempDir(), "helix")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	serverLog := filepath.Join(t.TempDir(), "server.log")
	langs, err := os.ReadFile("helix-languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The snippet as shipped, with the freshly built server and a log.
	l := strings.Replace(string(langs), `command = "extern-lsp"`,
		`command = "`+bin+`"`+"\n"+`args = ["serve", "--log-file", "`+serverLog+`"]`, 1)
	if l == string(langs) {
		t.Fatal(`the snippet no longer says command = "extern-lsp"`)
	}
	writeFile(t, filepath.Join(cfg, "languages.toml"), l)
	writeFile(t, filepath.Join(cfg, "config.toml"), "[editor.lsp]\ndisplay-inlay-hints = true\n")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	typescript := filepath.Join(t.TempDir(), "typescript")
	header := filepath.Join("models", "rms", "kernels", "rms_norm", "kernel", "rms_body.hpp")
	cmd := exec.CommandContext(ctx, script, "-qfec", hx+" "+header, typescript)
	cmd.Dir = tree
	env := append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Dir(cfg), "TERM=xterm-256color")
	if rt := filepath.Join(filepath.Dir(hx), "usr", "lib", "hx", "runtime"); isDir(rt) {
		env = append(env, "HELIX_RUNTIME="+rt)
	}
	cmd.Env = env
	keys, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Waits are for what the session shows (the server's log, the
	// terminal's screen), not for fixed times: on a loaded machine a
	// redraw or a hover can take seconds. The deadline only bounds a
	// session that never shows it.
	waitFor := func(what string, has func() bool) bool {
		for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if has() {
				return true
			}
		}
		t.Errorf("Helix never %s", what)
		return false
	}
	logHas := func(re *regexp.Regexp) func() bool {
		return func() bool { b, _ := os.ReadFile(serverLog); return re.Match(b) }
	}
	screenHas := func(want string) func() bool {
		return func() bool { return strings.Contains(flatScreen(typescript), want) }
	}
	if waitFor("asked for inlay hints", logHas(regexp.MustCompile(`textDocument/inlayHint`))) {
		time.Sleep(1500 * time.Millisecond) // drawn on the next redraw
		io.WriteString(keys, "/args\\[1\\]\r")
		time.Sleep(500 * time.Millisecond)
		io.WriteString(keys, " k")
		waitFor("asked for a hover", logHas(regexp.MustCompile(`textDocument/hover`)))
		waitFor("drew the hover", screenHas("gamma:tensor2of3"))
		waitFor("drew the inlay hint", screenHas("gamma)"))
	}
	// Escape alone (a key after it too soon reads as Alt+key), then quit;
	// again if a busy machine delivered both at once and Helix stayed.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	quit := false
	for try := 0; try < 5 && !quit; try++ {
		io.WriteString(keys, "\x1b")
		time.Sleep(500 * time.Millisecond)
		io.WriteString(keys, ":q!\r")
		select {
		case err := <-exited:
			quit = true
			if err != nil {
				t.Errorf("hx: %v", err)
			}
		case <-time.After(10 * time.Second):
		}
	}
	if !quit {
		t.Errorf("Helix did not quit on :q!")
	}
	slog, _ := os.ReadFile(serverLog)
	if !regexp.MustCompile(`initialize from "helix [^"]*", roots \[` + regexp.QuoteMeta(tree) + `\]`).Match(slog) {
		t.Errorf("no initialize from Helix with root %s in the server log:\n%s", tree, slog)
	}
	if !strings.Contains(string(slog), "textDocument/diagnostic") {
		t.Errorf("Helix never pulled diagnostics:\n%s", slog)
	}
	flat := flatScreen(typescript)
	for _, want := range []string{
		"gamma)",                // the inlay hint after args[1]
		"outofrange",            // the inlay hint of the slot past the ABI
		"gamma:tensor2of3",      // the hover
		"args[1]—readasatensor", // its title
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("Helix's screen never showed %q", want)
		}
	}
	if t.Failed() {
		t.Logf("server log:\n%s", slog)
	}
}

// flatScreen is what the terminal showed, without escape sequences and
// blanks: Helix redraws only the cells that change, so words can arrive
// split by cursor moves.
func flatScreen(typescript string) string {
	raw, _ := os.ReadFile(typescript)
	screen := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAllString(string(raw), "")
	return strings.Join(strings.Fields(screen), "")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
