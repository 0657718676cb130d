package nvim_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// result is what test/e2e.lua writes.
type result struct {
	Nvim             string            `json:"nvim"`
	Mode             string            `json:"mode"`
	Errors           []string          `json:"errors"`
	Filetype         string            `json:"filetype"`
	Attached         bool              `json:"attached"`
	RootDir          string            `json:"root_dir"`
	DiagnosticsReady bool              `json:"diagnostics_ready"`
	Diagnostics      []diag            `json:"diagnostics"`
	Hover            map[string]string `json:"hover"`
	InlayHints       []hint            `json:"inlay_hints"`
	InlayHintsShown  *int              `json:"inlay_hints_shown"`
	Abi              string            `json:"abi"`
	AbiFiletype      string            `json:"abi_filetype"`
	IgnoreCleared    bool              `json:"ignore_cleared"`
	IgnoredDiags     []diag            `json:"ignored_diagnostics"`
	IgnoreRestored   bool              `json:"ignore_restored"`
	CodeActions      []action          `json:"code_actions"`
	FixedLine        string            `json:"fixed_line"`
	FixCleared       bool              `json:"fix_cleared"`
	CodeLenses       []struct {
		Line    int    `json:"line"`
		Title   string `json:"title"`
		Command string `json:"command"`
	} `json:"code_lenses"`
	LensAbi  string           `json:"lens_abi"`
	CoreView map[string][]int `json:"core_view"`
}

type diag struct {
	Lnum    int    `json:"lnum"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Source  string `json:"source"`
}

type hint struct {
	Line      int    `json:"line"`
	Character int    `json:"character"`
	Label     string `json:"label"`
}

type action struct {
	Title     string `json:"title"`
	Kind      string `json:"kind"`
	Preferred bool   `json:"preferred"`
}

// nvim012 finds Neovim 0.11+ (the vim.lsp.config API): the CI cache, then PATH.
func nvim012(t *testing.T) string {
	if p := editortest.FindExecutable(os.Getenv("EXTERN_LSP_NVIM"), editortest.Cached("nvim-0.12", "nvim")); p != "" {
		return p
	}
	if p := editortest.FindExecutable("nvim"); p != "" {
		out, _ := exec.Command(p, "--headless", "--clean", "-c", "lua io.write(vim.fn.has('nvim-0.11'))", "-c", "qa!").Output()
		if strings.TrimSpace(string(out)) == "1" {
			return p
		}
	}
	editortest.Missing(t, "nvim", "no Neovim 0.11+ (cache nvim-0.12/nvim, $EXTERN_LSP_NVIM or nvim on PATH)")
	return ""
}

// nvimCases are the Neovim versions and configuration styles tested.
var nvimCases = []struct {
	name string
	nvim func(*testing.T) string
	mode string
}{
	// The 0.11+ way: lsp/extern_lsp.lua + vim.lsp.enable.
	{"0.12-lsp-config", nvim012, "config"},
	// setup() through vim.lsp.start, as on older versions.
	{"0.12-setup", nvim012, "setup"},
	{"0.10-setup", func(t *testing.T) string {
		p := editortest.FindExecutable(os.Getenv("EXTERN_LSP_NVIM010"), editortest.Cached("nvim-0.10", "nvim"))
		if p == "" {
			editortest.Missing(t, "nvim-0.10", "no Neovim 0.10 (cache nvim-0.10/nvim or $EXTERN_LSP_NVIM010)")
		}
		return p
	}, "setup"},
}

func TestNeovim(t *testing.T) {
	bin := editortest.BuildServer(t)
	for _, tc := range nvimCases {
		t.Run(tc.name, func(t *testing.T) {
			nvim := tc.nvim(t)
			ws := editortest.Workspace(t)
			var r result
			runDriver(t, nvim, "e2e.lua", ws, editortest.Kernel, tc.mode, bin, nil, &r)
			check(t, ws, r)
		})
	}
}

func check(t *testing.T, ws string, r result) {
	for _, e := range r.Errors {
		t.Errorf("driver: %s", e)
	}
	if !r.Attached {
		t.Fatalf("extern_lsp never attached to %s", editortest.Kernel)
	}
	if r.Filetype != "cpp" {
		t.Errorf("filetype = %q, want cpp", r.Filetype)
	}
	if !strings.HasPrefix(r.RootDir, ws) && !strings.HasPrefix(ws, r.RootDir) || r.RootDir == "" {
		t.Errorf("root_dir = %q, want the workspace %s (pyproject.toml)", r.RootDir, ws)
	}
	var got []editortest.Diag
	for _, d := range r.Diagnostics {
		if d.Source != "extern-lsp" {
			t.Errorf("diagnostic source = %q, want extern-lsp (%s)", d.Source, d.Message)
		}
		got = append(got, editortest.Diag{Line: d.Lnum, Code: d.Code, Message: d.Message})
	}
	editortest.CheckDiagnostics(t, "nvim "+r.Nvim, editortest.Wants(t, filepath.Join(ws, editortest.Kernel)), got)

	for i, name := range editortest.ParamNames {
		h := r.Hover[string(rune('0'+i))]
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(h) {
			t.Errorf("hover on args[%d] = %q, want it to name %s", i, h, name)
		}
	}
	for _, name := range editortest.ParamNames {
		found := false
		for _, h := range r.InlayHints {
			if strings.Contains(h.Label, name) {
				found = true
			}
		}
		if !found {
			t.Errorf("no inlay hint naming %s; got %+v", name, r.InlayHints)
		}
	}
	if r.InlayHintsShown != nil && *r.InlayHintsShown == 0 {
		t.Errorf("vim.lsp.inlay_hint.get() is empty after enabling inlay hints")
	}
	for _, name := range editortest.ParamNames {
		if !strings.Contains(r.Abi, name) {
			t.Errorf(":ExternLspAbi output lacks %s:\n%s", name, r.Abi)
		}
	}
	if r.AbiFiletype != "markdown" {
		t.Errorf(":ExternLspAbi buffer filetype = %q, want markdown", r.AbiFiletype)
	}
	if len(r.CodeLenses) != 1 || r.CodeLenses[0].Title != "scale_add · args: 3 tensors, 2 scalars · mixed · needs sync_start" || r.CodeLenses[0].Line != 4 {
		t.Errorf("code lenses = %+v, want the scale_add summary above the entry (line 5)", r.CodeLenses)
	}
	if !strings.Contains(r.LensAbi, "`elem_count`") {
		t.Errorf("the code lens command showed %q, want the args[] table", r.LensAbi)
	}
	if r.CoreView == nil {
		t.Errorf("no per-core view result")
	} else {
		// 0-based lines of kernels/scale_add.cpp: the vector-only block is
		// 13-14, the cube-only line 17.
		for view, want := range map[string]string{"cube": "[13 14]", "vector": "[17]", "off": "[]"} {
			if got := fmt.Sprint(r.CoreView[view]); got != want {
				t.Errorf(":ExternLspCoreView %s dims lines %s, want %s", view, got, want)
			}
		}
	}
	if !r.IgnoreCleared {
		t.Errorf("ignore = {EXT004} did not clear EXT004: %+v", r.IgnoredDiags)
	}
	if !r.IgnoreRestored {
		t.Errorf("ignore = {} did not bring EXT004 back")
	}
	if !strings.Contains(r.FixedLine, "AscendC::SyncAll<false>();") {
		t.Errorf("after the EXT004 quick fix the line is %q, want AscendC::SyncAll<false>(); (actions: %+v)", r.FixedLine, r.CodeActions)
	}
	if !r.FixCleared {
		t.Errorf("EXT004 still reported after the quick fix")
	}
}

// runDriver runs a test/*.lua driver headless in dir on file and decodes
// the JSON it writes into res.
func runDriver(t *testing.T, nvim, driver, dir, file, mode, bin string, env []string, res any) {
	t.Helper()
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", filepath.Join(plugin, "test", driver), file)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...),
		"E2E_PLUGIN="+plugin, "EXTERN_LSP_BIN="+bin, "E2E_OUT="+out, "E2E_MODE="+mode,
		"XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, logs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, logs)
	}
	if err := json.Unmarshal(b, res); err != nil {
		t.Fatalf("bad result JSON: %v\n%s", err, b)
	}
	t.Logf("nvim %s (%s): %s", nvim, mode, b)
}

// noRootResult is what test/noroot.lua writes.
type noRootResult struct {
	Nvim       string   `json:"nvim"`
	Mode       string   `json:"mode"`
	Errors     []string `json:"errors"`
	Attached   bool     `json:"attached"`
	RootDir    string   `json:"root_dir"`
	Codes      []string `json:"codes"`
	Hover      string   `json:"hover"`
	InlayHints []string `json:"inlay_hints"`
	Definition string   `json:"definition"`
	Explain    string   `json:"explain"`
	Abi        string   `json:"abi"`
}

// TestNeovimNoRoot: a body header outside any repository (no .git, no
// pyproject.toml; the pypto-lib layout) attaches with the stub's folder as
// its root, so hover, inlay hints, definition and the ABI diagnostics work;
// :ExternLspExplain runs from a buffer without a client, and :ExternLspAbi
// shows the CLI's table when the C++ disagrees with the stub (exit 1).
func TestNeovimNoRoot(t *testing.T) {
	bin := editortest.BuildServer(t)
	for _, tc := range nvimCases {
		t.Run(tc.name, func(t *testing.T) {
			nvim := tc.nvim(t)
			tree := t.TempDir()
			analysistest.CopyTree(t, filepath.Join(editortest.RepoRoot(t), "testdata", "noroot"), tree)
			stubDir := filepath.Join(tree, "models", "rms")
			kernel := filepath.Join(stubDir, "kernels", "rms_norm", "kernel")
			var r noRootResult
			// The binary is not on PATH: every command must use the configured one.
			runDriver(t, nvim, "noroot.lua", kernel, "rms_body.hpp", tc.mode, bin, []string{"PATH=/usr/bin:/bin"}, &r)
			for _, e := range r.Errors {
				t.Errorf("driver: %s", e)
			}
			if !r.Attached || r.RootDir != stubDir {
				t.Errorf("attached %v with root %q, want %s (the folder holding the stub)", r.Attached, r.RootDir, stubDir)
			}
			if strings.Join(r.Codes, ",") != "EXT101,EXT102" {
				t.Errorf("diagnostics %v, want EXT101 and EXT102 (they need the stub)", r.Codes)
			}
			if !strings.Contains(r.Hover, "`gamma`: tensor 2 of 3") {
				t.Errorf("hover on args[1] = %q", r.Hover)
			}
			if !strings.Contains(strings.Join(r.InlayHints, ","), "gamma") {
				t.Errorf("inlay hints %v, want one naming gamma", r.InlayHints)
			}
			if r.Definition != "file://"+filepath.Join(stubDir, "rms_ops.py") {
				t.Errorf("definition of args[0] = %q", r.Definition)
			}
			if !strings.HasPrefix(r.Explain, "EXT102 args-out-of-range") {
				t.Errorf(":ExternLspExplain EXT102 showed %q", r.Explain)
			}
			if !strings.Contains(r.Abi, "extern rms_norm") || !strings.Contains(r.Abi, "the C++ disagrees with this table") {
				t.Errorf(":ExternLspAbi through the CLI showed %q", r.Abi)
			}
		})
	}
}

// refreshResult is what test/refresh.lua writes.
type refreshResult struct {
	Nvim     string   `json:"nvim"`
	Errors   []string `json:"errors"`
	Attached bool     `json:"attached"`
	Before   []string `json:"before"`
	Cleared  bool     `json:"cleared"`
	After    []string `json:"after"`
	Notified []string `json:"notified"`
	Health   string   `json:"health"`
	Clangd   string   `json:"clangd"`
}

// TestNeovimRefresh: a stub's EXT105 (its C++ uses SyncAll<false>) clears
// in the stub's buffer after the C++ is fixed in another buffer and saved:
// the plugin pulls the buffers' diagnostics again when the server sends
// workspace/diagnostic/refresh.
func TestNeovimRefresh(t *testing.T) {
	bin := editortest.BuildServer(t)
	for _, tc := range nvimCases {
		t.Run(tc.name, func(t *testing.T) {
			nvim := tc.nvim(t)
			dir := t.TempDir()
			files := map[string]string{
				"pyproject.toml": "[project]\nname = \"refresh\"\n",
				"ops.py": "import pypto.language as pl\n\n\n" +
					"@pl.jit.extern(core_type=\"mixed\", aic_source=\"kernels/fused.cpp\", aiv_source=\"kernels/fused.cpp\")\n" +
					"def fused(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:\n    ...\n",
				"kernels/orphan.cpp": "extern \"C\" __global__ __aicore__ void orphan(__gm__ int64_t *args) {}\n",
				"kernels/fused.cpp":  "#include \"kernel_operator.h\"\n\nextern \"C\" __global__ __aicore__ void fused(__gm__ int64_t *args)\n{\n    AscendC::SyncAll<false>();\n}\n",
			}
			for name, src := range files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var r refreshResult
			runDriver(t, nvim, "refresh.lua", dir, "ops.py", tc.mode, bin, nil, &r)
			for _, e := range r.Errors {
				t.Errorf("driver: %s", e)
			}
			if !r.Attached || !strings.Contains(strings.Join(r.Before, ","), "EXT105") {
				t.Fatalf("attached %v, stub diagnostics %v: want EXT105 before the fix", r.Attached, r.Before)
			}
			if !r.Cleared {
				t.Errorf("after fixing and saving the C++ the stub still shows %v, want no EXT105", r.After)
			}
			// What the server cannot see is said once, and :checkhealth
			// lists it with the fix.
			said := 0
			for _, m := range r.Notified {
				if strings.Contains(m, "1 extern entry under "+dir+" no stub links (kernels/orphan.cpp)") {
					said++
				}
			}
			if said != 1 {
				t.Errorf("warnings %q: want the orphan entry said once", r.Notified)
			}
			if b, err := os.ReadFile(filepath.Join(dir, ".clangd")); r.Clangd != filepath.Join(dir, ".clangd") || err != nil || !strings.Contains(string(b), "-D__DAV_C220_CUBE__=1") {
				t.Errorf(":ExternLspClangdConfig cube wrote %q (%v):\n%s", r.Clangd, err, b)
			}
			if !strings.Contains(r.Health, "no stub links (kernels/orphan.cpp)") || !strings.Contains(r.Health, "name the entry in its stub") {
				t.Errorf(":checkhealth extern_lsp does not list the gap:\n%s", r.Health)
			}
		})
	}
}
