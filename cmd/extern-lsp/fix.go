package main

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
)

// maxFixRounds bounds the fixed-point loop: a fix that keeps coming back
// (or two that undo each other) must not spin forever.
const maxFixRounds = 10

// fixLoop applies fixes in memory (workspace overlays) and re-checks until
// no applicable fix is left: edits that do not overlap are merged within a
// round, a fix that conflicts with one already taken waits for the next
// round, and a fix that adds parse errors is dropped. It returns the
// findings of the final state and the number of fixes applied; nothing is
// written here.
func (r *checkRun) fixLoop() ([]fileResult, int, error) {
	r.origSrc = map[string][]byte{}
	r.stamps = map[string]fsys.Stamp{}
	rejected := map[string]bool{}
	fixed := 0
	for round := 0; ; round++ {
		results, err := r.checkAll(round == 0)
		if err != nil {
			return nil, 0, err
		}
		if round == 0 {
			for _, res := range results {
				r.initial = append(r.initial, res.diags...)
			}
			// Fingerprints read the text: match the baseline before any
			// fix changes it.
			if r.baseline != nil {
				r.baseline.apply(r.ws, r.initial, r.files)
			}
		}
		if round == maxFixRounds {
			if !r.flags.quiet {
				fmt.Fprintf(r.stderr, "extern-lsp check: fixes did not settle after %d rounds; the rest are left for review\n", maxFixRounds)
			}
			return results, fixed, nil
		}
		byFile := map[string][]pendingFix{}
		taken := map[string][]analysis.TextEdit{}
		for _, res := range results {
			for _, d := range res.diags {
				fix := r.applicable(d)
				if fix == nil {
					continue
				}
				key := r.fixKey(d, fix)
				if rejected[key] || overlaps(taken, fix.Edits) {
					continue
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
		}
		if len(byFile) == 0 {
			return results, fixed, nil
		}
		applied := map[string]bool{}
		roundSrc := map[string][]byte{}
		for _, file := range sortedKeys(byFile) {
			roundSrc[file], _ = r.ws.Source(file)
			for _, pf := range r.applyFile(file, byFile[file], round) {
				rejected[pf.key] = true
			}
		}
		for _, file := range sortedKeys(byFile) {
			var keep []pendingFix
			for _, pf := range byFile[file] {
				if !rejected[pf.key] {
					keep = append(keep, pf)
					applied[pf.key] = true
				}
			}
			// A fix spanning files that another file rejected must not
			// stay half-applied here: redo this file without it.
			if len(keep) < len(byFile[file]) && roundSrc[file] != nil {
				var edits []analysis.TextEdit
				for _, pf := range keep {
					edits = append(edits, pf.fix.Edits...)
				}
				out, _ := analysis.ApplyEdits(roundSrc[file], file, edits)
				r.ws.SetOverlay(file, out, int32(2*round+3))
			}
		}
		if len(applied) == 0 {
			return results, fixed, nil
		}
		fixed += len(applied)
	}
}

type pendingFix struct {
	key string
	fix *analysis.Fix
}

// applicable returns the fix --fix may apply to a finding.
func (r *checkRun) applicable(d analysis.Diagnostic) *analysis.Fix {
	if d.Suppressed != "" {
		return nil
	}
	for i := range d.Fixes {
		f := &d.Fixes[i]
		if f.Applicability == analysis.Safe || (f.Applicability == analysis.Unsafe && r.flags.unsafeFixes) {
			if len(f.Edits) == 0 {
				continue
			}
			// From stdin only that file's text can be printed back.
			if r.stdin != "" {
				ok := true
				for _, e := range f.Edits {
					ok = ok && e.File == r.stdin
				}
				if !ok {
					continue
				}
			}
			return f
		}
	}
	return nil
}

// fixKey names a fix by content (not offsets, which move between rounds).
func (r *checkRun) fixKey(d analysis.Diagnostic, f *analysis.Fix) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\x00%s\x00%s", d.File, d.Code, f.Title)
	for _, e := range f.Edits {
		src, _ := r.ws.Source(e.File)
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
func (r *checkRun) applyFile(file string, fixes []pendingFix, round int) (rejected []pendingFix) {
	src, err := r.ws.Source(file)
	if err != nil {
		return fixes
	}
	if _, ok := r.origSrc[file]; !ok {
		r.origSrc[file] = src
		if st, ok := r.ws.DiskStamp(file); ok {
			r.stamps[file] = st
		}
	}
	before := r.errorCount(file)
	edits := func(fs []pendingFix) []analysis.TextEdit {
		var out []analysis.TextEdit
		for _, pf := range fs {
			out = append(out, pf.fix.Edits...)
		}
		return out
	}
	try := func(fs []pendingFix) bool {
		out, skipped := analysis.ApplyEdits(src, file, edits(fs))
		r.ws.SetOverlay(file, out, int32(2*round+2))
		return skipped == 0 && r.errorCount(file) <= before
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
		r.ws.SetOverlay(file, src, int32(2*round+3))
		return fixes
	}
	return rejected
}

func (r *checkRun) errorCount(file string) int {
	f, err := r.ws.File(file)
	if err != nil || f.Tree == nil {
		return 0
	}
	return f.Tree.ErrorCount()
}

// changedFiles lists the files whose fixed text differs from the original.
func (r *checkRun) changedFiles() []string {
	var out []string
	for p, orig := range r.origSrc {
		if src, err := r.ws.Source(p); err == nil && !bytes.Equal(src, orig) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
