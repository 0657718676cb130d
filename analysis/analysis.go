// Package analysis is extern-lsp's rule framework: analyzers, passes,
// diagnostics with fixes, suppressions, the findings cap and the driver
// that runs rules on one file of a workspace. A pass hands a rule the
// file's units (analysis/unit), which answer every question about the
// code; rules live in analysis/rules, and front ends reach the driver
// through analysis/engine. The package's files are layered (layers_test.go):
// findings (analysis.go) at the bottom, the driver (driver.go) at the top.
package analysis

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Severity of a diagnostic.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "unknown"
}

// ParseSeverity reads "error", "warning", "info" (or "information"), "hint".
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "error":
		return SeverityError, true
	case "warning", "warn":
		return SeverityWarning, true
	case "info", "information":
		return SeverityInfo, true
	case "hint":
		return SeverityHint, true
	}
	return 0, false
}

// Applicability says whether a fix can be applied without review.
type Applicability int

const (
	// Safe fixes keep the kernel's meaning apart from removing the bug;
	// `check --fix` and fix-all apply them.
	Safe Applicability = iota
	// Unsafe fixes are right in the common case but can change behaviour;
	// applied only on request.
	Unsafe
	// DisplayOnly fixes are sketches shown to the user, never applied
	// automatically.
	DisplayOnly
)

func (a Applicability) String() string {
	switch a {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "display-only"
}

// TextEdit replaces the bytes [Start, End) of File with NewText.
type TextEdit struct {
	File    string
	Start   uint32
	End     uint32
	NewText string
}

// Fix is a suggested change made of independent edits against the same base.
type Fix struct {
	Title         string
	Applicability Applicability
	Edits         []TextEdit
}

// Related points at another place that explains a diagnostic.
type Related struct {
	File       string
	Start, End uint32
	Message    string
}

// Diagnostic is one finding. Start and End are byte offsets in File.
type Diagnostic struct {
	File     string
	Start    uint32
	End      uint32
	Code     string
	Name     string
	Severity Severity
	Message  string
	Related  []Related
	Fixes    []Fix
	// Suppressed is set by the driver when a suppression comment matched
	// (only kept when Options.KeepSuppressed is set).
	Suppressed string
	// Unseen is set by the driver when it offered the finding's safe
	// fixes as unsafe: what, before the finding, the analysis could not
	// see (see Unit.UnseenBefore).
	Unseen []unit.Unseen
	// SaidLess is set by a rule that reports at info what would be a
	// warning because code it cannot see into may change the verdict: a
	// call whose definition is in an #include that did not resolve, or a
	// host launch whose arithmetic it does not follow (file:line).
	SaidLess string
	// Unlisted is set on the note that stands for a rule's findings in
	// this file past max-findings-per-rule (see CapFindings).
	Unlisted *Unlisted
	// Advisory marks an info that asks for a house rule where the code is
	// correct today (a scalar read of memory nothing in the task writes):
	// editors show it as a hint unless the user asks for more.
	Advisory bool
}

// MaxMessageLen caps a finding's message (bytes): a message built from a
// list of names stays readable in a terminal, a hover and a SARIF viewer.
const MaxMessageLen = 1000

// CapMessage shortens a message over MaxMessageLen at a character boundary
// and says how much was left out.
func CapMessage(s string) string {
	if len(s) <= MaxMessageLen {
		return s
	}
	cut := MaxMessageLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// RelatedAt makes related information on a node of a file.
func RelatedAt(f *grammar.File, n *grammar.Node, msg string) Related {
	return Related{File: f.Path, Start: n.Start, End: n.End, Message: msg}
}

// InternalCode is the code of a diagnostic that reports a rule's own crash
// or an unreadable file, so one bad input never takes the run down.
const InternalCode = "EXT000"

// SortDiagnostics orders by file, position, then code.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.Code < b.Code
	})
}

// ApplyEdits applies non-overlapping edits to src (edits for other files are
// ignored). Overlapping edits after the first are skipped and counted.
func ApplyEdits(src []byte, file string, edits []TextEdit) ([]byte, int) {
	var es []TextEdit
	for _, e := range edits {
		if e.File == file || e.File == "" {
			es = append(es, e)
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End < es[j].End
	})
	out := make([]byte, 0, len(src))
	pos := uint32(0)
	skipped := 0
	crlf := usesCRLF(src)
	for _, e := range es {
		if e.Start < pos || e.End < e.Start || int(e.End) > len(src) {
			skipped++
			continue
		}
		out = append(out, src[pos:e.Start]...)
		if crlf {
			out = appendCRLF(out, e.NewText)
		} else {
			out = append(out, e.NewText...)
		}
		pos = e.End
	}
	out = append(out, src[pos:]...)
	return out, skipped
}

// usesCRLF reports whether src ends its lines with CRLF (its first line
// does): fixes written with "\n" then follow the file's line ending.
func usesCRLF(src []byte) bool {
	i := bytes.IndexByte(src, '\n')
	return i > 0 && src[i-1] == '\r'
}

// appendCRLF appends text with each bare "\n" written as "\r\n".
func appendCRLF(out []byte, text string) []byte {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && (i == 0 || text[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, text[i])
	}
	return out
}

// Unlisted is what a cap note stands for: the findings of one rule in one
// file that were counted but not listed.
type Unlisted struct {
	Code, Name string
	// BySeverity counts them by their final severity (index: Severity).
	BySeverity [SeverityHint + 1]int
	// Max is the cap that was reached.
	Max int
}

// Total is the number of findings the note stands for.
func (u *Unlisted) Total() int {
	n := 0
	for _, c := range u.BySeverity {
		n += c
	}
	return n
}

// Thousands writes n with comma separators (15,884).
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// SeverityCounts counts findings by severity, the findings a cap note
// stands for included and the note itself not: what exit codes and
// summaries count.
func SeverityCounts(diags []Diagnostic) (counts [SeverityHint + 1]int, unlisted int) {
	for _, d := range diags {
		if d.Unlisted != nil {
			for s, n := range d.Unlisted.BySeverity {
				counts[s] += n
			}
			unlisted += d.Unlisted.Total()
			continue
		}
		if d.Severity >= 0 && int(d.Severity) < len(counts) {
			counts[d.Severity]++
		}
	}
	return counts, unlisted
}
