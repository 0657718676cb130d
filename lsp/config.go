package lsp

import (
	"encoding/json"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Settings are the editor's "externLsp" configuration section (also
// accepted as initializationOptions). They override the project's
// pyproject.toml / extern-lsp.toml for every file.
type Settings struct {
	// Select lists the rules to run: codes, code prefixes ("EXT0"), names,
	// globs or "ALL". Empty keeps the project's choice.
	Select []string `json:"select,omitempty"`
	// Ignore lists rules never to run, in the same forms (empty keeps the
	// project's).
	Ignore []string `json:"ignore,omitempty"`
	// Severity overrides a rule's severity by code or name: "error",
	// "warning", "info", "hint" or "off".
	Severity map[string]string `json:"severity,omitempty"`
	// CheckPython runs the Python stub rules and diagnoses .py files
	// (default true).
	CheckPython *bool `json:"checkPython,omitempty"`
	// CoreView dims the lines one core does not compile or run: "cube",
	// "vector" or "off" (default).
	CoreView string `json:"coreView,omitempty"`
	// Debounce is the longest wait, in milliseconds, between an edit and
	// the diagnostics of the edited file (the wait adapts to the file's
	// analysis time up to it; 0 diagnoses at once). Unset keeps the
	// server's default.
	Debounce *int `json:"debounce,omitempty"`
	// MaxFindingsPerRule lists at most this many findings of one rule in
	// one file, and one note for the rest (0: no cap; a negative value is
	// ignored). Unset keeps the project's max-findings-per-rule (default
	// 500): a machine-made file with tens of thousands of findings stays
	// responsive in the editor.
	MaxFindingsPerRule *int `json:"maxFindingsPerRule,omitempty"`
	// HouseRules is the severity the editor shows house-rule infos at
	// (code that is correct today, such as a scalar read of a task input):
	// "hint" (default: greyed, out of the problems list) or "info".
	HouseRules string `json:"houseRules,omitempty"`
}

// parseSettings reads the section from a didChangeConfiguration payload,
// wrapped in {"externLsp": ...} or bare.
func parseSettings(raw json.RawMessage) (Settings, bool) {
	var s Settings
	if len(raw) == 0 || string(raw) == "null" {
		return s, false
	}
	var wrapped map[string]json.RawMessage
	if json.Unmarshal(raw, &wrapped) != nil {
		return s, false
	}
	if inner, ok := wrapped["externLsp"]; ok {
		raw = inner
	} else if !hasSettingsKey(wrapped) {
		return s, false
	}
	if string(raw) == "null" {
		return Settings{}, true
	}
	if json.Unmarshal(raw, &s) != nil {
		return Settings{}, false
	}
	return s, true
}

func hasSettingsKey(m map[string]json.RawMessage) bool {
	for _, k := range []string{"select", "ignore", "severity", "checkPython", "coreView", "debounce", "maxFindingsPerRule", "houseRules"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// merge lays s over base: lists and checkPython replace, severities merge
// per rule (the later word wins).
func (base Settings) merge(s Settings) Settings {
	out := base
	if s.Select != nil {
		out.Select = s.Select
	}
	if s.Ignore != nil {
		out.Ignore = s.Ignore
	}
	if s.CheckPython != nil {
		out.CheckPython = s.CheckPython
	}
	if s.CoreView != "" {
		out.CoreView = s.CoreView
	}
	if s.Debounce != nil {
		out.Debounce = s.Debounce
	}
	if s.MaxFindingsPerRule != nil {
		out.MaxFindingsPerRule = s.MaxFindingsPerRule
	}
	if s.HouseRules != "" {
		out.HouseRules = s.HouseRules
	}
	if len(s.Severity) > 0 {
		out.Severity = map[string]string{}
		for k, v := range base.Severity {
			out.Severity[k] = v
		}
		for k, v := range s.Severity {
			out.Severity[k] = v
		}
	}
	return out
}

func (s Settings) checkPython() bool { return s.CheckPython == nil || *s.CheckPython }

// houseRulesAsHints: house-rule infos are shown as hints unless the
// houseRules setting asks for "info".
func (s *Server) houseRulesAsHints() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !strings.EqualFold(s.settings.HouseRules, "info")
}

// debounce bounds the adaptive delay between an edit and its diagnostics:
// the server's options, the setting's maximum over them. A negative
// bound means no delay.
func (s *Server) debounce() (lo, hi time.Duration) {
	s.mu.Lock()
	d := s.settings.Debounce
	s.mu.Unlock()
	lo, hi = s.opts.MinDebounce, s.opts.MaxDebounce
	if d != nil {
		hi = time.Duration(max(*d, 0)) * time.Millisecond
		lo = min(lo, hi)
		if hi == 0 {
			lo, hi = -1, -1
		}
	}
	return lo, hi
}

// overrides are the editor's settings as the engine's layer over the
// project configuration. An empty list is what clients send for "not set":
// it keeps the project's list rather than clearing it.
func (s Settings) overrides() engine.Overrides {
	o := engine.Overrides{Select: s.Select, Ignore: s.Ignore, Severity: s.Severity, NoPython: !s.checkPython()}
	if m := s.MaxFindingsPerRule; m != nil && *m >= 0 {
		o.MaxFindingsPerRule = m
	}
	return o
}

// projectConfig returns the configuration file's settings for a path
// (cached per folder until a configuration file changes). Its include
// folders join ws's, the workspace of the snapshot (or fork) analysing
// path: a function of the snapshot's files, derived when first needed.
func (s *Server) projectConfig(ws *workspace.Workspace, path string) *config.Config {
	s.mu.Lock()
	l := s.loader
	s.mu.Unlock()
	c, err := l.ForFile(path)
	if err != nil {
		s.configError(err)
		return l.Default()
	}
	if ws != nil {
		if len(c.IncludeDirs) > 0 {
			ws.AddIncludeDirs(c.IncludeDirs)
		}
		ws.SetBuildIncludes(c.BuildIncludesOn())
	}
	return c
}

// configError reports a broken configuration file once per load.
func (s *Server) configError(err error) {
	s.mu.Lock()
	seen := s.cfgErrs[err.Error()]
	s.cfgErrs[err.Error()] = true
	s.mu.Unlock()
	if !seen {
		s.logf(protocol.MessageTypeWarning, "configuration: %v (using defaults)", err)
		s.notify("window/showMessage", &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "extern-lsp: " + err.Error()})
	}
}

// reloadFileSettings drops the cached configuration files.
func (s *Server) reloadFileSettings() {
	l, _ := config.NewLoader("", rules.All())
	s.mu.Lock()
	s.loader = l
	s.cfgErrs = map[string]bool{}
	s.mu.Unlock()
	s.cfgGen.Add(1)
}

// optionsFor returns the driver options for a file, and false when the file
// is not to be diagnosed at all (excluded, or Python with checkPython off).
func (s *Server) optionsFor(ws *workspace.Workspace, path string) (analysis.Options, bool) {
	s.mu.Lock()
	ov := s.settings.overrides()
	all := s.opts.Analyzers
	s.mu.Unlock()
	proj := s.projectConfig(ws, path)
	if !ov.Analyses(proj, path) {
		return analysis.Options{}, false
	}
	return ov.Options(proj, all), true
}
