package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// An editor's analysis reuses facts across edits: one fact store for the
// session, one workspace forked per edit (as the server's snapshots are).
// Whatever it reuses, after every edit its findings must be those of an
// analysis from scratch (a new workspace and store over the same texts),
// byte for byte, fixes and ranges included.

// incrementalEdits is how many seeded edits TestIncrementalEqualsScratch
// applies (fewer under -short and the race detector: each edit costs a
// scratch analysis of the whole unit).
func incrementalEdits() int {
	switch {
	case raceDetector:
		return 6
	case testing.Short():
		return 12
	}
	return 40
}

func TestIncrementalEqualsScratch(t *testing.T) {
	dir := t.TempDir()
	units, err := benchgen.WriteUnits(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	u := units[0]
	ed := newUnitEditor(t, u, 30)
	// The scratch side reads the trees of the unedited files back from a
	// parse cache (a tree is a function of the text alone); edited texts
	// are overlays, parsed afresh on both sides.
	cache := workspace.NewParseCache(filepath.Join(t.TempDir(), "parses"))
	inc := workspace.New(u.Root)
	store := unit.NewStore()
	targets := []string{u.Entry, u.RopeEntry, u.Body, u.Stub}
	seen := map[string]bool{} // the codes found
	for step := 0; step <= incrementalEdits(); step++ {
		what, path := "the unit as written", ""
		if step > 0 {
			what, path = ed.edit()
			t.Logf("%d %s %s", step, what, rel(u.Root, path))
			inc = inc.Fork()
			inc.SetOverlay(path, []byte(ed.text[path]), int32(step))
		}
		paths := targets
		if path != "" && !strings.HasSuffix(path, ".py") {
			paths = append(append([]string(nil), targets...), path)
		}
		scratch := workspace.New(u.Root)
		scratch.SetParseCache(cache)
		for p, text := range ed.text {
			if text != ed.orig[p] {
				scratch.SetOverlay(p, []byte(text), 1)
			}
		}
		fresh := unit.NewStore()
		for _, p := range paths {
			got := analyseJSON(t, inc, p, store)
			want := analyseJSON(t, scratch, p, fresh)
			if got != want {
				t.Fatalf("edit %d (%s in %s): %s: incremental findings differ from scratch\nincremental: %s\nscratch:     %s",
					step, what, rel(u.Root, path), rel(u.Root, p), got, want)
			}
			for _, c := range codesOf(got) {
				seen[c] = true
			}
		}
		store.SweepIfGrown(inc)
	}
	t.Logf("codes found: %v", slices.Sorted(maps.Keys(seen)))
	// A short run's 12 edits reach 4 rules; the full run's 40 reach 8.
	if len(seen) < min(8, incrementalEdits()/3) {
		t.Fatalf("the edits gave findings of %d rules: too few to exercise the reuse", len(seen))
	}
}

// codesOf lists the codes of findings given as JSON.
func codesOf(js string) []string {
	var ds []analysis.Diagnostic
	json.Unmarshal([]byte(js), &ds)
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// analyseJSON is the findings of path as JSON (every field, fixes and
// offsets included).
func analyseJSON(t *testing.T, ws *workspace.Workspace, path string, s *unit.Store) string {
	t.Helper()
	ds, err := analysis.RunContext(context.Background(), ws, path, analysis.Options{Analyzers: All(), Store: s})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := json.Marshal(ds)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// unitEditor makes seeded random edits of a generated unit's texts: inside
// function bodies, to signatures, functions added and removed, macro
// definitions and #includes; after every third, lines added above a
// function or a statement put under a conditional (move).
type unitEditor struct {
	t   *testing.T
	rng *rand.Rand
	// moves draws the edits that keep every outline (lines added above
	// a function) or change one inside a body (a statement put under a
	// conditional), made after every third edit in the same file: a
	// stream of their own, so the others are drawn as they were.
	moves      *rand.Rand
	made       int
	files      []string // the files edited
	orig, text map[string]string
	added      int // functions added so far (their names' numbers)
}

func newUnitEditor(t *testing.T, u benchgen.GenUnit, seed uint64) *unitEditor {
	ed := &unitEditor{t: t, rng: rand.New(rand.NewPCG(seed, 1)), moves: rand.New(rand.NewPCG(seed, 2)), orig: map[string]string{}, text: map[string]string{}}
	ed.files = []string{u.Body, u.Body, u.Body, u.Entry, u.RopeEntry, u.Vendor[0], u.Vendor[3], filepath.Join(filepath.Dir(u.Body), "tensor_compat.hpp")}
	for _, p := range ed.files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ed.orig[p], ed.text[p] = string(src), string(src)
	}
	return ed
}

// statements are lines an edit puts into a function body: most are what
// a rule reports (a topology getter without args, a barrier, a GM scalar
// read or write, flags and events, an args slot past the stub's, an early
// return), some are plain code.
var statements = []string{
	"uint32_t probe_row = get_block_idx() + 1;",
	"SyncAll();",
	"AscendC::SyncAll<false>();",
	"int64_t extra_arg = static_cast<int64_t>(args[31]);",
	"dcci(metadata, ENTIRE_DATA_CACHE, CACHELINE_OUT);",
	"uint32_t first_word = *reinterpret_cast<__gm__ uint32_t *>(metadata);",
	"*reinterpret_cast<__gm__ uint32_t *>(metadata) = 1;",
	"ffts_cross_core_sync(PIPE_MTE3, 0x21 | (3 << 8));",
	"wait_flag_dev(3);",
	"AscendC::CrossCoreSetFlag<2, PIPE_FIX>(11);",
	"AscendC::CrossCoreWaitFlag(4);",
	"set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);",
	"wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);",
	"AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID2);",
	"pipe_barrier(PIPE_ALL);",
	"AscendC::TPipe pipe;",
	"return;",
	"uint32_t plain = 3 * 7;",
	"(void)0;",
	"if (get_block_idx() == 0) { return; }",
}

// functions are definitions an edit adds (%d: a number naming it).
var functions = []string{
	"__aicore__ inline void added_sync_%d() {\n    SyncAll();\n}\n",
	"__aicore__ inline uint32_t added_read_%d(GM_ADDR p) {\n    return *reinterpret_cast<__gm__ uint32_t *>(p);\n}\n",
	"__aicore__ inline void added_write_%d(GM_ADDR p) {\n    *reinterpret_cast<__gm__ uint32_t *>(p) = 7;\n    dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT);\n}\n",
	"__aicore__ inline void added_flag_%d() {\n    ffts_cross_core_sync(PIPE_MTE3, 0x21 | (5 << 8));\n}\n",
	"__aicore__ inline uint32_t added_plain_%d(uint32_t x) {\n    return x + 1;\n}\n",
}

// macros are #define lines an edit adds (after the first #define, or at
// the top).
var macros = []string{
	"#define __CPU_SIM",
	"#define GM_ADDR __gm__ uint8_t *",
	"#define KERNEL_SYNC() SyncAll()",
	"#define NO_GLOBAL_ENTRY",
	"#define FA_TILE_1(x) (x)",
	"#define __DAV_C220_VEC__",
}

// edit applies one random edit and says what and where.
func (ed *unitEditor) edit() (what, path string) {
	for {
		path = ed.files[ed.rng.IntN(len(ed.files))]
		lines := strings.SplitAfter(ed.text[path], "\n")
		what, lines = ed.editLines(lines)
		if what == "" {
			continue
		}
		if ed.made++; ed.made%3 == 0 {
			if move, moved := ed.move(lines); move != "" {
				what, lines = what+", then "+move, moved
			}
		}
		ed.text[path] = strings.Join(lines, "")
		return what, path
	}
}

// move is an edit of the moves stream: lines added above a function
// (every outline kept, every place below moved) or a statement put under
// a conditional (the outline changed inside a body); "" when the file
// has no place for it.
func (ed *unitEditor) move(lines []string) (string, []string) {
	r := ed.moves
	pick := func(ok func(string) bool) int {
		var at []int
		for i, l := range lines {
			if ok(l) {
				at = append(at, i)
			}
		}
		if len(at) == 0 {
			return -1
		}
		return at[r.IntN(len(at))]
	}
	if r.IntN(3) > 0 {
		i := pick(func(l string) bool { return strings.HasPrefix(l, "__aicore__") || strings.HasPrefix(l, "extern \"C\"") })
		if i < 0 {
			return "", lines
		}
		return "lines added above a function", insert(lines, i, "// moved down\n\n")
	}
	i := pick(statementLine)
	if i < 0 {
		return "", lines
	}
	cond := []string{"#ifdef __CPU_SIM\n", "#ifndef NO_GLOBAL_ENTRY\n", "#if defined(__DAV_C220_VEC__)\n"}[r.IntN(3)]
	return "statement put under " + strings.TrimSpace(cond), insert(insert(lines, i+1, "#endif\n"), i, cond)
}

func (ed *unitEditor) pick(lines []string, ok func(string) bool) int {
	var at []int
	for i, l := range lines {
		if ok(l) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return -1
	}
	return at[ed.rng.IntN(len(at))]
}

func insert(lines []string, at int, s string) []string {
	return append(lines[:at:at], append([]string{s}, lines[at:]...)...)
}

func statementLine(l string) bool {
	return strings.HasPrefix(l, "    ") && strings.HasSuffix(strings.TrimSpace(l), ";")
}

func (ed *unitEditor) editLines(lines []string) (string, []string) {
	r := ed.rng
	switch k := r.IntN(10); k {
	case 0, 1, 2: // a statement into a body
		i := ed.pick(lines, statementLine)
		if i < 0 {
			return "", lines
		}
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " "))]
		return "statement added", insert(lines, i+1, indent+statements[r.IntN(len(statements))]+"\n")
	case 3: // a statement out of a body
		i := ed.pick(lines, statementLine)
		if i < 0 {
			return "", lines
		}
		return "statement removed", append(lines[:i:i], lines[i+1:]...)
	case 4: // a number in a body changed (an args slot, a flag id, a size)
		i := ed.pick(lines, func(l string) bool { return statementLine(l) && strings.ContainsAny(l, "0123456789") })
		if i < 0 {
			return "", lines
		}
		l := []byte(lines[i])
		for {
			j := r.IntN(len(l))
			if l[j] >= '0' && l[j] <= '9' {
				l[j] = byte('0' + r.IntN(10))
				break
			}
		}
		lines[i] = string(l)
		return "number in a statement changed", lines
	case 5: // a signature changed: a parameter added, or the function renamed
		i := ed.pick(lines, func(l string) bool { return strings.Contains(l, "__aicore__") && strings.Contains(l, "(") })
		if i < 0 {
			return "", lines
		}
		l := lines[i]
		if r.IntN(2) == 0 {
			if j := strings.LastIndex(l, ")"); j > 0 {
				lines[i] = l[:j] + ", uint32_t extra" + l[j:]
				return "signature: parameter added", lines
			}
		}
		if j := strings.Index(l, "("); j > 0 {
			lines[i] = l[:j] + "_v2" + l[j:]
		}
		return "signature: function renamed", lines
	case 6: // a function added (before a header's last #endif, or at the end)
		ed.added++
		fn := fmt.Sprintf(functions[r.IntN(len(functions))], ed.added)
		at := len(lines)
		for j := len(lines) - 1; j >= 0; j-- {
			if strings.HasPrefix(lines[j], "#endif") {
				at = j
				break
			}
		}
		if at == len(lines) && len(lines) > 0 && !strings.HasSuffix(lines[at-1], "\n") {
			lines[at-1] += "\n"
		}
		return "function added", insert(lines, at, "\n"+fn)
	case 7: // a function removed: from its first line at column 0 to its closing brace
		i := ed.pick(lines, func(l string) bool {
			return (strings.HasPrefix(l, "__aicore__") || strings.HasPrefix(l, "template <typename T>")) && !strings.Contains(l, ";")
		})
		if i < 0 {
			return "", lines
		}
		end := i
		for end < len(lines) && lines[end] != "}\n" {
			end++
		}
		if end == len(lines) {
			return "", lines
		}
		return "function removed", append(lines[:i:i], lines[end+1:]...)
	case 8: // a macro definition added or removed
		if i := ed.pick(lines, func(l string) bool { return strings.HasPrefix(l, "#define") }); i >= 0 && r.IntN(2) == 0 {
			return "macro removed", append(lines[:i:i], lines[i+1:]...)
		}
		at := 0
		if i := ed.pick(lines, func(l string) bool { return strings.HasPrefix(l, "#include") }); i >= 0 {
			at = i + 1
		}
		return "macro defined", insert(lines, at, macros[r.IntN(len(macros))]+"\n")
	default: // an #include removed or added
		if i := ed.pick(lines, func(l string) bool { return strings.HasPrefix(l, "#include \"") }); i >= 0 && r.IntN(2) == 0 {
			return "include removed", append(lines[:i:i], lines[i+1:]...)
		}
		incs := []string{"#include \"kernel_operator.h\"", "#include \"tensor_compat.hpp\"", "#include \"../kernel/attn_body.hpp\"",
			"#include \"../generated/kernel_tiling.h\"", "#include \"missing_header.h\""}
		at := ed.pick(lines, func(l string) bool { return strings.HasPrefix(l, "#include") })
		if at < 0 {
			at = 0
		}
		return "include added", insert(lines, at, incs[r.IntN(len(incs))]+"\n")
	}
}

// BenchmarkEditOneFunction is the re-analysis of a file of the generated
// unit after an edit inside one function's body (a line added, then taken
// away: in the body header's run_attention, or in the entry's kernel),
// with the session's store and a workspace forked per edit, as the
// server's pulled diagnostics run it: cpu-ms/op is the CPU of one
// re-analysis, the parse of the edited text left out (the server reparses
// incrementally, a few hundred microseconds).
//
//	go test ./analysis/rules -run '^$' -bench EditOneFunction -benchtime 200x
func BenchmarkEditOneFunction(b *testing.B) {
	units, err := benchgen.WriteUnits(b.TempDir(), 1)
	if err != nil {
		b.Fatal(err)
	}
	u := units[0]
	for _, c := range []struct {
		name, path, after string
	}{
		{"body", u.Body, benchgen.BodyEditMarker},
		{"entry", u.Entry, "    acquire_metadata(metadata);\n"},
	} {
		b.Run(c.name, func(b *testing.B) { benchEdit(b, u, c.path, c.after) })
	}
}

func benchEdit(b *testing.B, u benchgen.GenUnit, path, after string) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	at := strings.Index(string(src), after)
	if at < 0 {
		b.Fatalf("%s: no %q", path, after)
	}
	at += len(after)
	texts := [2][]byte{src, []byte(string(src[:at]) + benchgen.BodyEditLine + string(src[at:]))}
	ws, store := workspace.New(u.Root), unit.NewStore()
	opts := analysis.Options{Analyzers: All(), Store: store}
	for _, p := range []string{u.Entry, u.RopeEntry, u.Body} {
		if _, err := analysis.Run(ws, p, opts); err != nil {
			b.Fatal(err)
		}
	}
	parses := make([]*grammar.File, b.N)
	for i := range parses {
		if parses[i], err = grammar.ParseFile(context.Background(), nil, path, texts[(i+1)%2], nil); err != nil {
			b.Fatal(err)
		}
	}
	cpu := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws = ws.Fork()
		f := parses[i]
		ws.SetOverlayParse(path, texts[(i+1)%2], int32(i+2), func() (*grammar.File, error) { return f, nil })
		parses[i] = nil
		ds, err := analysis.Run(ws, path, opts)
		if err != nil {
			b.Fatal(err)
		}
		if got, want := slices.ContainsFunc(ds, func(d analysis.Diagnostic) bool { return d.Code == benchgen.BodyEditCode }), i%2 == 0; got != want {
			b.Fatalf("edit %d: %s found %v, want %v", i, benchgen.BodyEditCode, got, want)
		}
		store.SweepIfGrown(ws)
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
