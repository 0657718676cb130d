package lsp

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Reordering a stub's parameters in the editor moves their args[] slots;
// the C++ still reads the saved order. While the stub buffer differs from
// the file on disk by such a permutation, a refactor action offers to
// renumber the C++ reads written as literal indices to the new slots. It is
// unsafe by nature (only the author knows the reorder was meant), so its
// edits carry a change annotation that needs confirmation: clients show
// the preview before applying. Reads that another extern compiles too are
// left alone (renumbering them would break that extern), and so are named
// indices (the constant's definition is the place to change).

const (
	renumberKind       = "refactor.rewrite"
	renumberAnnotation = "extern-lsp.renumber"
)

type annotatedTextEdit struct {
	Range        protocol.Range `json:"range"`
	NewText      string         `json:"newText"`
	AnnotationID string         `json:"annotationId"`
}

type annotatedDocumentEdit struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Edits []annotatedTextEdit `json:"edits"`
}

type changeAnnotation struct {
	Label             string `json:"label"`
	NeedsConfirmation bool   `json:"needsConfirmation"`
	Description       string `json:"description,omitempty"`
}

type annotatedWorkspaceEdit struct {
	DocumentChanges   []annotatedDocumentEdit     `json:"documentChanges"`
	ChangeAnnotations map[string]changeAnnotation `json:"changeAnnotations"`
}

type refactorAction struct {
	Title string                  `json:"title"`
	Kind  string                  `json:"kind"`
	Edit  *annotatedWorkspaceEdit `json:"edit"`
}

// renumberActions offers the renumbering for the stubs of a .py whose
// definition the range touches.
func (s *view) renumberActions(ctx context.Context, doc docRequest, r protocol.Range) []refactorAction {
	if l, _ := grammar.LangOf(doc.path); l != grammar.Python {
		return nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return nil
	}
	start, end := offsetOf(f.Lines, r.Start), offsetOf(f.Lines, r.End)
	var saved []*abi.Stub
	var out []refactorAction
	for _, st := range s.ws.StubsFor(f.Path) {
		if end < st.DefStart || start > st.DefEnd {
			continue
		}
		if saved == nil {
			if saved = s.savedStubs(ctx, f.Path); saved == nil {
				return nil
			}
		}
		var old *abi.Stub
		for _, o := range saved {
			if o.Name == st.Name {
				old = o
			}
		}
		if old == nil || !permuted(old, st) {
			continue
		}
		if a, ok := s.renumber(ctx, old, st); ok {
			out = append(out, a)
		}
	}
	return out
}

// savedStubs parses the stubs of the file as saved on disk.
func (s *view) savedStubs(ctx context.Context, path string) []*abi.Stub {
	src, _, err := fsys.ReadFile(path, 0)
	if err != nil {
		return nil
	}
	f, err := grammar.ParseFile(ctx, grammar.NewParser(grammar.Python), path, src, nil)
	if err != nil || f == nil {
		return nil
	}
	defer f.Tree.Close()
	return abi.ParseStubs(f)
}

// permuted reports whether two versions of a stub have the same parameters
// (names and kinds) packed in different slots.
func permuted(old, cur *abi.Stub) bool {
	if len(old.Params) != len(cur.Params) {
		return false
	}
	moved := false
	for i := range old.Params {
		p := &old.Params[i]
		q, ok := cur.Param(p.Name)
		if !ok || q.Kind != p.Kind {
			return false
		}
		moved = moved || q.Slot != p.Slot
	}
	return moved
}

// renumber builds the action moving every literal read of the extern from
// its old slot to the parameter's new one.
func (s *view) renumber(ctx context.Context, old, cur *abi.Stub) (refactorAction, bool) {
	type fileEdits struct {
		path  string
		lines *grammar.Lines
		edits []annotatedTextEdit
	}
	var files []*fileEdits
	n, shared, named := 0, 0, 0
	s.eachExternFile(ctx, cur, func(path string, v *abiView, st *abi.Stub) {
		fe := &fileEdits{path: path, lines: s.linesFor(path)}
		for i := range v.Acc {
			a := &v.Acc[i]
			if a.Via == "constant" || len(a.Slots) != 1 || !v.Compiled(a, st) {
				continue
			}
			from, ok := old.BySlot(int(a.Slots[0]))
			if !ok {
				continue
			}
			to, _ := cur.Param(from.Name)
			if to.Slot == from.Slot {
				continue
			}
			if a.Index == nil || a.Index.Kind() != "number_literal" {
				named++
				continue
			}
			lit, ok := cxx.ParseInt(strings.TrimSpace(a.Index.Text()))
			if !ok {
				named++
				continue
			}
			if sharedRead(v, a, st) {
				shared++
				continue
			}
			offset := a.Slots[0] - lit // helpers that add to the index
			fe.edits = append(fe.edits, annotatedTextEdit{
				Range:        rangeOf(fe.lines, a.Index.Start, a.Index.End),
				NewText:      strconv.FormatInt(int64(to.Slot)-offset, 10),
				AnnotationID: renumberAnnotation,
			})
			n++
		}
		if len(fe.edits) > 0 {
			files = append(files, fe)
		}
	})
	if n == 0 {
		return refactorAction{}, false
	}
	for _, fe := range files {
		if !s.editable(fe.path) {
			// Renumbering only the reads inside would leave the others
			// reading the wrong slots: the whole action goes.
			s.logf(protocol.MessageTypeLog, "renumbering of %s not offered: it would edit %s, outside the workspace folders %v (or reached through a symlink leading out)", cur.Name, fe.path, s.ws.Roots())
			return refactorAction{}, false
		}
	}
	title := fmt.Sprintf("Renumber %s of %s to the new parameter order (unsafe: review the preview)", plural(n, "args[] read"), cur.Name)
	var notes []string
	if shared > 0 {
		notes = append(notes, fmt.Sprintf("%s other externs compile too left as they are", plural(shared, "read")))
	}
	if named > 0 {
		notes = append(notes, fmt.Sprintf("%s through named indices to update where they are defined", plural(named, "read")))
	}
	edit := &annotatedWorkspaceEdit{ChangeAnnotations: map[string]changeAnnotation{renumberAnnotation: {
		Label:             "Renumber args[] reads of " + cur.Name,
		NeedsConfirmation: true,
		Description:       strings.Join(append([]string{"the stub's parameters were reordered; the C++ reads the saved order"}, notes...), "; "),
	}}}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	for _, fe := range files {
		de := annotatedDocumentEdit{Edits: fe.edits}
		de.TextDocument.URI = s.uriFor(fe.path)
		if dv, ok := s.snap.docs[fe.path]; ok {
			// The version the edits were computed on.
			v := dv.version
			de.TextDocument.Version = &v
		}
		edit.DocumentChanges = append(edit.DocumentChanges, de)
	}
	if len(notes) > 0 {
		title += " — " + strings.Join(notes, "; ")
	}
	return refactorAction{Title: title, Kind: renumberKind, Edit: edit}, true
}

// sharedRead reports a read that another extern of the file compiles too.
func sharedRead(v *abiView, a *abi.Access, st *abi.Stub) bool {
	for _, o := range v.Stubs {
		if o != st && v.Compiled(a, o) && !v.OtherBranch(a, o) {
			return true
		}
	}
	return false
}
