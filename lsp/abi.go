package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// What the args[] ABI gives the editor: hovers and inlay hints naming the
// Python parameter behind every args index (per extern, since one header
// can be compiled under two ABIs), navigation between the C++ reads, the
// stub parameters, the stub's source= files and the entries, and the
// custom externLsp/abiTable request.

// abiView is one file's accesses judged against every extern it is
// compiled under, as the args rules judge them.
type abiView struct{ *unit.FileABI }

func (s *view) abiViewOf(path string) *abiView {
	return &abiView{s.store.FileABI(s.rctx, s.ws, path)}
}

// paramText describes a parameter's place in the packing.
func paramText(st *abi.Stub, p *abi.Param) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s`: %s", p.Name, p.Kind)
	if p.Kind == abi.Tensor {
		fmt.Fprintf(&b, " %d of %d", p.Slot+1, st.Tensors)
		if p.Dir != abi.In {
			fmt.Fprintf(&b, ", %s", p.Dir)
		}
	} else {
		fmt.Fprintf(&b, " %d of %d", p.Slot-st.Tensors+1, st.Scalars)
	}
	if p.DType != "" {
		fmt.Fprintf(&b, ", %s", p.DType)
	}
	if st.Return == p {
		b.WriteString(", the returned tensor")
	}
	fmt.Fprintf(&b, "; signature position %d", p.Pos)
	if p.Kind == abi.Scalar && st.Tensors > 0 {
		fmt.Fprintf(&b, "; tensors occupy args[0..%d]", st.Tensors-1)
	} else if p.Kind == abi.Tensor && st.Scalars > 0 {
		fmt.Fprintf(&b, "; scalars start at args[%d]", st.Tensors)
	}
	return b.String()
}

// stubLink renders "name (file:line)" with a link to the stub.
func (s *view) stubLink(st *abi.Stub) string {
	l := s.linesFor(st.File)
	line, _ := l.Position(st.Start)
	return fmt.Sprintf("**`%s`** ([%s:%d](%s#L%d))", st.Name, filepath.Base(st.File), line+1, s.uriFor(st.File), line+1)
}

// accessMarkdown is the hover of an args access.
func (s *view) accessMarkdown(v *abiView, a *abi.Access) string {
	var b strings.Builder
	what := "args[" + joinInts(a.Slots, " or ") + "]"
	perExtern := ""
	if len(a.Slots) > 1 {
		perExtern = ", one per extern below"
		what = "args[" + joinInts(a.Slots, " or ") + perExtern + "]"
	}
	switch a.Via {
	case "constant":
		what = "index constant = " + joinInts(a.Slots, " or ") + perExtern
	case "args[]":
	default:
		what += " via `" + a.Via + "`"
	}
	fmt.Fprintf(&b, "**%s**", what)
	if a.Use != abi.UseUnknown {
		fmt.Fprintf(&b, " — read as a %s", a.Use)
	}
	if len(v.Stubs) > 1 {
		fmt.Fprintf(&b, " — compiled under %d externs", len(v.Stubs))
	}
	b.WriteString("\n\n")
	for _, st := range v.Stubs {
		fmt.Fprintf(&b, "- %s: ", s.stubLink(st))
		if !v.Compiled(a, st) {
			b.WriteString("not compiled for this extern")
			if c := boundCond(v, a, st); c != "" {
				b.WriteString(" (" + c + ")")
			}
			b.WriteString("\n")
			continue
		}
		if v.OtherBranch(a, st) {
			b.WriteString("the other branch of the flag serves this extern (its entry does not bind the flag; this read would be wrong for it)\n")
			continue
		}
		slots, known := v.SlotsFor(a, st)
		if !known {
			fmt.Fprintf(&b, "unknown: the slot (args[%s]) depends on a template argument this extern's entry does not bind\n", joinInts(a.Slots, " or "))
			continue
		}
		if verdict, slot, p := abi.Judge(a, st); verdict == abi.VerdictKindMismatch && p != nil && len(a.Slots) == 1 {
			fmt.Fprintf(&b, "⚠ read as a %s, but args[%d] holds a %s: ", a.Use, slot, p.Kind)
		}
		for i, sl := range slots {
			if i > 0 {
				b.WriteString("; ")
			}
			if len(a.Slots) > 1 {
				fmt.Fprintf(&b, "args[%d] → ", sl)
			}
			if p, ok := st.BySlot(int(sl)); ok {
				b.WriteString(paramText(st, p))
			} else {
				fmt.Fprintf(&b, "**out of range**: the extern packs %s (args[0..%d])", st.PackText(), st.Count()-1)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// boundCond explains why an access is not compiled: the template flag
// value the extern's entry binds.
func boundCond(v *abiView, a *abi.Access, st *abi.Stub) string {
	for _, c := range a.Conds {
		for _, bd := range v.Bindings(st) {
			if val, ok := bd.Value(c.Scope, c.Name); ok && (val != 0) != c.Value {
				return fmt.Sprintf("`%s = %v`", c.Name, val != 0)
			}
		}
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func joinInts(xs []int64, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, sep)
}

// hoverABI answers hovers on args reads and index constants (C++) and on
// stub names and parameters (Python).
func (s *view) hoverABI(f *grammar.File, off uint32) *protocol.Hover {
	if f.Lang == grammar.Python {
		return s.hoverStub(f, off)
	}
	v := s.abiViewOf(f.Path)
	if len(v.Stubs) == 0 {
		return nil
	}
	a := v.At(off)
	if a == nil {
		return nil
	}
	start, end := a.Range()
	return markdownHover(f.Lines, start, end, s.accessMarkdown(v, a))
}

func (s *view) hoverStub(f *grammar.File, off uint32) *protocol.Hover {
	for _, st := range s.ws.StubsFor(f.Path) {
		if off >= st.Start && off <= st.End {
			return markdownHover(f.Lines, st.Start, st.End, abi.Markdown(st))
		}
		for i := range st.Params {
			p := &st.Params[i]
			if off >= p.NameStart && off <= p.NameEnd {
				md := fmt.Sprintf("**args[%d]** of %s\n\n%s", p.Slot, s.stubLink(st), paramText(st, p))
				return markdownHover(f.Lines, p.NameStart, p.NameEnd, md)
			}
		}
	}
	return nil
}

func (s *view) definition(ctx context.Context, doc docRequest, p *positionParams) (any, error) {
	f, err := s.fileFor(doc.uri)
	if err != nil || f.Tree == nil {
		return nil, nil
	}
	off := offsetOf(f.Lines, p.Position)
	var locs []protocol.Location
	if f.Lang == grammar.Python {
		locs = s.definitionInStub(f, off)
	} else if locs = s.definitionOfInclude(f, off); locs == nil {
		locs = s.definitionInCPP(f, off)
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

func (s *view) location(path string, start, end uint32) protocol.Location {
	return protocol.Location{URI: protocol.DocumentURI(s.uriFor(path)), Range: rangeOf(s.linesFor(path), start, end)}
}

// definitionInCPP: from an args read to the Python parameter(s), from an
// entry's name to its stub(s).
func (s *view) definitionInCPP(f *grammar.File, off uint32) []protocol.Location {
	v := s.abiViewOf(f.Path)
	var locs locationSet
	add := locs.add
	if a := v.At(off); a != nil {
		for _, st := range v.Stubs {
			if !v.Compiled(a, st) {
				continue
			}
			sls, _ := v.SlotsFor(a, st)
			for _, sl := range sls {
				if p, ok := st.BySlot(int(sl)); ok {
					add(s.location(st.File, p.NameStart, p.NameEnd))
				}
			}
		}
		return locs.list
	}
	entries, _ := cxx.Entries(f)
	if fn, _ := entryNamedAt(entries, off); fn != nil {
		for _, st := range s.ws.StubsForEntry(f.Path) {
			add(s.location(st.File, st.Start, st.End))
		}
	}
	return locs.list
}

// definitionInStub: from a source=/aic_source=/aiv_source= argument to the
// C++ file, from the stub's name to its entry functions.
func (s *view) definitionInStub(f *grammar.File, off uint32) []protocol.Location {
	var out []protocol.Location
	for _, st := range s.ws.StubsFor(f.Path) {
		for _, src := range st.Sources {
			if src.Path != "" && off >= src.Start && off <= src.End {
				out = append(out, s.location(src.Path, 0, 0))
				return out
			}
		}
		if off >= st.Start && off <= st.End {
			for _, e := range s.ws.StubEntries(st) {
				out = append(out, s.entryLocation(e, st.Name))
			}
		}
	}
	return out
}

// entryLocation points at the entry function of a C++ file (the one named
// like the stub when there are several), or the file's start.
func (s *view) entryLocation(path, name string) protocol.Location {
	ef, err := s.ws.File(path)
	if err != nil || ef.Tree == nil {
		return s.location(path, 0, 0)
	}
	entries, _ := cxx.Entries(ef)
	var pick *grammar.Node
	for _, fn := range entries {
		if pick == nil || cxx.FunctionName(fn) == name {
			pick = fn
		}
	}
	if pick != nil {
		if d := cxx.FunctionDeclarator(pick); d != nil {
			if n := d.ChildByField("declarator"); n != nil {
				return protocol.Location{URI: protocol.DocumentURI(s.uriFor(path)), Range: rangeOf(ef.Lines, n.Start, n.End)}
			}
		}
	}
	return s.location(path, 0, 0)
}

func (s *view) abiTable(ctx context.Context, doc docRequest, p *abiTableParams) (any, error) {
	path := doc.path
	stubs := s.ws.StubsFor(path)
	if len(stubs) == 0 {
		return abiTableResult{Markdown: "No `@pl.jit.extern` stub in the workspace compiles `" + filepath.Base(path) + "`."}, nil
	}
	return abiTableResult{Markdown: abi.Markdown(stubs...)}, nil
}

// stubFiles are the Python files that define stubs.
func (s *view) stubFiles() []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range s.ws.Stubs() {
		if !seen[st.File] {
			seen[st.File] = true
			out = append(out, st.File)
		}
	}
	return out
}
