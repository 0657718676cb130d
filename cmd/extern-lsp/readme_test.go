package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestREADMECounts: the README's quick start quotes what `check examples/`
// prints (the number of findings, the summary and the fix line); this runs
// it, so the README cannot drift from the examples and the rules.
func TestREADMECounts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The paragraph is hard-wrapped: compare with one space per gap.
	text := strings.Join(strings.Fields(string(readme)), " ")
	r := runBinary(t, "../..", "check", "--no-progress", "examples/")
	if r.code != 1 {
		t.Fatalf("check examples/: exit %d, want 1 (README says so)\n%s", r.code, r.stderr)
	}
	findings := regexp.MustCompile(`(?m)^\S+:\d+:\d+: (error|warning|info|hint): `).FindAllString(r.stdout, -1)
	summary := regexp.MustCompile(`(?m)^\d+ files? checked: .*$`).FindString(r.stdout)
	fixes := regexp.MustCompile(`(?m)^\d+ fixable with .*$`).FindString(r.stdout)
	if summary == "" || fixes == "" {
		t.Fatalf("check examples/ printed no summary or fix line:\n%s", r.stdout)
	}
	for _, want := range []string{
		"Command 1 prints " + strconv.Itoa(len(findings)) + " findings",
		"the summary `" + summary + "`",
		"`" + fixes + "`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q (what `check examples/` prints now)", want)
		}
	}
}
