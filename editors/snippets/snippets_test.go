package snippets_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// The README shows these files verbatim, so what users copy is what is tested.
var snippets = []string{"eglot.el", "ale.vim", "helix-languages.toml", "zed-settings.json", "sublime-LSP.sublime-settings"}

func TestReadmeShowsSnippetsVerbatim(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range snippets {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), string(b)) {
			t.Errorf("editors/README.md does not contain editors/snippets/%s verbatim", name)
		}
	}
}

func TestHelixLanguagesToml(t *testing.T) {
	var cfg struct {
		LanguageServer map[string]struct {
			Command string
			Config  map[string]any
		} `toml:"language-server"`
		Language []struct {
			Name            string
			FileTypes       []string `toml:"file-types"`
			LanguageServers []string `toml:"language-servers"`
		} `toml:"language"`
	}
	md, err := toml.DecodeFile("helix-languages.toml", &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if u := md.Undecoded(); len(u) > 0 && !strings.HasPrefix(u[0].String(), "language-server.extern-lsp.config") {
		t.Errorf("keys Helix would not read as intended: %v", u)
	}
	srv, ok := cfg.LanguageServer["extern-lsp"]
	if !ok || srv.Command != "extern-lsp" {
		t.Fatalf("[language-server.extern-lsp] command = %q, want extern-lsp", srv.Command)
	}
	if _, ok := srv.Config["externLsp"].(map[string]any); !ok {
		t.Errorf("config lacks the externLsp section: %v", srv.Config)
	}
	got := map[string]bool{}
	for _, l := range cfg.Language {
		for _, s := range l.LanguageServers {
			if s == "extern-lsp" {
				got[l.Name] = true
			}
		}
		for _, ext := range []string{"cce", "asc"} {
			if l.Name == "cpp" && !contains(l.FileTypes, ext) {
				t.Errorf("cpp file-types lack %s: %v", ext, l.FileTypes)
			}
		}
	}
	for _, lang := range []string{"c", "cpp", "python"} {
		if !got[lang] {
			t.Errorf("language %s does not list extern-lsp", lang)
		}
	}
}

func TestJSONSnippets(t *testing.T) {
	for _, name := range []string{"zed-settings.json", "sublime-LSP.sublime-settings"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(string(b), `"externLsp"`) || !strings.Contains(string(b), `"extern-lsp"`) {
			t.Errorf("%s does not configure extern-lsp with an externLsp section", name)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// runProbe runs an editor on the fixture kernel with the freshly built server
// first in PATH (the snippets name plain `extern-lsp`), the snippet file in
// E2E_SNIPPET, and decodes the JSON its probe writes. In args, "$SNIPPETS"
// stands for this directory.
func runProbe(t *testing.T, editor, snippet string, args []string, out any) string {
	bin := editortest.BuildServer(t)
	ws := editortest.Workspace(t)
	outFile := filepath.Join(t.TempDir(), "out.json")
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "$SNIPPETS", dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, editor, args...)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"E2E_OUT="+outFile, "E2E_SNIPPET="+filepath.Join(dir, snippet), "HOME="+t.TempDir())
	logs, err := cmd.CombinedOutput()
	b, rerr := os.ReadFile(outFile)
	if rerr != nil {
		t.Fatalf("%s wrote no result (%v, %v)\n%s", editor, rerr, err, logs)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("bad JSON from %s: %v\n%s", editor, err, b)
	}
	t.Logf("%s: %s", filepath.Base(editor), b)
	return ws
}

func TestEmacsEglot(t *testing.T) {
	emacs := editortest.FindExecutable("emacs")
	if emacs == "" {
		editortest.Missing(t, "emacs", "no emacs on PATH")
	}
	var r struct {
		Emacs       string `json:"emacs"`
		Error       string `json:"error"`
		Connected   bool   `json:"connected"`
		Diagnostics []struct {
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"diagnostics"`
		Hover string `json:"hover"`
	}
	ws := runProbe(t, emacs, "eglot.el", []string{"--batch", "-l", "$SNIPPETS/testdata/eglot-e2e.el", editortest.Kernel}, &r)
	if r.Error != "" {
		t.Errorf("emacs: %s", r.Error)
	}
	if !r.Connected {
		t.Fatal("eglot did not connect to extern-lsp")
	}
	// eglot shows "extern-lsp [CODE]: message".
	code := regexp.MustCompile(`\[(EXT\d+)\]: `)
	var got []editortest.Diag
	for _, d := range r.Diagnostics {
		c, msg := "", d.Text
		if m := code.FindStringSubmatchIndex(d.Text); m != nil {
			c, msg = d.Text[m[2]:m[3]], d.Text[m[1]:]
		}
		got = append(got, editortest.Diag{Line: d.Line, Code: c, Message: msg})
	}
	editortest.CheckDiagnostics(t, "emacs "+r.Emacs, editortest.Wants(t, filepath.Join(ws, editortest.Kernel)), got)
	if !regexp.MustCompile(`\belem_count\b`).MatchString(r.Hover) {
		t.Errorf("eglot hover on args[3] = %q, want it to name elem_count", r.Hover)
	}
}

func TestVimALE(t *testing.T) {
	vim := editortest.FindExecutable("vim")
	if vim == "" {
		editortest.Missing(t, "vim", "no vim on PATH")
	}
	if _, err := os.Stat("/usr/share/vim-ale/plugin/ale.vim"); err != nil {
		editortest.Missing(t, "vim", "no ALE (/usr/share/vim-ale)")
	}
	var r struct {
		Vim         int    `json:"vim"`
		Filetype    string `json:"filetype"`
		Diagnostics []struct {
			Line int    `json:"line"`
			Code string `json:"code"`
			Text string `json:"text"`
		} `json:"diagnostics"`
	}
	ws := runProbe(t, vim, "ale.vim", []string{"-N", "-es", "-u", "$SNIPPETS/testdata/ale-e2e.vim", "-c", "call E2EProbe()", editortest.Kernel}, &r)
	if r.Filetype != "cpp" {
		t.Errorf("filetype = %q, want cpp", r.Filetype)
	}
	var got []editortest.Diag
	for _, d := range r.Diagnostics {
		got = append(got, editortest.Diag{Line: d.Line, Code: d.Code, Message: d.Text})
	}
	editortest.CheckDiagnostics(t, "vim+ALE", editortest.Wants(t, filepath.Join(ws, editortest.Kernel)), got)
}
