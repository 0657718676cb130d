package analysis

import (
	"fmt"
	"sort"
)

// The findings cap (`max-findings-per-rule`), like a compiler's error
// limit: past it a rule's findings in one file are counted, not stored, and
// the run adds one note per (file, rule) saying how many were not listed.
// A machine-made file can hold a finding every few dozen bytes; listing
// them all costs more memory than the analysis and helps no one.

// DefaultMaxFindingsPerRule is the cap of the front ends when the
// configuration sets none. Real kernels stay far below it (the most
// findings of one rule in one file of the public trees is under 100).
const DefaultMaxFindingsPerRule = 500

// UnlistedName is the name of the note that stands for a rule's findings
// past the cap in a file (its code is InternalCode).
const UnlistedName = "findings-not-listed"

// unlistedNote is the finding that stands for u, at the first unlisted
// position of file.
func unlistedNote(file string, at uint32, u *Unlisted) Diagnostic {
	n := u.Total()
	what := "findings"
	if n == 1 {
		what = "finding"
	}
	return Diagnostic{
		File: file, Start: at, End: at,
		Code: InternalCode, Name: UnlistedName, Severity: SeverityInfo,
		Message: fmt.Sprintf("%s: %s more %s of %s in this file are not listed (max-findings-per-rule = %d)",
			u.Code, Thousands(n), what, u.Name, u.Max),
		Unlisted: u,
	}
}

type capKey struct{ file, code string }

// unlistedAt is one (file, rule)'s count past the cap.
type unlistedAt struct {
	first uint32
	u     *Unlisted
}

// findingCap counts one rule's findings in one run of the driver. Each
// rule has its own, used by its goroutine alone.
type findingCap struct {
	max int
	// sups are the file's suppression comments.
	sups   []*Suppression
	listed map[capKey]int
	over   map[capKey]*unlistedAt
}

// count records one more finding of d's file and code that the run keeps
// and counts (not suppressed, compiled), and reports whether it is still
// listed under the cap max.
func (c *findingCap) count(d *Diagnostic, max int) bool {
	k := capKey{d.File, d.Code}
	if c.listed[k] < max {
		if c.listed == nil {
			c.listed = map[capKey]int{}
		}
		c.listed[k]++
		return true
	}
	if c.over == nil {
		c.over = map[capKey]*unlistedAt{}
	}
	o := c.over[k]
	if o == nil {
		o = &unlistedAt{first: d.Start, u: &Unlisted{Code: d.Code, Name: d.Name, Max: max}}
		c.over[k] = o
	}
	o.first = min(o.first, d.Start)
	sev := d.Severity
	if sev < SeverityError || sev > SeverityHint {
		sev = SeverityWarning
	}
	o.u.BySeverity[sev]++
	return false
}

// notes are the cap notes of the counts past the cap, in a stable order.
func (c *findingCap) notes() []Diagnostic {
	if len(c.over) == 0 {
		return nil
	}
	keys := make([]capKey, 0, len(c.over))
	for k := range c.over {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].code < keys[j].code
	})
	out := make([]Diagnostic, 0, len(keys))
	for _, k := range keys {
		o := c.over[k]
		out = append(out, unlistedNote(k.file, o.first, o.u))
	}
	return out
}

// adjustUnlisted applies to the counts of a note what the driver does to
// the findings it stands for: the configured severity of the rule, then
// the demotion of a generated or vendored file's warnings and errors.
func adjustUnlisted(d *Diagnostic, sev map[string]Severity, demotedFile string) {
	u := d.Unlisted
	if u == nil {
		return
	}
	if s, ok := sev[u.Code]; ok {
		n := u.Total()
		u.BySeverity = [SeverityHint + 1]int{}
		u.BySeverity[s] = n
	}
	if demotedFile != "" && d.File == demotedFile {
		u.BySeverity[SeverityInfo] += u.BySeverity[SeverityError] + u.BySeverity[SeverityWarning]
		u.BySeverity[SeverityError], u.BySeverity[SeverityWarning] = 0, 0
	}
}

// CapFindings lists at most maxFor(file) findings of each rule in each
// file (0: all) and stands one note for the rest of each (file, rule), as
// the driver does when it runs with Options.MaxFindingsPerRule. For front
// ends that run uncapped because they need every finding first (a baseline
// is matched against all of them, fixes are applied to all of them), then
// cap what they show. Suppressed findings and the driver's notes are kept
// and do not use up the cap. The result is sorted; diags is not changed.
func CapFindings(diags []Diagnostic, maxFor func(file string) int) []Diagnostic {
	c := &findingCap{}
	maxOf := map[string]int{}
	var kept []Diagnostic
	for i, d := range diags {
		if d.Suppressed == "" && d.Code != InternalCode {
			m, ok := maxOf[d.File]
			if !ok {
				m = maxFor(d.File)
				maxOf[d.File] = m
			}
			if m > 0 && !c.count(&d, m) {
				if kept == nil {
					kept = append(make([]Diagnostic, 0, len(diags)), diags[:i]...)
				}
				continue
			}
		}
		if kept != nil {
			kept = append(kept, d)
		}
	}
	if kept == nil {
		return diags
	}
	if len(kept) == len(diags) {
		return diags
	}
	kept = append(kept, c.notes()...)
	SortDiagnostics(kept)
	return kept
}
