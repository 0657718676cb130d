package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func (s *view) hover(ctx context.Context, doc docRequest, p *positionParams) (any, error) {
	f, err := s.fileFor(doc.uri)
	if err != nil || f == nil || f.Tree == nil {
		return nil, nil
	}
	off := offsetOf(f.Lines, p.Position)
	node := f.Tree.NodeAt(off, off)
	if node != nil && node.Kind() == "comment" {
		if h := s.hoverSuppression(f, off); h != nil {
			return h, nil
		}
		return nil, nil
	}
	if h := s.hoverABI(f, off); h != nil {
		return h, nil
	}
	if f.Lang != grammar.CPP {
		return nil, nil
	}
	if h := s.hoverLaunch(f, off); h != nil {
		return h, nil
	}
	if h := s.hoverInclude(f, off); h != nil {
		return h, nil
	}
	if node != nil && (strings.Contains(node.Kind(), "string") || node.Kind() == "char_literal" || node.Kind() == "system_lib_string") {
		return nil, nil
	}
	word, ws, we := wordAt(f.Src, off)
	if doc, ok := apiDocs[word]; ok {
		return markdownHover(f.Lines, ws, we, "**"+word+"**\n\n"+doc), nil
	}
	return nil, nil
}

// markdownHover is a hover of Markdown text over [start, end).
func markdownHover(l *grammar.Lines, start, end uint32, md string) *protocol.Hover {
	r := rangeOf(l, start, end)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// wordAt returns the identifier-like word around off (off may sit just
// after its last character).
func wordAt(src []byte, off uint32) (string, uint32, uint32) {
	if int(off) > len(src) {
		off = uint32(len(src))
	}
	s, e := off, off
	for s > 0 && isWordByte(src[s-1]) {
		s--
	}
	for int(e) < len(src) && isWordByte(src[e]) {
		e++
	}
	return string(src[s:e]), s, e
}

// hoverSuppression explains the rule a NOLINT(...) or noqa code names; on
// the keyword, every rule the suppression lists.
func (s *view) hoverSuppression(f *grammar.File, off uint32) *protocol.Hover {
	sup, i := analysis.SuppressionAt(analysis.ParseSuppressions(f), off)
	if sup == nil {
		return nil
	}
	if i >= 0 {
		a := s.lookupRule(sup.Codes[i])
		if a == nil {
			return nil
		}
		return markdownHover(f.Lines, sup.CodeSpans[i][0], sup.CodeSpans[i][1], engine.RuleHover(a))
	}
	var b strings.Builder
	for _, c := range sup.Codes {
		if a := s.lookupRule(c); a != nil {
			fmt.Fprintf(&b, "- **%s** `%s`: %s\n", a.Code, a.Name, a.Doc.Summary)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return markdownHover(f.Lines, sup.Start, sup.EndOff, "Suppressed here:\n\n"+b.String())
}
