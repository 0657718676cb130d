package lsp

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Renaming a stub parameter renames it in the stub (its name and the uses
// in the stub's body); the C++ reads it by index, so they stay. It starts
// from the parameter or from any C++ read of it; a read that means
// differently named parameters under two externs is refused.

type renameParams struct {
	positionParams
	NewName string `json:"newName"`
}

var pyIdentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true, "await": true,
	"break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true, "try": true,
	"while": true, "with": true, "yield": true,
}

// renameTarget returns the parameters a rename at off changes, or an error
// saying why there is nothing to rename.
func (s *view) renameTarget(f *grammar.File, off uint32) ([]paramRef, error) {
	prs := s.paramsAt(f, off)
	if len(prs) == 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "extern-lsp renames @pl.jit.extern parameters (from the stub or from a C++ args read)")
	}
	for _, pr := range prs[1:] {
		if pr.p.Name != prs[0].p.Name {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "this read is `%s` for %s but `%s` for %s: rename the parameter in its stub", prs[0].p.Name, prs[0].st.Name, pr.p.Name, pr.st.Name)
		}
	}
	return prs, nil
}

func (s *view) prepareRename(ctx context.Context, doc docRequest, p *positionParams) (any, error) {
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return nil, nil
	}
	off := offsetOf(f.Lines, p.Position)
	prs, err := s.renameTarget(f, off)
	if err != nil {
		return nil, err
	}
	if f.Lang == grammar.Python {
		return map[string]any{"range": rangeOf(f.Lines, prs[0].p.NameStart, prs[0].p.NameEnd), "placeholder": prs[0].p.Name}, nil
	}
	a := s.abiViewOf(f.Path).At(off)
	if a == nil {
		return nil, nil
	}
	return map[string]any{"range": rangeOf(f.Lines, a.Start, a.End), "placeholder": prs[0].p.Name}, nil
}

func (s *view) rename(ctx context.Context, doc docRequest, p *renameParams) (any, error) {
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return nil, nil
	}
	prs, err := s.renameTarget(f, offsetOf(f.Lines, p.Position))
	if err != nil {
		return nil, err
	}
	name := p.NewName
	if !pyIdentRE.MatchString(name) || pyKeywords[name] {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not a Python parameter name", name)
	}
	changes := map[string][]protocol.TextEdit{}
	done := map[string]bool{}
	for _, pr := range prs {
		if other, ok := pr.st.Param(name); ok && other != pr.p {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s already has a parameter `%s`", pr.st.Name, name)
		}
		sf, err := s.ws.File(pr.st.File)
		if err != nil || sf.Tree == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "cannot read %s", pr.st.File)
		}
		if !s.editable(pr.st.File) {
			// The same boundary as code actions and check --fix.
			s.logf(protocol.MessageTypeLog, "rename refused: %s is outside the workspace folders %v", pr.st.File, s.ws.Roots())
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s is outside the workspace folders (or reached through a symlink leading out): not renamed", pr.st.File)
		}
		uri := s.uriFor(pr.st.File)
		add := func(start, end uint32) {
			k := fmt.Sprintf("%s:%d", uri, start)
			if done[k] {
				return
			}
			done[k] = true
			changes[uri] = append(changes[uri], protocol.TextEdit{Range: rangeOf(sf.Lines, start, end), NewText: name})
		}
		add(pr.p.NameStart, pr.p.NameEnd)
		// Uses in the stub's body (a stub's body is usually `...`).
		if pr.st.Node != nil {
			if body := pr.st.Node.ChildByField("body"); body != nil {
				for i := range sf.Tree.Nodes {
					n := &sf.Tree.Nodes[i]
					if n.Kind() == "identifier" && n.Start >= body.Start && n.End <= body.End && n.Text() == pr.p.Name && !isAttributeName(n) {
						add(n.Start, n.End)
					}
				}
			}
		}
	}
	for uri := range changes {
		slices.SortFunc(changes[uri], func(a, b protocol.TextEdit) int { return comparePos(a.Range.Start, b.Range.Start) })
	}
	return map[string]any{"changes": changes}, nil
}

// isAttributeName reports `x.name`'s name and `f(name=...)`'s keyword,
// which are not the variable.
func isAttributeName(n *grammar.Node) bool {
	p := n.Parent()
	return p != nil && (p.Kind() == "attribute" && n.Field() == "attribute" || p.Kind() == "keyword_argument" && n.Field() == "name")
}
