package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func init() {
	commands["abi"] = command{"print the args[] table of every extern a stub, entry or header belongs to", runABI}
}

type abiParamJSON struct {
	Slot     int    `json:"slot"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Dir      string `json:"direction"`
	DType    string `json:"dtype"`
	Position int    `json:"position"`
	Line     int    `json:"line"`
	Returned bool   `json:"returned"`
}

type abiExternJSON struct {
	Name            string         `json:"name"`
	File            string         `json:"file"`
	Line            int            `json:"line"`
	CoreType        string         `json:"core_type"`
	DualAIVDispatch bool           `json:"dual_aiv_dispatch"`
	Entries         []string       `json:"entries"`
	Tensors         int            `json:"tensors"`
	Scalars         int            `json:"scalars"`
	Return          *string        `json:"return"`
	Params          []abiParamJSON `json:"params"`
	Problems        []string       `json:"problems"`
	// Disagreements are the C++ reads that contradict this table
	// (the args[] rules' findings); any makes `abi` exit 1.
	Disagreements []abiIssueJSON `json:"disagreements"`
}

type abiIssueJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

type abiDiffJSON struct {
	Slot    int    `json:"slot"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

type abiTaskJSON struct {
	Name        string        `json:"name"`
	Var         string        `json:"var"`
	Line        int           `json:"line"`
	Extern      *string       `json:"extern"`
	Args        []string      `json:"args"`
	Alias       *string       `json:"return_alias"`
	Differences []abiDiffJSON `json:"differences"`
}

type abiJSON struct {
	Path          string                `json:"path"`
	Externs       []abiExternJSON       `json:"externs"`
	Orchestration *abiOrchestrationJSON `json:"orchestration,omitempty"`
}

type abiOrchestrationJSON struct {
	File  string        `json:"file"`
	Tasks []abiTaskJSON `json:"tasks"`
}

func runABI(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("abi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	orch := fs.String("orchestration", "", "a generated orchestration .cpp to compare against the stub-derived tables")
	var root string
	rootFlag(fs, &root)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp abi PATH [--format text|json] [--orchestration FILE] [--root DIR]")
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(paths) != 1 {
		fs.Usage()
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "extern-lsp abi: unknown --format %q (want text or json)\n", *format)
		return 2
	}
	path, err := filepath.Abs(paths[0])
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %v\n", err)
		return 2
	}
	st, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %s: no such file or directory\n", paths[0])
		return 2
	}
	if err := absRoot(&root); err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %v\n", err)
		return 2
	}
	if root == "" {
		root = workspace.ProjectRoot(path)
	}
	// The run's workspace and configurations are check's (include-dirs
	// and all): abi and check see the same compile.
	loader, err := config.NewLoader("", c.rules)
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %v\n", err)
		return 2
	}
	chk := &engine.Checker{Analyzers: abiRules, Loader: loader, Jobs: 1, RootFor: func(string) string { return root }}
	if err := chk.Collect([]string{path}); err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %v\n", err)
		return 2
	}
	ws := chk.WS
	var stubs []*abi.Stub
	if st.IsDir() {
		for _, s := range ws.Stubs() {
			if strings.HasPrefix(s.File, path+string(filepath.Separator)) {
				stubs = append(stubs, s)
			}
		}
	} else {
		if _, ok := grammar.LangOf(path); !ok {
			fmt.Fprintf(stderr, "extern-lsp abi: %s: not a Python or C++ source\n", paths[0])
			return 2
		}
		stubs = ws.StubsFor(path)
	}
	slices.SortStableFunc(stubs, func(x, y *abi.Stub) int {
		return cmp.Or(strings.Compare(x.File, y.File), cmp.Compare(x.Start, y.Start))
	})
	cwd, _ := os.Getwd()
	var o *abi.Orchestration
	if *orch != "" {
		src, _, err := fsys.ReadFile(*orch, 0)
		if err != nil {
			fmt.Fprintf(stderr, "extern-lsp abi: --orchestration: %v\n", err)
			return 2
		}
		o = abi.ParseOrchestration(*orch, src)
	}
	out := buildABIReport(ws, cwd, path, stubs, o)
	disagree, err := addDisagreements(chk, cwd, out, stubs)
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp abi: %v\n", err)
		return 2
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(out)
	} else {
		writeABIText(stdout, out, stubs)
	}
	if len(stubs) == 0 {
		fmt.Fprintf(stderr, "extern-lsp abi: %s belongs to no @pl.jit.extern stub under %s\n", paths[0], relPath(cwd, root))
		return 1
	}
	if disagree > 0 {
		fmt.Fprintf(stderr, "extern-lsp abi: the C++ disagrees with the stub in %d place(s)\n", disagree)
		return 1
	}
	if out.Orchestration != nil {
		for _, t := range out.Orchestration.Tasks {
			if len(t.Differences) > 0 {
				return 1
			}
		}
	}
	return 0
}

// abiRules check the C++ args[] reads against a stub's packing (the rules
// marked ABI).
var abiRules = func() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range rules.All() {
		if a.ABI {
			out = append(out, a)
		}
	}
	return out
}()

// addDisagreements runs the ABI rules over every C++ file of each extern
// (its entries and the headers they include) as check does, under the
// project's configuration and suppressions, and records each finding under
// the extern it names. It returns how many it recorded.
func addDisagreements(chk *engine.Checker, cwd string, out *abiJSON, stubs []*abi.Stub) (int, error) {
	ws := chk.WS
	// The C++ files of each extern's compile, each once.
	closures := make([][]string, len(stubs))
	var files []string
	seen := map[string]bool{}
	for i, s := range stubs {
		mine := map[string]bool{}
		for _, entry := range ws.StubEntries(s) {
			for _, file := range ws.Closure(entry) {
				if l, ok := grammar.LangOf(file); !ok || l != grammar.CPP || mine[file] {
					continue
				}
				mine[file] = true
				closures[i] = append(closures[i], file)
				if !seen[file] {
					seen[file] = true
					files = append(files, file)
				}
			}
		}
	}
	if err := chk.Select(files); err != nil {
		return 0, err
	}
	byFile := map[string][]analysis.Diagnostic{}
	for _, r := range chk.Check(context.Background(), nil) {
		if r.Err != nil {
			return 0, r.Err
		}
		byFile[r.Path] = r.Diags
	}
	n := 0
	loc := &locator{ws: ws}
	for i, s := range stubs {
		for _, file := range closures[i] {
			for _, d := range byFile[file] {
				if d.Suppressed != "" || !namesOnly(d.Message, s, stubs) {
					continue
				}
				p := loc.at(d.File, d.Start)
				out.Externs[i].Disagreements = append(out.Externs[i].Disagreements, abiIssueJSON{File: relPath(cwd, d.File), Line: p.line, Column: p.col, Code: d.Code, Name: d.Name, Message: d.Message})
				n++
			}
		}
	}
	return n, nil
}

// namesOnly reports whether a finding belongs to stub s: it names s, or it
// names none of the stubs (then it is every extern's).
func namesOnly(msg string, s *abi.Stub, stubs []*abi.Stub) bool {
	if strings.Contains(msg, "extern `"+s.Name+"`") {
		return true
	}
	for _, o := range stubs {
		if strings.Contains(msg, "extern `"+o.Name+"`") {
			return false
		}
	}
	return true
}

func buildABIReport(ws *workspace.Workspace, cwd, path string, stubs []*abi.Stub, o *abi.Orchestration) *abiJSON {
	out := &abiJSON{Path: relPath(cwd, path), Externs: []abiExternJSON{}}
	loc := &locator{ws: ws}
	lineOf := func(file string, off uint32) int { return loc.at(file, off).line }
	for _, s := range stubs {
		e := abiExternJSON{Name: s.Name, File: relPath(cwd, s.File), Line: lineOf(s.File, s.Start), CoreType: s.CoreType,
			DualAIVDispatch: s.DualAIVDispatch, Tensors: s.Tensors, Scalars: s.Scalars, Entries: []string{}, Params: []abiParamJSON{}, Problems: []string{},
			Disagreements: []abiIssueJSON{}}
		for _, en := range ws.StubEntries(s) {
			e.Entries = append(e.Entries, relPath(cwd, en))
		}
		if s.Return != nil {
			n := s.Return.Name
			e.Return = &n
		}
		for k := 0; k < s.Count(); k++ {
			p, ok := s.BySlot(k)
			if !ok {
				continue
			}
			e.Params = append(e.Params, abiParamJSON{Slot: p.Slot, Name: p.Name, Kind: p.Kind.String(), Dir: p.Dir.String(), DType: p.DType,
				Position: p.Pos, Line: lineOf(s.File, p.NameStart), Returned: s.Return == p})
		}
		for _, pr := range s.Problems {
			e.Problems = append(e.Problems, pr.Message)
		}
		out.Externs = append(out.Externs, e)
	}
	if o != nil {
		out.Orchestration = &abiOrchestrationJSON{File: relPath(cwd, o.File), Tasks: []abiTaskJSON{}}
		byName := map[string]*abi.Stub{}
		for _, s := range stubs {
			byName[s.Name] = s
		}
		for _, s := range ws.Stubs() {
			if byName[s.Name] == nil {
				byName[s.Name] = s
			}
		}
		for _, t := range o.Tasks {
			tj := abiTaskJSON{Name: t.Name, Var: t.Var, Line: t.Line, Args: []string{}, Differences: []abiDiffJSON{}}
			for _, a := range t.Args {
				tj.Args = append(tj.Args, "add_"+a.Method+"("+a.Expr+")")
			}
			if t.Alias != nil {
				al := t.Alias.Name + " = " + t.Alias.Target
				tj.Alias = &al
			}
			if s := byName[t.Name]; s != nil {
				n := s.Name
				tj.Extern = &n
				for _, d := range abi.Compare(s, t) {
					tj.Differences = append(tj.Differences, abiDiffJSON{Slot: d.Slot, Line: d.Line, Message: d.Message})
				}
			}
			out.Orchestration.Tasks = append(out.Orchestration.Tasks, tj)
		}
	}
	return out
}

func writeABIText(w io.Writer, r *abiJSON, stubs []*abi.Stub) {
	switch len(r.Externs) {
	case 0:
		fmt.Fprintf(w, "%s: no extern ABI\n", r.Path)
	case 1:
		fmt.Fprintf(w, "%s: compiled under 1 extern ABI\n", r.Path)
	default:
		fmt.Fprintf(w, "%s: compiled under %d extern ABIs\n", r.Path, len(r.Externs))
	}
	for _, e := range r.Externs {
		dual := ""
		if e.DualAIVDispatch {
			dual = ", dual_aiv_dispatch"
		}
		fmt.Fprintf(w, "\nextern %s  (%s:%d)  core_type=%s%s  %s + %s\n", e.Name, e.File, e.Line, orQ(e.CoreType), dual, count(e.Tensors, "tensor"), count(e.Scalars, "scalar"))
		if len(e.Entries) > 0 {
			fmt.Fprintf(w, "  entry: %s\n", strings.Join(e.Entries, ", "))
		} else {
			fmt.Fprintf(w, "  entry: none found\n")
		}
		nw := len("parameter")
		for _, p := range e.Params {
			if len(p.Name) > nw {
				nw = len(p.Name)
			}
		}
		fmt.Fprintf(w, "  %-6s  %-*s  %-6s  %-5s  %-6s  %s\n", "args[]", nw, "parameter", "kind", "dir", "dtype", "sig")
		for _, p := range e.Params {
			ret := ""
			if p.Returned {
				ret = "  <- returned"
			}
			dt := p.DType
			if dt == "" {
				dt = "-"
			}
			fmt.Fprintf(w, "  %-6d  %-*s  %-6s  %-5s  %-6s  %d%s\n", p.Slot, nw, p.Name, p.Kind, p.Dir, dt, p.Position, ret)
		}
		if e.Scalars > 0 && e.Tensors > 0 {
			fmt.Fprintf(w, "  tensors args[0..%d], scalars args[%d..%d] (tensors first, then scalars: not signature order)\n", e.Tensors-1, e.Tensors, e.Tensors+e.Scalars-1)
		}
		for _, p := range e.Problems {
			fmt.Fprintf(w, "  note: %s\n", p)
		}
		if len(e.Disagreements) > 0 {
			fmt.Fprintf(w, "  the C++ disagrees with this table:\n")
			for _, d := range e.Disagreements {
				fmt.Fprintf(w, "    %s:%d:%d: %s %s\n", d.File, d.Line, d.Column, d.Code, d.Message)
			}
		}
	}
	if r.Orchestration == nil {
		return
	}
	fmt.Fprintf(w, "\norchestration %s: %d tasks\n", r.Orchestration.File, len(r.Orchestration.Tasks))
	for _, t := range r.Orchestration.Tasks {
		name := t.Name
		if name == "" {
			name = "(unnamed)"
		}
		switch {
		case t.Extern == nil:
			fmt.Fprintf(w, "  %s (%s, line %d): no stub named %s; not compared\n", t.Var, name, t.Line, name)
		case len(t.Differences) == 0:
			fmt.Fprintf(w, "  %s (%s, line %d): matches the stub (%d args)\n", t.Var, name, t.Line, len(t.Args))
		default:
			fmt.Fprintf(w, "  %s (%s, line %d): %d differences from the stub\n", t.Var, name, t.Line, len(t.Differences))
			for _, d := range t.Differences {
				fmt.Fprintf(w, "    %s:%d: %s\n", r.Orchestration.File, d.Line, d.Message)
			}
		}
	}
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
