package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

func runABIIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := testCLI(nil, &out, &errb).run(append([]string{"abi"}, args...))
	return out.String(), errb.String(), code
}

func TestABIHeaderTwoTables(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/abi/qwen")
	out, stderr, code := runABIIn(t, dir, "kernels/qwen_fai/qwen_fai.h")
	// The header's planted bugs contradict both tables: exit 1.
	if code != 1 || !strings.Contains(stderr, "the C++ disagrees with the stub in 4 place(s)") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"  the C++ disagrees with this table:\n    kernels/qwen_fai/qwen_fai.h:42:20: EXT102 args[16] is past the end for extern `paged_attention_cce`",
		"    kernels/qwen_fai/qwen_fai.h:41:28: EXT101 args[7] is tensor `q_proj` (tensor 8 of 17) of extern `paged_attention_rope_cce`",
		"compiled under 2 extern ABIs",
		"extern paged_attention_cce  (attention.py:17)  core_type=mixed, dual_aiv_dispatch  7 tensors + 1 scalar",
		"extern paged_attention_rope_cce  (attention.py:39)  core_type=mixed, dual_aiv_dispatch  17 tensors + 2 scalars",
		"17      cache_row_offset  scalar  in     INDEX   7",
		"tensors args[0..16], scalars args[17..18]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestABIOrchestrationSwapped(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/abi/qwen")
	out, _, code := runABIIn(t, dir, "attention.py", "--orchestration", "orchestration/decode_layer.cpp")
	if code != 1 {
		t.Errorf("exit %d, want 1 (differences found)", code)
	}
	for _, want := range []string{
		"params_t0 (paged_attention_cce, line 23): matches the stub (8 args)",
		"params_t1 (paged_attention_rope_cce, line 36): 4 differences from the stub",
		"orchestration/decode_layer.cpp:37: args[0]: the orchestration passes `add_input(query_tnd)`, the stub declares `out` as pl.Out",
		"return alias `attn_out_ssa = query_tnd` binds args[0]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	js, _, _ := runABIIn(t, dir, "--format", "json", "attention.py", "--orchestration", "orchestration/decode_layer.cpp")
	var r abiJSON
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("json: %v\n%s", err, js)
	}
	if len(r.Externs) != 2 || r.Externs[1].Params[17].Name != "cache_row_offset" || r.Externs[1].Params[17].Position != 7 {
		t.Errorf("json externs: %+v", r.Externs)
	}
	if r.Orchestration == nil || len(r.Orchestration.Tasks) != 2 || len(r.Orchestration.Tasks[1].Differences) != 4 {
		t.Errorf("json orchestration: %+v", r.Orchestration)
	}
}

func TestABIUsage(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/abi/qwen")
	if _, _, code := runABIIn(t, dir); code != 2 {
		t.Errorf("no path: exit %d, want 2", code)
	}
	if _, _, code := runABIIn(t, dir, "nope.py"); code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
	if _, _, code := runABIIn(t, dir, "attention.py", "--format", "xml"); code != 2 {
		t.Errorf("bad format: exit %d, want 2", code)
	}
	if _, stderr, code := runABIIn(t, dir, "orchestration/decode_layer.cpp"); code != 1 || !strings.Contains(stderr, "belongs to no @pl.jit.extern stub") {
		t.Errorf("non-extern file: exit %d, %s", code, stderr)
	}
}

// TestABIExitsOnDisagreement: the real binary exits 0 when the C++ reads
// match the stub, 1 with the disagreements listed (text and JSON) when they
// do not, and a NOLINT on the read silences it here as in check.
func TestABIExitsOnDisagreement(t *testing.T) {
	if r := runBinary(t, "../../examples/clean", "abi", "."); r.code != 0 {
		t.Errorf("abi examples/clean: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, kernel := noRootTree(t)
	r := runBinary(t, kernel, "abi", "--format", "json", "rms_body.hpp")
	if r.code != 1 || !strings.Contains(r.stderr, "the C++ disagrees with the stub in 2 place(s)") {
		t.Fatalf("abi rms_body.hpp: exit %d, stderr %s", r.code, r.stderr)
	}
	var out abiJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Externs[0].Disagreements {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", d.File, d.Line, d.Column, d.Code))
	}
	if want := "rms_body.hpp:8:20 EXT101,rms_body.hpp:9:20 EXT102"; strings.Join(got, ",") != want {
		t.Errorf("disagreements %v, want %s", got, want)
	}
	body := filepath.Join(kernel, "rms_body.hpp")
	src, _ := os.ReadFile(body)
	fixed := strings.Replace(strings.Replace(string(src), "args[2]; //", "args[3]; //", 1), "args[4]; // want", "args[4]; // NOLINT(EXT102) want", 1)
	if err := os.WriteFile(body, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBinary(t, kernel, "abi", "rms_body.hpp"); r.code != 0 || strings.Contains(r.stdout, "disagrees") {
		t.Errorf("after the fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestABIAndCheckShareIncludeDirs: the body header of an extern is found
// only through the project's include-dirs; `check` and `abi` see it the
// same way, so both report its out-of-range read and exit 1.
func TestABIAndCheckShareIncludeDirs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("kernels", 0o755)
	os.MkdirAll("sdk/body", 0o755)
	os.WriteFile("ops.py", []byte("import pypto.language as pl\n\n@pl.jit.extern(source=\"kernels/k.cpp\")\ndef k(x: pl.Tensor, n: pl.INDEX):\n    ...\n"), 0o644)
	os.WriteFile("kernels/k.cpp", []byte("#include \"body.h\"\nextern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n  body(args);\n}\n"), 0o644)
	os.WriteFile("sdk/body/body.h", []byte("#pragma once\n__aicore__ inline void body(__gm__ int64_t *args) {\n  int64_t n = args[4];\n  (void)n;\n}\n"), 0o644)
	os.WriteFile("extern-lsp.toml", []byte("include-dirs = [\"sdk/body\"]\n"), 0o644)
	c := runCmd("check", "--no-progress", "--format", "concise", "--root", ".", ".")
	if c.code != 1 || !strings.Contains(c.stdout, "body.h:3:15: error: EXT102") {
		t.Fatalf("check: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
	a := runCmd("abi", "--root", ".", "ops.py")
	if a.code != 1 || !strings.Contains(a.stdout, "EXT102") {
		t.Errorf("abi: exit %d, want 1 with the EXT102 check reports\n%s%s", a.code, a.stdout, a.stderr)
	}
}

// TestABIAndCheckAgree runs `check` and `abi` over every rule fixture: the
// args[] disagreements abi lists are the findings of the ABI rules check
// reports, at the same places.
func TestABIAndCheckAgree(t *testing.T) {
	roots, err := filepath.Glob(filepath.Join("..", "..", "analysis", "rules", "testdata", "*"))
	if err != nil || len(roots) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	codes := map[string]bool{}
	for _, a := range abiRules {
		codes[a.Code] = true
	}
	concise := regexp.MustCompile(`^(.+?):(\d+):(\d+): \w+: (EXT\d+) `)
	compared := 0
	for _, root := range roots {
		root, _ = filepath.Abs(root)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(root), func(t *testing.T) {
			t.Chdir(root)
			// A place two externs read differently is one finding per
			// extern: compared as places.
			seen := map[string]bool{}
			var fromCheck []string
			c := runCmd("check", "--no-progress", "--no-color", "--format", "concise", "--root", ".", ".")
			for _, line := range strings.Split(c.stdout, "\n") {
				if m := concise.FindStringSubmatch(line); m != nil && codes[m[4]] {
					if k := fmt.Sprintf("%s:%s:%s %s", m[1], m[2], m[3], m[4]); !seen[k] {
						seen[k] = true
						fromCheck = append(fromCheck, k)
					}
				}
			}
			a := runCmd("abi", "--format", "json", "--root", ".", ".")
			var out abiJSON
			if err := json.Unmarshal([]byte(a.stdout), &out); err != nil {
				t.Fatalf("abi: exit %d, %v\n%s", a.code, err, a.stderr)
			}
			seen = map[string]bool{}
			var fromABI []string
			for _, e := range out.Externs {
				for _, d := range e.Disagreements {
					if k := fmt.Sprintf("%s:%d:%d %s", d.File, d.Line, d.Column, d.Code); !seen[k] {
						seen[k] = true
						fromABI = append(fromABI, k)
					}
				}
			}
			sort.Strings(fromCheck)
			sort.Strings(fromABI)
			if !slices.Equal(fromCheck, fromABI) {
				t.Errorf("check reports %v\nabi lists %v", fromCheck, fromABI)
			}
			if (len(fromABI) > 0) != (a.code == 1) && len(out.Externs) > 0 {
				t.Errorf("abi exits %d with %d disagreements", a.code, len(fromABI))
			}
			compared += len(fromABI)
		})
	}
	if compared == 0 {
		t.Error("no fixture has an ABI finding to compare")
	}
}
