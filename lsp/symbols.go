package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Document and workspace symbols for what a kernel author navigates by:
// the externs (their entries and Python stubs, with the packing of every
// parameter) and the bodies that read args (helpers such as tensor_data
// and the templates the entries instantiate).

type documentSymbol struct {
	Name           string              `json:"name"`
	Detail         string              `json:"detail,omitempty"`
	Kind           protocol.SymbolKind `json:"kind"`
	Range          protocol.Range      `json:"range"`
	SelectionRange protocol.Range      `json:"selectionRange"`
	Children       []documentSymbol    `json:"children,omitempty"`
}

type symbolInformation struct {
	Name          string              `json:"name"`
	Kind          protocol.SymbolKind `json:"kind"`
	Location      protocol.Location   `json:"location"`
	ContainerName string              `json:"containerName,omitempty"`
}

type workspaceSymbolParams struct {
	Query string `json:"query"`
}

func (s *view) documentSymbols(ctx context.Context, doc docRequest, p *abiTableParams) (any, error) {
	syms := []documentSymbol{}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return syms, nil
	}
	if f.Lang == grammar.Python {
		for _, st := range s.ws.StubsFor(f.Path) {
			syms = append(syms, stubSymbol(f.Lines, st))
		}
		return syms, nil
	}
	for _, fs := range s.functionSymbols(f) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		syms = append(syms, documentSymbol{
			Name: fs.name, Detail: fs.detail, Kind: protocol.SymbolKindFunction,
			Range: rangeOf(f.Lines, fs.start, fs.end), SelectionRange: rangeOf(f.Lines, fs.nameStart, fs.nameEnd),
		})
	}
	return syms, nil
}

// stubSymbol is a stub with its parameters as children, each with its
// args[] slot.
func stubSymbol(l *grammar.Lines, st *abi.Stub) documentSymbol {
	ds := documentSymbol{
		Name:   st.Name,
		Detail: "extern · " + coreOf(st) + " · " + plural(st.Tensors, "tensor") + " + " + plural(st.Scalars, "scalar"),
		Kind:   protocol.SymbolKindFunction,
		Range:  rangeOf(l, st.DefStart, st.DefEnd), SelectionRange: rangeOf(l, st.Start, st.End),
	}
	for i := range st.Params {
		pp := &st.Params[i]
		kind := protocol.SymbolKindVariable
		if pp.Kind == abi.Scalar {
			kind = protocol.SymbolKindConstant
		}
		ds.Children = append(ds.Children, documentSymbol{
			Name: pp.Name, Detail: fmt.Sprintf("args[%d] · %s", pp.Slot, slotShape(pp)), Kind: kind,
			Range: rangeOf(l, pp.Start, pp.End), SelectionRange: rangeOf(l, pp.NameStart, pp.NameEnd),
		})
	}
	return ds
}

func coreOf(st *abi.Stub) string {
	if st.CoreType == "" {
		return "aiv"
	}
	return st.CoreType
}

// funcSymbol is a C++ function worth listing.
type funcSymbol struct {
	name, detail       string
	start, end         uint32
	nameStart, nameEnd uint32
	entry, argsBody    bool
}

// functionSymbols lists a C++ file's function definitions; extern entries
// say their stubs, functions taking the args pointer say so.
func (s *view) functionSymbols(f *grammar.File) []funcSymbol {
	entries, bodies := cxx.Entries(f)
	isEntry, isBody := map[*grammar.Node]bool{}, map[*grammar.Node]bool{}
	for _, fn := range entries {
		isEntry[fn] = true
	}
	for _, fn := range bodies {
		isBody[fn] = true
	}
	var stubs []*abi.Stub
	if len(entries) > 0 {
		stubs = s.ws.StubsForEntry(f.Path)
	}
	var out []funcSymbol
	for _, fn := range cxx.Functions(f) {
		d := cxx.FunctionDeclarator(fn)
		if d == nil {
			continue
		}
		nameNode := d.ChildByField("declarator")
		if nameNode == nil {
			continue
		}
		fs := funcSymbol{name: nameNode.Text(), start: fn.Start, end: fn.End, nameStart: nameNode.Start, nameEnd: nameNode.End,
			entry: isEntry[fn], argsBody: isBody[fn]}
		if td := fn.Parent(); td != nil && td.Kind() == "template_declaration" {
			fs.start = td.Start
			if ps := td.ChildByField("parameters"); ps != nil {
				fs.detail = "template" + strings.Join(strings.Fields(ps.Text()), " ")
			}
		}
		switch {
		case fs.entry:
			var names []string
			for _, st := range stubs {
				names = append(names, st.Name)
			}
			fs.detail = "extern entry"
			if len(names) > 0 {
				fs.detail += " · " + strings.Join(names, ", ")
			}
		case fs.argsBody:
			fs.detail = strings.TrimSuffix("reads args · "+fs.detail, " · ")
		}
		out = append(out, fs)
	}
	return out
}

// workspaceSymbols finds stubs, extern entries and the functions that read
// args across the workspace by a case-insensitive fuzzy match.
func (s *view) workspaceSymbols(ctx context.Context, p *workspaceSymbolParams) (any, error) {
	out := []symbolInformation{}
	q := strings.ToLower(p.Query)
	for _, st := range s.ws.Stubs() {
		if fuzzy(q, st.Name) {
			out = append(out, symbolInformation{Name: st.Name, Kind: protocol.SymbolKindFunction,
				Location: s.location(st.File, st.Start, st.End), ContainerName: "extern stub · " + filepath.Base(st.File)})
		}
	}
	for i, path := range s.ws.KnownFiles() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if i%64 == 63 {
			// Every extern file is parsed on the way: hold a few at a time.
			s.trimParses()
		}
		if !s.ws.Context(path).Extern {
			continue
		}
		f, err := s.ws.File(path)
		if err != nil || f.Tree == nil || f.Lang != grammar.CPP {
			continue
		}
		for _, fs := range s.functionSymbols(f) {
			if !fs.entry && !fs.argsBody || !fuzzy(q, fs.name) {
				continue
			}
			container := "reads args · " + filepath.Base(path)
			if fs.entry {
				container = "extern entry · " + filepath.Base(path)
			}
			out = append(out, symbolInformation{Name: fs.name, Kind: protocol.SymbolKindFunction,
				Location:      protocol.Location{URI: protocol.DocumentURI(s.uriFor(path)), Range: rangeOf(f.Lines, fs.nameStart, fs.nameEnd)},
				ContainerName: container})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// fuzzy reports whether the letters of q (lower case) appear in name in
// order, as editors match symbol queries.
func fuzzy(q, name string) bool {
	name = strings.ToLower(name)
	for _, r := range q {
		i := strings.IndexRune(name, r)
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
	return true
}
