package engine

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
)

var (
	codeRE = regexp.MustCompile(`^EXT[0-9]{3}$`)
	nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// ValidateRules checks a rule registry: codes and names well formed and
// unique (any case), every rule documented (summary, what, why, an example
// and what to write instead) and runnable, a fixable rule saying how safe
// its fix is. Front ends call it at start-up; a test calls it on every rule.
func ValidateRules(list []*analysis.Analyzer) error {
	var errs []error
	seen := map[string]string{}
	for _, a := range list {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("rule %s %s: %s", a.Code, a.Name, fmt.Sprintf(format, args...)))
		}
		if !codeRE.MatchString(a.Code) {
			bad("code is not EXT and three digits")
		}
		if !nameRE.MatchString(a.Name) {
			bad("name is not kebab-case")
		}
		for _, key := range []string{strings.ToLower(a.Code), strings.ToLower(a.Name)} {
			if other, ok := seen[key]; ok {
				bad("%q is also %s", key, other)
			}
			seen[key] = a.Code
		}
		if a.Run == nil {
			bad("no Run")
		}
		if a.Severity < analysis.SeverityError || a.Severity > analysis.SeverityHint {
			bad("no severity")
		}
		d := a.Doc
		for _, f := range []struct{ field, text string }{
			{"Summary", d.Summary}, {"What", d.What}, {"Why", d.Why}, {"Example", d.Example}, {"UseInstead", d.UseInstead},
		} {
			if strings.TrimSpace(f.text) == "" {
				bad("Doc.%s is empty", f.field)
			}
		}
		if a.Fixable && strings.TrimSpace(d.FixSafety) == "" {
			bad("fixable, but Doc.FixSafety is empty")
		}
	}
	return errors.Join(errs...)
}
