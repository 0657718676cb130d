package main

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
)

// SARIF 2.1.0 (OASIS), the subset code-scanning services read: one run, the
// tool driver describing every rule, results with locations, related
// locations, fixes, suppressions and a partial fingerprint.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// sarifFingerprint names extern-lsp's line-independent fingerprint
	// (the baseline's) among a result's partialFingerprints.
	sarifFingerprint = "externLspFinding/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
	// Invocations say which files were not fully analysed (present only
	// then): a notification each.
	Invocations []sarifInvocation `json:"invocations,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifText       `json:"help"`
	HelpURI              string          `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           sarifRuleProps  `json:"properties"`
}

type sarifRuleConfig struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

type sarifRuleProps struct {
	Tags    []string `json:"tags"`
	Fixable bool     `json:"fixable"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           *int               `json:"ruleIndex,omitempty"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return "error"
	case analysis.SeverityWarning:
		return "warning"
	}
	return "note"
}

// sarif prints every finding, suppressed ones included (marked as such):
// code-scanning services show them as dismissed instead of losing them.
func (r *reporter) sarif(diags []analysis.Diagnostic, analyzers []*analysis.Analyzer) {
	loc := r.locator()
	driver := sarifDriver{Name: "extern-lsp", Version: version, InformationURI: "https://github.com/extern-lsp/extern-lsp", Rules: []sarifRule{}}
	index := map[string]int{}
	for _, a := range analyzers {
		index[a.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(a))
	}
	region := func(file string, start, end uint32) sarifRegion {
		s, e := loc.atUTF16(file, start), loc.atUTF16(file, end)
		return sarifRegion{StartLine: s.line, StartColumn: s.col, EndLine: e.line, EndColumn: e.col}
	}
	physical := func(file string, start, end uint32) sarifPhysicalLocation {
		return sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: sarifURI(r.cwd, file)}, Region: region(file, start, end)}
	}
	results := []sarifResult{}
	for _, d := range diags {
		res := sarifResult{
			RuleID:              d.Code,
			Level:               sarifLevel(d.Severity),
			Message:             sarifText{Text: d.Message},
			Locations:           []sarifLocation{{PhysicalLocation: physical(d.File, d.Start, d.End)}},
			PartialFingerprints: map[string]string{sarifFingerprint: fingerprint(r.ws, d)},
		}
		if i, ok := index[d.Code]; ok {
			res.RuleIndex = &i
		}
		for i, rel := range d.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: physical(rel.File, rel.Start, rel.End), Message: &sarifText{Text: rel.Message}})
		}
		for _, f := range d.Fixes {
			if f.Applicability == analysis.DisplayOnly {
				continue
			}
			sf := sarifFix{Description: sarifText{Text: f.Title + " (" + f.Applicability.String() + ")"}}
			byFile := map[string]int{}
			for _, e := range f.Edits {
				i, ok := byFile[e.File]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.File] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifactLocation{URI: sarifURI(r.cwd, e.File)}})
				}
				rep := sarifReplacement{DeletedRegion: region(e.File, e.Start, e.End)}
				if e.NewText != "" {
					rep.InsertedContent = &sarifText{Text: e.NewText}
				}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
			}
			if len(sf.ArtifactChanges) > 0 {
				res.Fixes = append(res.Fixes, sf)
			}
		}
		switch d.Suppressed {
		case "":
		case "baseline":
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: "recorded in the baseline"}}
		default:
			res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: d.Suppressed + " comment"}}
		}
		results = append(results, res)
	}
	run := sarifRun{
		Tool:       sarifTool{Driver: driver},
		ColumnKind: "utf16CodeUnits",
		Results:    results,
	}
	// A file analysed only in part is a notification of the run, so that
	// a code-scanning view does not show it as clean.
	var notes []sarifNotification
	for _, d := range firstIncomplete(diags) {
		notes = append(notes, sarifNotification{Level: "warning", Message: sarifText{Text: d.Message},
			Locations: []sarifLocation{{PhysicalLocation: physical(d.File, d.Start, d.End)}}})
	}
	if len(notes) > 0 {
		run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, ToolExecutionNotifications: notes}}
	}
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
	enc := json.NewEncoder(r.w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(log)
}

func sarifRuleOf(a *analysis.Analyzer) sarifRule {
	tags := []string{"ascendc", "correctness"}
	if a.Code == "EXT900" {
		tags = []string{"ascendc", "maintainability"}
	}
	full := a.Doc.What
	if full == "" {
		full = a.Doc.Summary
	}
	return sarifRule{
		ID:                   a.Code,
		Name:                 a.Name,
		ShortDescription:     sarifText{Text: plainText(a.Doc.Summary)},
		FullDescription:      sarifText{Text: plainText(full)},
		Help:                 sarifText{Text: plainText(engine.ExplainText(a)), Markdown: engine.RuleMarkdown(a, "##")},
		HelpURI:              a.DocURL(),
		DefaultConfiguration: sarifRuleConfig{Enabled: !a.DefaultOff, Level: sarifLevel(a.Severity)},
		Properties:           sarifRuleProps{Tags: tags, Fixable: a.Fixable},
	}
}

// plainText drops Markdown code ticks for SARIF's plain text fields.
func plainText(s string) string { return strings.ReplaceAll(s, "`", "") }

// sarifURI is a file's path relative to the working directory (where the
// repository is checked out in CI), slash-separated, or a file URI.
func sarifURI(cwd, p string) string {
	rel := relPathSlash(cwd, p)
	if strings.HasPrefix(rel, "/") {
		return (&url.URL{Scheme: "file", Path: rel}).String()
	}
	return (&url.URL{Path: rel}).String()
}
