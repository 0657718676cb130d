package engine

import (
	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Overrides are what a front end lays over a file's project configuration:
// the command line's --select/--ignore/--strict, the editor's settings.
// Rule matching itself (codes, names, prefixes, globs, DefaultOff) is
// config.Config.Enabled; this is the one place the layers are merged.
type Overrides struct {
	// Select replaces the project's select when not empty.
	Select []string
	// ExtendSelect adds to the project's extend-select.
	ExtendSelect []string
	// Ignore replaces the project's ignore when not empty (the editor's
	// `ignore`); ExtendIgnore adds to it (the command line's --ignore).
	Ignore       []string
	ExtendIgnore []string
	// Severity sets levels per rule (code or name) over the project's.
	Severity map[string]string
	// NoPython turns the Python rules off and leaves .py files unanalysed.
	NoPython bool
	// KeepSuppressed keeps suppressed findings, marked (for SARIF).
	KeepSuppressed bool
	// Arch sets the target chip ("a2a3" or "a5") over the project's.
	Arch string
	// MaxFindingsPerRule, when set, replaces the project's
	// max-findings-per-rule (0: no cap).
	MaxFindingsPerRule *int
}

// Apply returns the project configuration with the overrides laid over it.
func (o Overrides) Apply(c *config.Config) *config.Config {
	out := *c
	if len(o.Select) > 0 {
		out.Select = o.Select
	}
	out.ExtendSelect = append(append([]string(nil), c.ExtendSelect...), o.ExtendSelect...)
	if len(o.Ignore) > 0 {
		out.Ignore = o.Ignore
	}
	out.Ignore = append(append([]string(nil), out.Ignore...), o.ExtendIgnore...)
	if o.Arch != "" {
		out.Arch = o.Arch
	}
	if o.MaxFindingsPerRule != nil {
		out.MaxFindingsPerRule = o.MaxFindingsPerRule
	}
	if len(o.Severity) > 0 {
		out.Severity = map[string]string{}
		for k, v := range c.Severity {
			out.Severity[k] = v
		}
		for k, v := range o.Severity {
			// The project keys severities by code or name; drop its entry
			// for the same rule spelled the other way.
			for pk := range out.Severity {
				if pk != k && sameRule(pk, k) {
					delete(out.Severity, pk)
				}
			}
			out.Severity[k] = v
		}
	}
	return &out
}

func sameRule(a, b string) bool {
	ra, rb := rules.Lookup(a), rules.Lookup(b)
	return ra != nil && ra == rb
}

// Analyses reports whether a file is analysed at all under c: not excluded,
// and not Python when NoPython is set.
func (o Overrides) Analyses(c *config.Config, path string) bool {
	if c.Excluded(path, false) {
		return false
	}
	lang, _ := grammar.LangOf(path)
	return !(o.NoPython && lang == grammar.Python)
}

// Options are the driver options of a file whose project configuration is
// c, over analyzers (rules.All() when nil).
func (o Overrides) Options(c *config.Config, analyzers []*analysis.Analyzer) analysis.Options {
	opts := o.Apply(c).Options(analyzers)
	if o.NoPython {
		enabled := opts.Enabled
		opts.Enabled = func(a *analysis.Analyzer) bool {
			return a.Lang != grammar.Python && enabled(a)
		}
	}
	opts.KeepSuppressed = o.KeepSuppressed
	return opts
}
