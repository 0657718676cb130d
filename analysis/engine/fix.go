package engine

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// MaxFixRounds bounds the fixed-point loop: a fix that keeps coming back
// (or two that undo each other) must not spin forever.
const MaxFixRounds = 10

// Fixer is the fix engine of every front end: `check --fix` / `--diff` run
// it over the files of a run, the server's fix-all over one document (on a
// fork of its workspace, then diffs the result into a TextEdit).
//
// It applies fixes in memory (workspace overlays) and re-checks until no
// applicable fix is left: edits that do not overlap are merged within a
// round, a fix that conflicts with one already taken waits for the next
// round, and a fix that adds parse errors (or whose edits overlap each
// other) is dropped. Nothing is written to disk.
type Fixer struct {
	WS *workspace.Workspace
	// Check returns the findings of the current text (round counts from
	// 0, the unfixed text).
	Check func(round int) ([]analysis.Diagnostic, error)
	// Unsafe also applies unsafe fixes; display-only fixes never apply.
	Unsafe bool
	// Allow, when set, limits fixes to those whose edits all fall in
	// files it allows (the one document `check -` can give back, the
	// files the server may edit).
	Allow func(path string) bool
	// Recheck, when set, proves each fix before it is applied (see
	// Recheck); a fix it refuses is left out and listed in
	// Fixed.Dropped. Every front end sets it.
	Recheck *Recheck
	// Ctx stops the rechecks (nil: never).
	Ctx context.Context
}

// Fixed is the outcome of a fix run.
type Fixed struct {
	// Final are the findings of the fixed text.
	Final []analysis.Diagnostic
	// Count is the number of fixes applied.
	Count int
	// Orig holds the text before fixing of every file a fix touched, and
	// Stamps what the disk held then (for files read from disk): a write
	// must find the file unchanged.
	Orig   map[string][]byte
	Stamps map[string]fsys.Stamp
	// Settled is false when fixes were still coming after MaxFixRounds.
	Settled bool
	// Dropped are the fixes the recheck refused, in the order met.
	Dropped []Dropped
}

// Changed lists the files whose fixed text differs from the original.
func (x *Fixed) Changed(ws *workspace.Workspace) []string {
	var out []string
	for p, orig := range x.Orig {
		if src, err := ws.Source(p); err == nil && !bytes.Equal(src, orig) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Unoffer takes from diags, findings of the fixed text, the fixes the
// recheck refused there: what --fix just refused is not offered as a
// fix (a fix is offered only as a promise kept).
func (x *Fixed) Unoffer(diags []analysis.Diagnostic) {
	refused := map[string]bool{}
	for _, d := range x.Dropped {
		refused[d.File+"\x00"+d.Code+"\x00"+d.Title] = true
	}
	if len(refused) == 0 {
		return
	}
	for i := range diags {
		d := &diags[i]
		gone := func(f analysis.Fix) bool { return refused[d.File+"\x00"+d.Code+"\x00"+f.Title] }
		if slices.ContainsFunc(d.Fixes, gone) {
			d.Fixes = slices.DeleteFunc(slices.Clone(d.Fixes), gone)
		}
	}
}

type pendingFix struct {
	key string
	fix *analysis.Fix
}

// Run fixes to a fixed point.
func (fx *Fixer) Run() (*Fixed, error) {
	out := &Fixed{Orig: map[string][]byte{}, Stamps: map[string]fsys.Stamp{}}
	rejected := map[string]bool{}
	dropped := map[string]Dropped{}
	var dropOrder []string
	defer func() {
		// A refused fix whose finding a later fix removed is no loss.
		left := map[string]bool{}
		for _, d := range out.Final {
			for _, f := range d.Fixes {
				left[d.File+"\x00"+d.Code+"\x00"+f.Title] = true
			}
		}
		for _, k := range dropOrder {
			if d, ok := dropped[k]; ok && left[d.File+"\x00"+d.Code+"\x00"+d.Title] {
				out.Dropped = append(out.Dropped, d)
			}
		}
		out.Unoffer(out.Final)
	}()
	for round := 0; ; round++ {
		diags, err := fx.Check(round)
		if err != nil {
			return nil, err
		}
		out.Final = diags
		if round == MaxFixRounds {
			return out, nil
		}
		byFile := map[string][]pendingFix{}
		taken := map[string][]analysis.TextEdit{}
		for _, d := range diags {
			fix := fx.applicable(d)
			if fix == nil {
				continue
			}
			key := fx.fixKey(d, fix)
			if rejected[key] || overlaps(taken, fix.Edits) {
				continue
			}
			if fx.Recheck != nil {
				ctx := fx.Ctx
				if ctx == nil {
					ctx = context.Background()
				}
				// Refused on this round's text only: a later round (other
				// fixes applied) asks again.
				if why := fx.Recheck.Verify(ctx, fx.WS, d, fix); why != "" {
					if _, ok := dropped[key]; !ok {
						dropOrder = append(dropOrder, key)
					}
					dropped[key] = Dropped{File: d.File, Start: d.Start, Code: d.Code, Title: fix.Title, Why: why}
					continue
				}
			}
			for _, e := range fix.Edits {
				taken[e.File] = append(taken[e.File], e)
			}
			pf := pendingFix{key: key, fix: fix}
			// A fix spanning files is checked against each of them.
			for _, file := range editFiles(fix) {
				byFile[file] = append(byFile[file], pf)
			}
		}
		if len(byFile) == 0 {
			out.Settled = true
			return out, nil
		}
		applied := map[string]bool{}
		roundSrc := map[string][]byte{}
		for _, file := range slices.Sorted(maps.Keys(byFile)) {
			roundSrc[file], _ = fx.WS.Source(file)
			for _, pf := range fx.applyFile(out, file, byFile[file], round) {
				rejected[pf.key] = true
			}
		}
		for _, file := range slices.Sorted(maps.Keys(byFile)) {
			var keep []pendingFix
			for _, pf := range byFile[file] {
				if !rejected[pf.key] {
					keep = append(keep, pf)
					applied[pf.key] = true
					delete(dropped, pf.key)
				}
			}
			// A fix spanning files that another file rejected must not
			// stay half-applied here: redo this file without it.
			if len(keep) < len(byFile[file]) && roundSrc[file] != nil {
				var edits []analysis.TextEdit
				for _, pf := range keep {
					edits = append(edits, pf.fix.Edits...)
				}
				text, _ := analysis.ApplyEdits(roundSrc[file], file, edits)
				fx.WS.SetOverlay(file, text, int32(2*round+3))
			}
		}
		if len(applied) == 0 {
			out.Settled = true
			return out, nil
		}
		out.Count += len(applied)
	}
}

// applicable returns the fix the engine may apply to a finding: its first
// safe one (or unsafe one, when allowed) with edits.
func (fx *Fixer) applicable(d analysis.Diagnostic) *analysis.Fix {
	if d.Suppressed != "" {
		return nil
	}
	for i := range d.Fixes {
		f := &d.Fixes[i]
		if f.Applicability != analysis.Safe && (f.Applicability != analysis.Unsafe || !fx.Unsafe) || len(f.Edits) == 0 {
			continue
		}
		if fx.Allow != nil {
			ok := true
			for _, e := range f.Edits {
				ok = ok && fx.Allow(e.File)
			}
			if !ok {
				continue
			}
		}
		return f
	}
	return nil
}

// fixKey names a fix by content (not offsets, which move between rounds).
func (fx *Fixer) fixKey(d analysis.Diagnostic, f *analysis.Fix) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\x00%s\x00%s", d.File, d.Code, f.Title)
	for _, e := range f.Edits {
		src, _ := fx.WS.Source(e.File)
		old := ""
		if int(e.End) <= len(src) && e.Start <= e.End {
			old = string(src[e.Start:e.End])
		}
		fmt.Fprintf(&b, "\x00%s\x00%s\x00%s", e.File, old, e.NewText)
	}
	return b.String()
}

func editFiles(f *analysis.Fix) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range f.Edits {
		if !seen[e.File] {
			seen[e.File] = true
			out = append(out, e.File)
		}
	}
	return out
}

// overlaps reports whether any edit touches a range already taken; two
// insertions at one offset conflict too (their order would be a guess).
func overlaps(taken map[string][]analysis.TextEdit, edits []analysis.TextEdit) bool {
	for _, e := range edits {
		for _, t := range taken[e.File] {
			if e.Start < t.End && t.Start < e.End {
				return true
			}
			if e.Start == t.Start || (e.Start == e.End && e.Start > t.Start && e.Start < t.End) || (t.Start == t.End && t.Start > e.Start && t.Start < e.End) {
				return true
			}
		}
	}
	return false
}

// applyFile applies a round's fixes to one file's overlay. If the result
// parses with more ERROR nodes than before, each fix is tried alone and the
// ones that break the parse are returned (rejected) and left out.
func (fx *Fixer) applyFile(out *Fixed, file string, fixes []pendingFix, round int) (rejected []pendingFix) {
	src, err := fx.WS.Source(file)
	if err != nil {
		return fixes
	}
	if _, ok := out.Orig[file]; !ok {
		out.Orig[file] = src
		if st, ok := fx.WS.DiskStamp(file); ok {
			out.Stamps[file] = st
		}
	}
	before := errorCount(fx.WS, file)
	edits := func(fs []pendingFix) []analysis.TextEdit {
		var out []analysis.TextEdit
		for _, pf := range fs {
			out = append(out, pf.fix.Edits...)
		}
		return out
	}
	try := func(fs []pendingFix) bool {
		text, skipped := analysis.ApplyEdits(src, file, edits(fs))
		fx.WS.SetOverlay(file, text, int32(2*round+2))
		return skipped == 0 && errorCount(fx.WS, file) <= before
	}
	if try(fixes) {
		return nil
	}
	var good []pendingFix
	for _, pf := range fixes {
		if try([]pendingFix{pf}) {
			good = append(good, pf)
		} else {
			rejected = append(rejected, pf)
		}
	}
	if len(good) == 0 || !try(good) {
		fx.WS.SetOverlay(file, src, int32(2*round+3))
		return fixes
	}
	return rejected
}

// Write writes the changed files through the one write path (fsys: inside
// the workspace roots, unchanged since read, atomic), and returns the
// files written and why each other one was not.
func (x *Fixed) Write(ws *workspace.Workspace) (written []string, failed map[string]error) {
	wr := &fsys.Writer{Roots: ws.Roots()}
	failed = map[string]error{}
	for _, p := range x.Changed(ws) {
		src, _ := ws.Source(p)
		var stamp *fsys.Stamp
		if st, ok := x.Stamps[p]; ok {
			stamp = &st
		}
		if err := wr.Replace(p, stamp, src); err != nil {
			failed[p] = err
			continue
		}
		written = append(written, p)
	}
	return written, failed
}

// DiffEdit is the one edit that turns a into b (file's text): the span
// between their common prefix and suffix. The server sends fixed text this
// way; nil when the texts are equal.
func DiffEdit(file string, a, b []byte) []analysis.TextEdit {
	if bytes.Equal(a, b) {
		return nil
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	// Cut on character boundaries: positions become UTF-16 columns.
	for p > 0 && (p < len(a) && a[p]&0xC0 == 0x80 || p < len(b) && b[p]&0xC0 == 0x80) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	for s > 0 && (a[len(a)-s]&0xC0 == 0x80 || b[len(b)-s]&0xC0 == 0x80) {
		s--
	}
	return []analysis.TextEdit{{File: file, Start: uint32(p), End: uint32(len(a) - s), NewText: string(b[p : len(b)-s])}}
}
