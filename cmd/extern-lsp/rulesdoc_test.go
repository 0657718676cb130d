package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

const rulesDoc = "../../docs/rules.md"

// docs/rules.md and the README's table of rules are generated from the
// rules' Doc fields and must match them: adding a rule edits neither by
// hand (`go generate ./cmd/extern-lsp` runs this test with -update).
func TestRulesDocInSync(t *testing.T) {
	readme, err := os.ReadFile(readmeFile)
	if err != nil {
		t.Fatal(err)
	}
	withTable, err := spliceRulesTable(readme, engine.RulesTable(rules.All(), "docs/rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, want string }{
		{rulesDoc, engine.RulesMarkdown(rules.All())},
		{readmeFile, string(withTable)},
	} {
		if *update {
			if err := os.WriteFile(f.path, []byte(f.want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(f.path)
		if err != nil || string(got) != f.want {
			t.Errorf("%s is out of date with the rule files: run `go generate ./cmd/extern-lsp`\n%s", f.path, unifiedDiff(f.path, "generated", got, []byte(f.want)))
		}
	}
}

const readmeFile = "../../README.md"

// spliceRulesTable puts table between the README's rules-table markers.
func spliceRulesTable(readme []byte, table string) ([]byte, error) {
	const begin, end = "<!-- rules table:", "<!-- end of rules table -->"
	s := string(readme)
	i := strings.Index(s, begin)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		return nil, fmt.Errorf("README.md has no %q ... %q markers", begin, end)
	}
	i += strings.Index(s[i:], "\n") + 1
	return []byte(s[:i] + table + s[j:]), nil
}

func TestRulesDocShape(t *testing.T) {
	md := engine.RulesMarkdown(rules.All())
	for _, a := range rules.All() {
		if !strings.Contains(md, "\n## "+a.Code+" "+a.Name+"\n") || !strings.Contains(md, "](#"+engine.Anchor(a)+")") {
			t.Errorf("%s: no section or table link", a.Code)
		}
		if !strings.HasSuffix(a.DocURL(), "#"+engine.Anchor(a)) {
			t.Errorf("%s: DocURL %s does not point at the section", a.Code, a.DocURL())
		}
		if a.Doc.Summary == "" || a.Doc.What == "" || a.Doc.Why == "" {
			t.Errorf("%s: doc needs a summary, what and why", a.Code)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	r := runCmd("rules")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "CODE ") {
		t.Fatalf("rules: %d %s", r.code, r.stderr)
	}
	for _, a := range rules.All() {
		if !strings.Contains(r.stdout, a.Code+"  "+a.Name) {
			t.Errorf("rules table lacks %s", a.Code)
		}
	}
	r = runCmd("rules", "--format", "json")
	var list []ruleJSON
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != len(rules.All()) {
		t.Fatalf("rules --format json: %v (%d rules)", err, len(list))
	}
	if list[0].Code != rules.All()[0].Code || list[0].URL == "" || list[0].Doc.Why == "" {
		t.Errorf("json entry: %+v", list[0])
	}
	if r := runCmd("rules", "--format", "markdown"); r.stdout != engine.RulesMarkdown(rules.All()) {
		t.Error("rules --format markdown differs from the generator")
	}
}

func TestExplain(t *testing.T) {
	for _, arg := range []string{"EXT004", "syncall-aiv-only", "ext004"} {
		r := runCmd("explain", arg)
		if r.code != 0 {
			t.Fatalf("explain %s: %d %s", arg, r.code, r.stderr)
		}
		for _, s := range []string{"EXT004 syncall-aiv-only (error, fixable)", "\nWhat it does\n", "\nWhy it is a bug\n", "\nExample\n    AscendC::SyncAll();",
			"\nUse instead\n", "\nFix safety\n", "Guide: §5", "Docs: https://"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("explain %s lacks %q:\n%s", arg, s, r.stdout)
			}
		}
	}
	if r := runCmd("explain", "EXT999"); r.code != 2 || !strings.Contains(r.stderr, `unknown rule "EXT999"`) {
		t.Errorf("unknown: %d %s", r.code, r.stderr)
	}
	if r := runCmd("explain", "unused-suppression"); !strings.Contains(r.stdout, "(off (warning when selected), fixable)") {
		t.Errorf("default-off rule:\n%s", r.stdout)
	}
}
