package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Completion of args indices and signature help in args helpers: after
// `args[` (the extern args pointer of the enclosing function) and at the
// index argument of a helper (`tensor_data<T>(args, `), the items are the
// slots of the externs that compile the cursor's function, named by the
// stub: `args[1]  query  tensor, in`. A helper that reads tensors offers
// the tensor slots only.

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

type completionItem struct {
	Label         string                `json:"label"`
	LabelDetails  *completionLabelExtra `json:"labelDetails,omitempty"`
	Kind          int                   `json:"kind,omitempty"`
	Detail        string                `json:"detail,omitempty"`
	Documentation *markup               `json:"documentation,omitempty"`
	SortText      string                `json:"sortText,omitempty"`
	FilterText    string                `json:"filterText,omitempty"`
	TextEdit      *protocol.TextEdit    `json:"textEdit,omitempty"`
}

type completionLabelExtra struct {
	Detail      string `json:"detail,omitempty"`
	Description string `json:"description,omitempty"`
}

// completionItemKind values of LSP.
const (
	completionKindValue    = 12
	completionKindVariable = 6
)

// argsSite is a place where an args index is being written.
type argsSite struct {
	// helper is the helper being called; nil for `args[`.
	helper *abi.Helper
	// active is the helper parameter the cursor is in.
	active int
	// start, end span the index typed so far (what an item replaces).
	start, end uint32
	// closeBracket is set after `args[` with no `]` yet.
	closeBracket bool
	// at is a node at the site, to tell which externs compile it.
	at *grammar.Node
}

// findArgsSite recognises `args[|` and `helper(args, |` at off. helpers
// is called only once a call is found.
func findArgsSite(f *grammar.File, off uint32, helpers func() abi.Helpers) (argsSite, bool) {
	src := f.Src
	if f.Tree == nil || int(off) > len(src) {
		return argsSite{}, false
	}
	if n := f.Tree.NodeAt(max(off, 1)-1, max(off, 1)-1); n != nil && (n.Kind() == "comment" || strings.Contains(n.Kind(), "string") || n.Kind() == "char_literal") {
		return argsSite{}, false
	}
	start := off
	for start > 0 && isWordByte(src[start-1]) {
		start--
	}
	end := off
	for int(end) < len(src) && isWordByte(src[end]) {
		end++
	}
	q := skipSpaceBack(src, start)
	if q > 0 && src[q-1] == '[' {
		nameEnd := skipSpaceBack(src, q-1)
		name, _, _ := wordAt(src, nameEnd)
		if nameEnd == 0 || !isWordByte(src[nameEnd-1]) || !isArgsName(f, q-1, name) {
			return argsSite{}, false
		}
		e := end
		for int(e) < len(src) && (src[e] == ' ' || src[e] == '\t') {
			e++
		}
		closing := int(e) >= len(src) || src[e] != ']'
		return argsSite{start: start, end: end, closeBracket: closing, at: f.Tree.NodeAt(q-1, q-1)}, true
	}
	open, commas, ok := openCall(src, off)
	if !ok {
		return argsSite{}, false
	}
	calleeEnd := skipSpaceBack(src, open)
	if calleeEnd > 0 && src[calleeEnd-1] == '>' {
		calleeEnd = skipTemplateArgs(src, calleeEnd)
	}
	name, _, _ := wordAt(src, calleeEnd)
	if name == "" || calleeEnd == 0 || !isWordByte(src[calleeEnd-1]) {
		return argsSite{}, false
	}
	h := helpers()[name]
	if h == nil {
		return argsSite{}, false
	}
	args := splitTopLevel(string(src[open+1 : off]))
	if commas > h.ArgsPos && (h.ArgsPos >= len(args) || !isArgsName(f, open, strings.TrimSpace(args[h.ArgsPos]))) {
		return argsSite{}, false
	}
	return argsSite{helper: h, active: commas, start: start, end: end, at: f.Tree.NodeAt(open, open)}, true
}

// isArgsName reports whether name is the extern args parameter of the
// function around off.
func isArgsName(f *grammar.File, off uint32, name string) bool {
	if name == "" {
		return false
	}
	n := f.Tree.NodeAt(off, off)
	if n == nil {
		return false
	}
	fn := n
	if fn.Kind() != "function_definition" {
		fn = n.Ancestor("function_definition")
	}
	if fn == nil {
		return false
	}
	p, ok := cxx.ArgsParam(f, fn)
	return ok && p.Name == name
}

func skipSpaceBack(src []byte, i uint32) uint32 {
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

// skipTemplateArgs steps back over `<...>` ending at end (src[end-1] is
// '>'), returning where the `<` is.
func skipTemplateArgs(src []byte, end uint32) uint32 {
	depth := 0
	for i := end; i > 0; i-- {
		switch src[i-1] {
		case '>':
			depth++
		case '<':
			depth--
			if depth == 0 {
				return skipSpaceBack(src, i-1)
			}
		case ';', '{', '}':
			return end
		}
	}
	return end
}

// openCall finds the unclosed `(` before off within the statement and the
// number of top-level commas between it and off.
func openCall(src []byte, off uint32) (open uint32, commas int, ok bool) {
	depth := 0
	for i := off; i > 0; i-- {
		switch src[i-1] {
		case ')', ']':
			depth++
		case '[':
			if depth == 0 {
				return 0, 0, false
			}
			depth--
		case '(':
			if depth == 0 {
				return i - 1, commas, true
			}
			depth--
		case ',':
			if depth == 0 {
				commas++
			}
		case ';', '{', '}':
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// splitTopLevel splits call arguments at the commas outside brackets.
func splitTopLevel(s string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '<', '{':
			depth++
		case ')', ']', '>', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// stubsAt returns the externs of v that compile the site (all of them
// when the site is outside any function the bindings know).
func (v *abiView) stubsAt(n *grammar.Node) []*abi.Stub {
	site, ok := abi.SiteAt(n)
	if !ok {
		return v.Stubs
	}
	var out []*abi.Stub
	for _, st := range v.Stubs {
		if abi.CompiledIn(&site, v.Bindings(st)) {
			out = append(out, st)
		}
	}
	return out
}

func (s *view) completion(ctx context.Context, doc docRequest, p *positionParams) (any, error) {
	empty := completionList{Items: []completionItem{}}
	if l, _ := grammar.LangOf(doc.path); l != grammar.CPP {
		return empty, nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil {
		return empty, nil
	}
	off := offsetOf(f.Lines, p.Position)
	site, ok := findArgsSite(f, off, func() abi.Helpers { return s.store.ArgsHelpers(ctx, s.ws, f.Path) })
	if !ok || site.helper != nil && site.active != site.helper.IndexPos {
		return empty, nil
	}
	v := s.abiViewOf(f.Path)
	stubs := v.stubsAt(site.at)
	if len(stubs) == 0 {
		return empty, nil
	}
	want := abi.UseUnknown
	if site.helper != nil && !site.helper.Returns {
		want = site.helper.Use
	}
	suffix := ""
	if site.closeBracket {
		suffix = "]"
	}
	labels := externLabels(v.Stubs)
	rng := rangeOf(f.Lines, site.start, site.end)
	maxSlots := 0
	for _, st := range stubs {
		maxSlots = max(maxSlots, st.Count())
	}
	for k := 0; k < maxSlots; k++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		type entry struct {
			st *abi.Stub
			p  *abi.Param
		}
		var at []entry
		for _, st := range stubs {
			if p, ok := st.BySlot(k); ok && (want == abi.UseUnknown || want == abi.UseTensor && p.Kind == abi.Tensor || want == abi.UseScalar && p.Kind == abi.Scalar) {
				at = append(at, entry{st, p})
			}
		}
		if len(at) == 0 {
			continue
		}
		agree := len(at) == len(stubs)
		for _, e := range at[1:] {
			if e.p.Name != at[0].p.Name || e.p.Kind != at[0].p.Kind || e.p.Dir != at[0].p.Dir {
				agree = false
			}
		}
		if agree {
			at = at[:1]
		}
		for i, e := range at {
			desc := slotShape(e.p)
			who := ""
			if !agree && len(stubs) > 1 || len(v.Stubs) > 1 && len(stubs) < len(v.Stubs) {
				who = labels[e.st]
				desc += " · " + who
			}
			var md strings.Builder
			for _, st := range stubs {
				if p, ok := st.BySlot(k); ok && (agree || st == e.st) {
					fmt.Fprintf(&md, "- %s: %s\n", s.stubLink(st), paramText(st, p))
				}
			}
			kind := completionKindVariable
			if e.p.Kind == abi.Scalar {
				kind = completionKindValue
			}
			index := fmt.Sprint(k)
			empty.Items = append(empty.Items, completionItem{
				Label:         "args[" + index + "]",
				LabelDetails:  &completionLabelExtra{Detail: "  " + e.p.Name, Description: desc},
				Kind:          kind,
				Detail:        strings.TrimSpace(e.p.Name + " — " + desc),
				Documentation: &markup{Kind: "markdown", Value: md.String()},
				SortText:      fmt.Sprintf("%04d-%02d", k, i),
				FilterText:    index,
				TextEdit:      &protocol.TextEdit{Range: rng, NewText: index + suffix},
			})
		}
	}
	return empty, nil
}

// slotShape is the short description of a parameter: "tensor, in",
// "tensor, out, BF16", "scalar, INDEX".
func slotShape(p *abi.Param) string {
	parts := []string{p.Kind.String()}
	if p.Kind == abi.Tensor {
		parts = append(parts, p.Dir.String())
	}
	if p.DType != "" {
		parts = append(parts, p.DType)
	}
	return strings.Join(parts, ", ")
}

type signatureHelp struct {
	Signatures      []signatureInformation `json:"signatures"`
	ActiveSignature int                    `json:"activeSignature"`
	ActiveParameter int                    `json:"activeParameter"`
}

type signatureInformation struct {
	Label         string                 `json:"label"`
	Documentation *markup                `json:"documentation,omitempty"`
	Parameters    []parameterInformation `json:"parameters"`
}

type parameterInformation struct {
	Label         [2]int  `json:"label"`
	Documentation *markup `json:"documentation,omitempty"`
}

// signatureHelp shows an args helper's signature inside its call, with the
// slots it may read per extern on the index parameter.
func (s *view) signatureHelp(ctx context.Context, doc docRequest, p *positionParams) (any, error) {
	if l, _ := grammar.LangOf(doc.path); l != grammar.CPP {
		return nil, nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil {
		return nil, nil
	}
	off := offsetOf(f.Lines, p.Position)
	site, ok := findArgsSite(f, off, func() abi.Helpers { return s.store.ArgsHelpers(ctx, s.ws, f.Path) })
	if !ok || site.helper == nil || site.helper.Node == nil {
		return nil, nil
	}
	h := site.helper
	var hsrc []byte
	if hf, err := s.ws.File(h.File); err == nil && hf != nil {
		hsrc = hf.Src
	}
	label, spans := helperSignature(h, hsrc)
	params := make([]parameterInformation, len(spans))
	for i, sp := range spans {
		params[i] = parameterInformation{Label: sp}
	}
	v := s.abiViewOf(f.Path)
	stubs := v.stubsAt(site.at)
	what := "either kind"
	if h.Use != abi.UseUnknown && !h.Returns {
		what = "a " + h.Use.String()
	}
	if h.IndexPos < len(params) {
		var b strings.Builder
		fmt.Fprintf(&b, "The args index; `%s` reads it as %s", h.Name, what)
		if h.Offset != 0 {
			fmt.Fprintf(&b, " at args[index %+d]", h.Offset)
		}
		b.WriteString(".\n\n")
		labels := externLabels(v.Stubs)
		for _, st := range stubs {
			var slots []string
			for k := range st.Count() {
				pp, _ := st.BySlot(k)
				if h.Use == abi.UseUnknown || h.Returns || h.Use == abi.UseTensor && pp.Kind == abi.Tensor || h.Use == abi.UseScalar && pp.Kind == abi.Scalar {
					slots = append(slots, fmt.Sprintf("%d `%s`", int64(pp.Slot)-h.Offset, pp.Name))
				}
			}
			who := st.Name
			if len(v.Stubs) > 1 {
				who = labels[st] + " (`" + st.Name + "`)"
			}
			fmt.Fprintf(&b, "- %s: %s\n", who, strings.Join(slots, ", "))
		}
		params[h.IndexPos].Documentation = &markup{Kind: "markdown", Value: b.String()}
	}
	if h.ArgsPos < len(params) {
		params[h.ArgsPos].Documentation = &markup{Kind: "markdown", Value: "The extern's args pointer."}
	}
	doc2 := fmt.Sprintf("args helper defined in `%s`: reads `args[index]` as %s.", filepath.Base(h.File), what)
	active := site.active
	if active >= len(params) {
		active = len(params) - 1
	}
	return signatureHelp{
		Signatures:      []signatureInformation{{Label: label, Documentation: &markup{Kind: "markdown", Value: doc2}, Parameters: params}},
		ActiveParameter: max(active, 0),
	}, nil
}

// helperSignature renders `name<T>(type a, type b)` from the helper's
// definition (src is its file's text) and the [start, end) of each parameter in it, in characters
// (LSP counts UTF-16 units; the declarations are ASCII).
func helperSignature(h *abi.Helper, src []byte) (string, [][2]int) {
	// A parameter's node starts after a masked qualifier (`__gm__`):
	// the text runs from the delimiter before it.
	text := func(n *grammar.Node) string {
		t := n.Text()
		if int(n.End) <= len(src) {
			i := n.Start
			for i > 0 && src[i-1] != '(' && src[i-1] != ',' && src[i-1] != '<' {
				i--
			}
			t = string(src[i:n.End])
		}
		return strings.Join(strings.Fields(t), " ")
	}
	var b strings.Builder
	b.WriteString(h.Name)
	if td := h.Node.Parent(); td != nil && td.Kind() == "template_declaration" {
		if ps := td.ChildByField("parameters"); ps != nil {
			var names []string
			for _, p := range ps.NamedChildren() {
				if p.Kind() == "comment" {
					continue
				}
				t := text(p)
				for _, kw := range []string{"typename ", "class "} {
					t = strings.TrimPrefix(t, kw)
				}
				names = append(names, t)
			}
			b.WriteString("<" + strings.Join(names, ", ") + ">")
		}
	}
	b.WriteString("(")
	var spans [][2]int
	for i, p := range cxx.Params(h.Node) {
		if i > 0 {
			b.WriteString(", ")
		}
		t := text(p.Node)
		start := len([]rune(b.String()))
		b.WriteString(t)
		spans = append(spans, [2]int{start, start + len([]rune(t))})
	}
	b.WriteString(")")
	return b.String(), spans
}
