package lsp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// References across the two languages: a stub parameter's references are
// every C++ read of its args slot in every file the extern compiles (as
// the args rules judge them: only reads the extern compiles, the taken
// branch of an unbound flag), and a C++ read's references are those of the
// parameter(s) it reads under each extern, so its sibling reads too.

type referenceParams struct {
	positionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// paramRef is one stub parameter.
type paramRef struct {
	st *abi.Stub
	p  *abi.Param
}

// paramsAt returns the stub parameter(s) at off: the parameter under the
// cursor in a .py, or what the args read under the cursor reads under
// each extern that compiles it.
func (s *view) paramsAt(f *grammar.File, off uint32) []paramRef {
	var out []paramRef
	if f.Lang == grammar.Python {
		for _, st := range s.ws.StubsFor(f.Path) {
			for i := range st.Params {
				p := &st.Params[i]
				if off >= p.NameStart && off <= p.NameEnd {
					out = append(out, paramRef{st, p})
				}
			}
		}
		return out
	}
	v := s.abiViewOf(f.Path)
	a := v.At(off)
	if a == nil || a.Via == "constant" {
		return nil
	}
	for _, st := range v.Stubs {
		if !v.Compiled(a, st) || v.OtherBranch(a, st) {
			continue
		}
		sls, _ := v.SlotsFor(a, st)
		for _, sl := range sls {
			if p, ok := st.BySlot(int(sl)); ok {
				out = append(out, paramRef{st, p})
			}
		}
	}
	return out
}

// eachExternFile calls fn with the view of every C++ file an extern
// compiles (its entries and what they include) and the extern's stub as
// that view knows it (the stub may have been parsed again since st).
func (s *view) eachExternFile(ctx context.Context, st *abi.Stub, fn func(path string, v *abiView, st *abi.Stub)) {
	cur := sameStub(s.ws.Stubs(), st) // links are kept per parse of the stub
	if cur == nil {
		return
	}
	seen := map[string]bool{}
	for _, e := range s.ws.StubEntries(cur) {
		for _, path := range s.ws.Closure(e) {
			if seen[path] || ctx.Err() != nil {
				continue
			}
			seen[path] = true
			v := s.abiViewOf(path)
			if vs := sameStub(v.Stubs, cur); vs != nil {
				fn(path, v, vs)
			}
		}
	}
}

// readsOf returns the C++ reads of a parameter's slot in every file the
// extern compiles.
func (s *view) readsOf(ctx context.Context, pr paramRef) []readSite {
	var out []readSite
	s.eachExternFile(ctx, pr.st, func(path string, v *abiView, st *abi.Stub) {
		p, ok := st.Param(pr.p.Name)
		if !ok {
			return
		}
		for i := range v.Acc {
			a := &v.Acc[i]
			if a.Via == "constant" || !v.Compiled(a, st) || v.OtherBranch(a, st) {
				continue
			}
			sls, _ := v.SlotsFor(a, st)
			for _, sl := range sls {
				if int(sl) == p.Slot {
					out = append(out, readSite{path: path, a: a})
					break
				}
			}
		}
	})
	return out
}

// readSite is one args read.
type readSite struct {
	path string
	a    *abi.Access
}

// span is what a read covers in the editor: the whole `args[k]` or
// helper call.
func (r readSite) span() (uint32, uint32) {
	if r.a.Node != nil {
		return r.a.Node.Start, r.a.Node.End
	}
	return r.a.Start, r.a.End
}

// locationSet collects locations once each.
type locationSet struct {
	list []protocol.Location
	seen map[string]bool
}

func (ls *locationSet) add(l protocol.Location) {
	k := fmt.Sprintf("%s:%v", l.URI, l.Range)
	if ls.seen == nil {
		ls.seen = map[string]bool{}
	}
	if !ls.seen[k] {
		ls.seen[k] = true
		ls.list = append(ls.list, l)
	}
}

// sameStub finds st among stubs: the same object, or the stub of the same
// name in the same file from another parse.
func sameStub(stubs []*abi.Stub, st *abi.Stub) *abi.Stub {
	for _, x := range stubs {
		if x == st {
			return x
		}
	}
	for _, x := range stubs {
		if x.File == st.File && x.Name == st.Name {
			return x
		}
	}
	return nil
}

func (s *view) references(ctx context.Context, doc docRequest, p *referenceParams) (any, error) {
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return nil, nil
	}
	prs := s.paramsAt(f, offsetOf(f.Lines, p.Position))
	if len(prs) == 0 {
		return nil, nil
	}
	var locs locationSet
	add := locs.add
	for _, pr := range prs {
		if p.Context.IncludeDeclaration {
			add(s.location(pr.st.File, pr.p.NameStart, pr.p.NameEnd))
		}
		for _, r := range s.readsOf(ctx, pr) {
			start, end := r.span()
			add(s.location(r.path, start, end))
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out := append([]protocol.Location{}, locs.list...)
	slices.SortStableFunc(out, func(a, b protocol.Location) int {
		return cmp.Or(strings.Compare(string(a.URI), string(b.URI)), comparePos(a.Range.Start, b.Range.Start))
	})
	return out, nil
}
