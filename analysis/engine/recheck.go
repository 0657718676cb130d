package engine

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Recheck proves a fix before it is offered or applied: the fix is applied
// to a fork of the workspace and the unit it touches is analysed again. It
// passes only when the finding it targets is gone, no new finding appears
// in any file of the unit, and no edited file parses worse. `check --fix`,
// `--diff`, the server's quick fixes and its fix-all all ask it (through
// Fixer.Recheck or Verify), so a fix that would move a bug elsewhere (or
// hide one) is never offered anywhere.
type Recheck struct {
	// Run analyses one file of ws with the front end's options for it,
	// sharing store across the files of one verification.
	Run func(ctx context.Context, ws *workspace.Workspace, path string, store *unit.Store) ([]analysis.Diagnostic, error)

	mu sync.Mutex
	// verdicts by fix and the contents of the unit it was proved on: a
	// code action asked again on unchanged text costs nothing.
	verdicts map[[sha256.Size]byte]string
	// before are the findings of a file by the digest of its inputs.
	before map[[sha256.Size]byte][]analysis.Diagnostic
}

// Dropped is a fix the recheck refused, and why.
type Dropped struct {
	File  string
	Start uint32
	Code  string
	Title string
	Why   string
}

func (d Dropped) String() string {
	return fmt.Sprintf("%s: %s fix %q: %s", d.File, d.Code, d.Title, d.Why)
}

// maxVerdicts bounds the verdict cache (a long editing session asks for
// many): past it the cache starts over.
const maxVerdicts = 4096

// Verify applies fix (of finding d) to a fork of ws and re-runs the
// analysis of the unit; it returns "" when the fix is proved, else why
// not.
func (rc *Recheck) Verify(ctx context.Context, ws *workspace.Workspace, d analysis.Diagnostic, fix *analysis.Fix) string {
	files := unitOf(ws, d, fix)
	key := verdictKey(ws, files, d, fix)
	rc.mu.Lock()
	if v, ok := rc.verdicts[key]; ok {
		rc.mu.Unlock()
		return v
	}
	rc.mu.Unlock()
	why, err := rc.verify(ctx, ws, files, d, fix)
	if err != nil {
		// Cancelled or failed: no verdict to remember, and nothing proved.
		return "the re-check did not finish: " + err.Error()
	}
	rc.mu.Lock()
	if rc.verdicts == nil || len(rc.verdicts) >= maxVerdicts {
		rc.verdicts = map[[sha256.Size]byte]string{}
	}
	rc.verdicts[key] = why
	rc.mu.Unlock()
	return why
}

func (rc *Recheck) verify(ctx context.Context, ws *workspace.Workspace, files []string, d analysis.Diagnostic, fix *analysis.Fix) (string, error) {
	fork := ws.Fork()
	byFile := map[string][]analysis.TextEdit{}
	for _, e := range fix.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		src, err := ws.Source(file)
		if err != nil {
			return "cannot read " + file, nil
		}
		text, skipped := analysis.ApplyEdits(src, file, byFile[file])
		if skipped > 0 {
			return "its edits overlap", nil
		}
		fork.SetOverlay(file, text, -1)
		if errorCount(fork, file) > errorCount(ws, file) {
			return "it breaks the parse of " + file, nil
		}
	}
	var before, after []analysis.Diagnostic
	store := unit.NewStore()
	for _, p := range files {
		b, err := rc.beforeOf(ctx, ws, p)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err != nil {
			// A file of the unit no run can read (a FIFO, too large) has
			// no findings before or after.
			continue
		}
		before = append(before, b...)
		a, err := rc.Run(ctx, fork, p, store)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err == nil {
			after = append(after, a...)
		}
	}
	return compareFindings(fork, d, fix, before, after), nil
}

// beforeOf returns path's findings on ws, reusing them while what they
// depend on is unchanged.
func (rc *Recheck) beforeOf(ctx context.Context, ws *workspace.Workspace, path string) ([]analysis.Diagnostic, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%v", path, unit.InputsOf(ws, path))
	var k [sha256.Size]byte
	h.Sum(k[:0])
	rc.mu.Lock()
	b, ok := rc.before[k]
	rc.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := rc.Run(ctx, ws, path, nil)
	if err != nil {
		return nil, err
	}
	rc.mu.Lock()
	if rc.before == nil || len(rc.before) >= maxVerdicts {
		rc.before = map[[sha256.Size]byte][]analysis.Diagnostic{}
	}
	rc.before[k] = b
	rc.mu.Unlock()
	return b, nil
}

// unitOf lists the files whose findings a fix can change: the units of the
// finding's file and of every file the fix edits, with the stubs that link
// their entries.
func unitOf(ws *workspace.Workspace, d analysis.Diagnostic, fix *analysis.Fix) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if l, ok := grammar.LangOf(p); ok && (l == grammar.CPP || l == grammar.Python) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	roots := append([]string{d.File}, editFiles(fix)...)
	for _, r := range roots {
		add(r)
		for _, p := range unit.Paths(ws, r) {
			add(p)
			if l, _ := grammar.LangOf(p); l == grammar.CPP {
				for _, s := range ws.StubsForEntry(p) {
					add(s.File)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// verdictKey names a verification: the fix's edits and the contents of
// every file of its unit.
func verdictKey(ws *workspace.Workspace, files []string, d analysis.Diagnostic, fix *analysis.Fix) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%s\x00", d.File, d.Code, d.Start, d.Message, fix.Title)
	for _, e := range fix.Edits {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00", e.File, e.Start, e.End, e.NewText)
	}
	for _, p := range files {
		sum, _ := ws.ContentHash(p)
		fmt.Fprintf(h, "%s\x00", p)
		h.Write(sum[:])
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

func errorCount(ws *workspace.Workspace, file string) int {
	f, err := ws.File(file)
	if err != nil || f.Tree == nil {
		return 0
	}
	return f.Tree.ErrorCount()
}

// findingKey is a finding's identity across a fix: its file, rule and
// where it starts in the text before the fix (positions after the fix are
// mapped back through its edits). Messages are left out: they quote the
// code and the lines the fix changes without becoming other findings.
func findingKey(d analysis.Diagnostic, edits map[string][]analysis.TextEdit) string {
	return fmt.Sprintf("%s\x00%s\x00%d", d.File, d.Code, mapBack(edits[d.File], d.Start))
}

// mapBack maps an offset of the fixed text to the text before the fix;
// an offset inside an edit's new text maps to the edit's start. edits are
// sorted by start.
func mapBack(edits []analysis.TextEdit, off uint32) uint32 {
	shift := int64(0)
	for _, e := range edits {
		newStart := int64(e.Start) + shift
		newEnd := newStart + int64(len(e.NewText))
		switch {
		case int64(off) >= newEnd && newEnd > newStart || int64(off) > newEnd:
			shift += int64(len(e.NewText)) - int64(e.End-e.Start)
		case int64(off) >= newStart:
			return e.Start
		default:
			return uint32(int64(off) - shift)
		}
	}
	return uint32(int64(off) - shift)
}

// compareFindings says why the findings after a fix are not the findings
// before it less the target ("" when they are).
func compareFindings(ws *workspace.Workspace, target analysis.Diagnostic, fix *analysis.Fix, before, after []analysis.Diagnostic) string {
	edits := map[string][]analysis.TextEdit{}
	for _, e := range fix.Edits {
		edits[e.File] = append(edits[e.File], e)
	}
	for _, es := range edits {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	}
	none := map[string][]analysis.TextEdit{}
	count := map[string]int{}
	for _, b := range before {
		if counts(b) {
			count[findingKey(b, none)]++
		}
	}
	tk := findingKey(target, none)
	nb := max(count[tk], 1)
	count[tk] = max(count[tk], 1)
	na := 0
	var added []string
	for _, a := range after {
		if !counts(a) {
			continue
		}
		k := findingKey(a, edits)
		if k == tk {
			na++
		}
		if count[k] > 0 {
			count[k]--
			continue
		}
		// The fixed finding's own rule may restate what the fix leaves
		// (a warning turned into the note it replaces, at the same rule):
		// never a warning, never another rule's.
		if a.Code == target.Code && a.Severity >= analysis.SeverityInfo && target.Severity < analysis.SeverityInfo {
			continue
		}
		added = append(added, describe(ws, a))
	}
	if na >= nb {
		return fmt.Sprintf("%s is still reported after it", target.Code)
	}
	if len(added) > 0 {
		if len(added) > 3 {
			added = append(added[:3], fmt.Sprintf("%d more", len(added)-3))
		}
		return "it adds " + strings.Join(added, "; ")
	}
	return ""
}

// counts reports whether a finding takes part in the comparison: not the
// internal notes (a budget cut, a crash), not a suppressed one.
func counts(d analysis.Diagnostic) bool {
	return d.Code != analysis.InternalCode && d.Suppressed == "" && d.Unlisted == nil
}

func describe(ws *workspace.Workspace, d analysis.Diagnostic) string {
	line := 0
	if f, err := ws.File(d.File); err == nil && f.Lines != nil {
		line, _ = f.Lines.Position(d.Start)
	}
	msg := d.Message
	if len(msg) > 80 {
		msg = msg[:77] + "..."
	}
	return fmt.Sprintf("%s at %s:%d (%s)", d.Code, filepath.Base(d.File), line+1, msg)
}
