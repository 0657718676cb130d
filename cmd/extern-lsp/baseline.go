package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// baselineVersion is the format of the baseline file.
const baselineVersion = 1

// baselineEntry records Count findings of one rule in one file whose
// flagged code has the same fingerprint. Line numbers are deliberately not
// part of it, so edits elsewhere in the file keep the entry matching.
type baselineEntry struct {
	File        string `json:"file"` // relative to the baseline file, slash-separated
	Code        string `json:"code"`
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Count       int    `json:"count"`
	Snippet     string `json:"snippet"` // the flagged code, for reviewers
}

type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baseline struct {
	dir     string
	entries []baselineEntry
}

func readBaseline(path string) (*baseline, error) {
	data, _, err := fsys.ReadFile(path, 64<<20)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("baseline %s: no such file (create it with --write-baseline)", path)
		}
		return nil, fmt.Errorf("baseline %s: %v", path, engine.UnwrapPath(err))
	}
	var bf baselineFile
	if err := json.Unmarshal(data, &bf); err != nil {
		return nil, fmt.Errorf("baseline %s: not a baseline file: %v", path, err)
	}
	if bf.Version != baselineVersion {
		return nil, fmt.Errorf("baseline %s: version %d, this extern-lsp reads version %d (rewrite it with --write-baseline)", path, bf.Version, baselineVersion)
	}
	for i, e := range bf.Findings {
		if msg := e.invalid(); msg != "" {
			return nil, fmt.Errorf("baseline %s: finding %d (%s %s): %s (rewrite it with --write-baseline)", path, i+1, e.File, e.Code, msg)
		}
	}
	abs, _ := filepath.Abs(path)
	return &baseline{dir: filepath.Dir(abs), entries: bf.Findings}, nil
}

// invalid says what is wrong with an entry a hand edit or a merge produced
// ("" when nothing is): a count that is not positive would hide findings
// forever or turn the arithmetic of apply negative.
func (e baselineEntry) invalid() string {
	switch {
	case e.Count < 1:
		return fmt.Sprintf("count %d: want 1 or more", e.Count)
	case e.File == "":
		return "no file"
	case e.Code == "":
		return "no rule code"
	case !fingerprintRE.MatchString(e.Fingerprint):
		return fmt.Sprintf("fingerprint %q: want 20 hex digits", e.Fingerprint)
	}
	return ""
}

var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{20}$`)

type baselineKey struct{ file, code, fp string }

// apply marks the findings the baseline records as suppressed ("baseline")
// and returns the entries of checked (or deleted) files that matched
// nothing: fixed findings, or flagged code that changed.
func (b *baseline) apply(ws *workspace.Workspace, diags []analysis.Diagnostic, checked []string) []baselineEntry {
	left := map[baselineKey]int{}
	for _, e := range b.entries {
		left[baselineKey{e.File, e.Code, e.Fingerprint}] += e.Count
	}
	for i := range diags {
		d := &diags[i]
		if d.Suppressed != "" {
			continue
		}
		k := baselineKey{b.rel(d.File), d.Code, fingerprint(ws, *d)}
		if left[k] > 0 {
			left[k]--
			d.Suppressed = "baseline"
		}
	}
	inRun := map[string]bool{}
	for _, f := range checked {
		inRun[b.rel(f)] = true
	}
	var stale []baselineEntry
	for _, e := range b.entries {
		k := baselineKey{e.File, e.Code, e.Fingerprint}
		n := left[k]
		if n == 0 {
			continue
		}
		_, statErr := os.Stat(filepath.Join(b.dir, filepath.FromSlash(e.File)))
		if inRun[e.File] || errors.Is(statErr, fs.ErrNotExist) {
			e.Count = min(n, e.Count)
			left[k] -= e.Count
			stale = append(stale, e)
		}
	}
	return stale
}

func (b *baseline) rel(path string) string {
	if r, err := filepath.Rel(b.dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// writeBaseline records the findings; it returns how many. The file is
// written through the one write path, as a regular file inside roots.
func writeBaseline(path string, roots []string, ws *workspace.Workspace, diags []analysis.Diagnostic) (int, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, err
	}
	b := &baseline{dir: filepath.Dir(abs)}
	idx := map[baselineKey]int{}
	for _, d := range diags {
		k := baselineKey{b.rel(d.File), d.Code, fingerprint(ws, d)}
		if i, ok := idx[k]; ok {
			b.entries[i].Count++
			continue
		}
		idx[k] = len(b.entries)
		b.entries = append(b.entries, baselineEntry{File: k.file, Code: d.Code, Name: d.Name, Fingerprint: k.fp, Count: 1, Snippet: snippet(ws, d)})
	}
	slices.SortStableFunc(b.entries, func(x, y baselineEntry) int {
		return cmp.Or(strings.Compare(x.File, y.File), strings.Compare(x.Code, y.Code), strings.Compare(x.Fingerprint, y.Fingerprint))
	})
	out := baselineFile{Version: baselineVersion, Findings: b.entries}
	if out.Findings == nil {
		out.Findings = []baselineEntry{}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return 0, err
	}
	data = append(data, '\n')
	if fsys.Equal(abs, data) {
		return len(diags), nil
	}
	w := &fsys.Writer{Roots: roots}
	if err := w.Replace(abs, nil, data); err != nil {
		return 0, fmt.Errorf("baseline %s: %v", path, engine.UnwrapPath(err))
	}
	return len(diags), nil
}

// baselineRoots are where a baseline may be written: the folders checked
// and the current folder (the project root, where baselines usually live).
func (r *checkRun) baselineRoots() []string {
	return append(r.ws.Roots(), r.cwd)
}

// fingerprint identifies a finding without its position: the rule, the
// enclosing function's name, the flagged code and the rest of its line,
// whitespace-normalized. Identical findings in one function share it (the
// baseline counts them).
func fingerprint(ws *workspace.Workspace, d analysis.Diagnostic) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", d.Code, enclosingName(ws, d), snippet(ws, d), lineText(ws, d))
	return hex.EncodeToString(h.Sum(nil))[:20]
}

func snippet(ws *workspace.Workspace, d analysis.Diagnostic) string {
	src, err := ws.Source(d.File)
	if err != nil || d.Start > d.End || int(d.End) > len(src) {
		return ""
	}
	s := normalizeSpace(string(src[d.Start:d.End]))
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// lineText is the flagged line, from the parsed file's line index (built
// once per file, not per finding).
func lineText(ws *workspace.Workspace, d analysis.Diagnostic) string {
	f, err := ws.File(d.File)
	if err != nil || f.Lines == nil || int(d.Start) > len(f.Src) {
		return ""
	}
	line, _ := f.Lines.Position(d.Start)
	return normalizeSpace(f.Lines.LineText(line))
}

func enclosingName(ws *workspace.Workspace, d analysis.Diagnostic) string {
	f, err := ws.File(d.File)
	if err != nil || f.Tree == nil || f.Lang != grammar.CPP {
		return ""
	}
	n := f.Tree.NodeAt(d.Start, d.End)
	if n == nil {
		return ""
	}
	if fn := cxx.EnclosingFunction(n); fn != nil {
		return cxx.FunctionName(fn)
	}
	return ""
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
