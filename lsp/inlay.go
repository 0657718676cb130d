package lsp

import (
	"cmp"

	"context"
	"go.lsp.dev/protocol"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Inlay hints name the Python parameter after every args read. In a header
// compiled under several externs the hint says which extern each name
// belongs to, with a short label per extern (`key_cache (rope) · value_cache
// (plain)`), and collapses to the bare name when every extern agrees.

func (s *view) inlayHints(ctx context.Context, doc docRequest, p *rangeParams) (any, error) {
	hints := []inlayHint{}
	if l, _ := grammar.LangOf(doc.path); l != grammar.CPP {
		return hints, nil
	}
	f, err := s.fileFor(doc.uri)
	if err != nil {
		return hints, nil
	}
	start, end := offsetOf(f.Lines, p.Range.Start), offsetOf(f.Lines, p.Range.End)
	v := s.abiViewOf(f.Path)
	if len(v.Stubs) == 0 {
		return hints, nil
	}
	labels := externLabels(v.Stubs)
	for i := range v.Acc {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		a := &v.Acc[i]
		if a.Via == "constant" || len(a.Slots) == 0 {
			continue
		}
		_, at := a.Range()
		if at < start || at > end {
			continue
		}
		label := v.hintLabel(a, labels)
		if label == "" {
			continue
		}
		hints = append(hints, inlayHint{
			Position:    posOf(f.Lines, at),
			Label:       label,
			PaddingLeft: true,
			Tooltip:     &markup{Kind: "markdown", Value: s.accessMarkdown(v, a)},
		})
	}
	slices.SortStableFunc(hints, func(a, b inlayHint) int { return comparePos(a.Position, b.Position) })
	return hints, nil
}

// hintLabel names the parameter an access reads under each extern that
// compiles it: the bare name when they all agree, else `name (extern)`
// groups joined by " · ". "" when no extern compiles the read.
func (v *abiView) hintLabel(a *abi.Access, labels map[*abi.Stub]string) string {
	type group struct {
		name    string
		externs []string
	}
	var groups []*group
	byName := map[string]*group{}
	compiled := 0
	for _, st := range v.Stubs {
		name, ok := v.nameUnder(a, st)
		if !ok {
			continue
		}
		compiled++
		g := byName[name]
		if g == nil {
			g = &group{name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		g.externs = append(g.externs, labels[st])
	}
	if compiled == 0 {
		return ""
	}
	if len(groups) == 1 && compiled == len(v.Stubs) {
		return groups[0].name
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = g.name + " (" + strings.Join(g.externs, ", ") + ")"
	}
	return strings.Join(parts, " · ")
}

// nameUnder names the parameter(s) an access reads under a stub; ok is
// false when the extern does not compile the read (or takes the other
// branch of an unbound flag). An index past the packing reads "out of
// range".
func (v *abiView) nameUnder(a *abi.Access, st *abi.Stub) (string, bool) {
	if !v.Compiled(a, st) || v.OtherBranch(a, st) {
		return "", false
	}
	slots, known := v.SlotsFor(a, st)
	if !known {
		return "unknown", true
	}
	var names []string
	for _, sl := range slots {
		if p, ok := st.BySlot(int(sl)); ok {
			names = append(names, p.Name)
		} else {
			names = append(names, "out of range")
		}
	}
	if len(names) == 0 {
		return "", false
	}
	return strings.Join(names, " / "), true
}

// externLabels gives each extern a short label that tells it from the
// others: the words of its name the other names do not share
// (paged_attention_rope_cce → "rope"); the extern whose name has nothing
// of its own is "plain". One extern needs no label.
func externLabels(stubs []*abi.Stub) map[*abi.Stub]string {
	out := map[*abi.Stub]string{}
	if len(stubs) < 2 {
		for _, st := range stubs {
			out[st] = st.Name
		}
		return out
	}
	words := make([][]string, len(stubs))
	for i, st := range stubs {
		words[i] = strings.Split(st.Name, "_")
	}
	pre := commonRun(words, func(w []string, k int) string { return w[k] })
	suf := commonRun(words, func(w []string, k int) string { return w[len(w)-1-k] })
	seen := map[string]int{}
	for i, st := range stubs {
		w := words[i]
		lo, hi := min(pre, len(w)), max(len(w)-suf, 0)
		label := "plain"
		if lo < hi {
			label = strings.Join(w[lo:hi], "_")
		}
		seen[label]++
		out[st] = label
	}
	// Two externs left with the same label (same name in two stub files):
	// the file tells them apart.
	for _, st := range stubs {
		if seen[out[st]] > 1 {
			out[st] = st.Name + "@" + filepath.Base(st.File)
		}
	}
	return out
}

// commonRun counts the words every name shares at the positions at(w, 0),
// at(w, 1)…, never consuming a whole name.
func commonRun(words [][]string, at func(w []string, k int) string) int {
	n := 0
	for {
		for _, w := range words {
			if n >= len(w)-1 || at(w, n) != at(words[0], n) {
				return n
			}
		}
		n++
	}
}

// comparePos orders two positions in a document.
func comparePos(a, b protocol.Position) int {
	return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Character, b.Character))
}
