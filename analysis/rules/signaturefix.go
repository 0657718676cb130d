package rules

import (
	"bytes"
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// A fix that reorders a stub's parameters changes the ABI twice over: the
// callers bind their positional arguments by position, and the C++ reads
// args[] by slot. signatureEdits makes every use follow the move, so the
// kernel reads and the callers pass what they did before, or says why it
// cannot (then the fix is not offered).

// slotMove maps the args[] slots a reorder changes, old to new.
type slotMove map[int64]int64

// signatureEdits returns the edits that keep every call site of s and
// every C++ read of its slots meaning what they meant once the parameter
// at position k moves to position j (j < k), order being the new table.
func signatureEdits(pass *analysis.Pass, s *abi.Stub, k, j int, order []abi.Param) ([]analysis.TextEdit, string) {
	moves := slotMove{}
	for _, np := range order {
		if op, ok := s.Param(np.Name); ok && op.Slot != np.Slot {
			moves[int64(op.Slot)] = int64(np.Slot)
		}
	}
	calls, why := callSiteEdits(pass, s, k, j)
	if why != "" {
		return nil, why
	}
	reads, why := readEdits(pass, s, moves)
	if why != "" {
		return nil, why
	}
	return append(calls, reads...), ""
}

// stubCallFiles yields the workspace's Python files that name stub s,
// each with its parse (nil when it cannot be read).
func stubCallFiles(pass *analysis.Pass, s *abi.Stub) iter.Seq2[string, *grammar.File] {
	return func(yield func(string, *grammar.File) bool) {
		for _, path := range pass.WS.PythonFiles() {
			src, err := pass.WS.Source(path)
			if err != nil || !bytes.Contains(src, []byte(s.Name)) {
				continue
			}
			f, err := pass.WS.File(path)
			if err != nil || f.Tree == nil {
				f = nil
			}
			if !yield(path, f) {
				return
			}
		}
	}
}

// stubCalls are the calls of stub s in the Python file f at path.
func stubCalls(pass *analysis.Pass, s *abi.Stub, path string, f *grammar.File) []externCall {
	var out []externCall
	for _, c := range externCallsIn(pass.WS.Stubs(), pass.WS.StubsFor(path), f) {
		if c.stub.Name == s.Name && c.stub.File == s.File {
			out = append(out, c)
		}
	}
	return out
}

// callSiteEdits reorders the positional arguments of every call of s in
// the workspace's Python files (or passes the shifted ones by keyword when
// the call stops before the moved parameter).
func callSiteEdits(pass *analysis.Pass, s *abi.Stub, k, j int) ([]analysis.TextEdit, string) {
	var edits []analysis.TextEdit
	for path, f := range stubCallFiles(pass, s) {
		if f == nil {
			return nil, "cannot read " + path
		}
		for _, c := range stubCalls(pass, s, path, f) {
			args := c.call.ChildByField("arguments")
			if args == nil {
				continue
			}
			var pos []*grammar.Node
			for _, a := range args.NamedChildren() {
				switch a.Kind() {
				case "comment", "keyword_argument":
				case "list_splat", "dictionary_splat":
					line, _ := f.Lines.Position(c.call.Start)
					return nil, fmt.Sprintf("the call at %s:%d passes arguments through `*`/`**`", filepath.Base(path), line+1)
				default:
					pos = append(pos, a)
				}
			}
			m := len(pos)
			switch {
			case m <= j:
			case m > k:
				moved := append([]*grammar.Node{pos[k]}, pos[j:k]...)
				for i := j; i <= k; i++ {
					edits = append(edits, analysis.TextEdit{File: path, Start: pos[i].Start, End: pos[i].End, NewText: moved[i-j].Text()})
				}
			default:
				// The call stops before the moved parameter: the
				// arguments from j on would bind one parameter later, so
				// they are passed by name.
				for i := j; i < m; i++ {
					edits = append(edits, analysis.TextEdit{File: path, Start: pos[i].Start, End: pos[i].Start, NewText: s.Params[i].Name + "="})
				}
			}
		}
	}
	return edits, ""
}

// readEdits renumbers the C++ reads of moved slots in every file of the
// stub's units: a literal index in place, a named index at its constant's
// definition.
func readEdits(pass *analysis.Pass, s *abi.Stub, moves slotMove) ([]analysis.TextEdit, string) {
	if len(moves) == 0 {
		return nil, ""
	}
	var files []string
	for _, e := range pass.WS.StubEntries(s) {
		for _, p := range pass.WS.Closure(e) {
			if l, _ := grammar.LangOf(p); l == grammar.CPP && !slices.Contains(files, p) {
				files = append(files, p)
			}
		}
	}
	if len(files) == 0 {
		return nil, "the stub's C++ source is not in the workspace"
	}
	type constDef struct {
		file string
		acc  abi.Access
	}
	consts := map[string]constDef{}
	var named []abi.Access
	var edits []analysis.TextEdit
	seen := map[string]bool{}
	add := func(e analysis.TextEdit) {
		k := fmt.Sprintf("%s:%d", e.File, e.Start)
		if !seen[k] {
			seen[k] = true
			edits = append(edits, e)
		}
	}
	for _, path := range files {
		f, err := pass.WS.File(path)
		if err != nil {
			return nil, "cannot read " + path
		}
		shared := false
		for _, o := range pass.WS.StubsFor(path) {
			shared = shared || o.Name != s.Name || o.File != s.File
		}
		for _, a := range pass.ArgsAccessesOf(path) {
			if a.Via == "constant" {
				if a.Index != nil {
					consts[a.Index.Text()] = constDef{file: path, acc: a}
				}
				continue
			}
			where := func() string {
				line, _ := f.Lines.Position(a.Start)
				return fmt.Sprintf("%s:%d", filepath.Base(path), line+1)
			}
			if len(a.Slots) == 0 {
				return nil, "the read at " + where() + " has an index extern-lsp cannot evaluate"
			}
			touched := false
			for _, sl := range a.Slots {
				_, ok := moves[sl]
				touched = touched || ok
			}
			if !touched {
				continue
			}
			if len(a.Slots) > 1 {
				return nil, "the read at " + where() + " may be one of several slots"
			}
			if shared {
				return nil, "the read at " + where() + " is compiled under another extern too"
			}
			to := moves[a.Slots[0]]
			if a.Index != nil && a.Index.Kind() == "number_literal" {
				lit, ok := cxx.ParseInt(strings.TrimSpace(a.Index.Text()))
				if !ok {
					return nil, "the read at " + where() + " has an index extern-lsp cannot rewrite"
				}
				add(analysis.TextEdit{File: path, Start: a.Index.Start, End: a.Index.End, NewText: strconv.FormatInt(to-(a.Slots[0]-lit), 10)})
				continue
			}
			if a.Index == nil || a.Index.Kind() != "identifier" && a.Index.Kind() != "qualified_identifier" {
				return nil, "the read at " + where() + " computes its index"
			}
			named = append(named, a)
		}
	}
	for _, a := range named {
		name := a.Index.Text()
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		def, ok := consts[name]
		if !ok {
			return nil, "the definition of `" + name + "` is not in the extern's files"
		}
		for _, o := range pass.WS.StubsFor(def.file) {
			if o.Name != s.Name || o.File != s.File {
				return nil, "`" + name + "` is defined in a header another extern reads too"
			}
		}
		lit := constLiteral(def.acc.Node)
		if lit == nil || len(def.acc.Slots) != 1 || def.acc.Slots[0] != a.Slots[0] {
			return nil, "`" + name + "` is not defined by a plain number"
		}
		add(analysis.TextEdit{File: def.file, Start: lit.Start, End: lit.End, NewText: strconv.FormatInt(moves[a.Slots[0]], 10)})
	}
	return edits, ""
}

// constLiteral is the number a constant's declaration gives it (`= 2` of a
// constexpr or an enumerator), nil when it is not written as one.
func constLiteral(decl *grammar.Node) *grammar.Node {
	if decl == nil {
		return nil
	}
	var found *grammar.Node
	n := 0
	ds := decl.Descendants()
	for i := range ds {
		if ds[i].Kind() == "number_literal" {
			n++
			if found == nil {
				found = &ds[i]
			}
		}
	}
	if n != 1 {
		return nil
	}
	return found
}
