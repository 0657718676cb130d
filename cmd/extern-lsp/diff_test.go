package main

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedDiffShape(t *testing.T) {
	a := "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n"
	b := strings.Replace(a, "l2\n", "L2\n", 1)
	b = strings.Replace(b, "l11\n", "l11\nnew\n", 1)
	want := `--- a/f.cpp
+++ b/f.cpp
@@ -1,5 +1,5 @@
 l1
-l2
+L2
 l3
 l4
 l5
@@ -9,4 +9,5 @@
 l9
 l10
 l11
+new
 l12
`
	if got := unifiedDiff("a/f.cpp", "b/f.cpp", []byte(a), []byte(b)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", []byte(a), []byte(a)); got != "" {
		t.Errorf("equal texts: %q", got)
	}
	got := unifiedDiff("a", "b", []byte("x\ny"), []byte("x\nz\n"))
	if !strings.Contains(got, "-y\n\\ No newline at end of file\n+z\n") {
		t.Errorf("no newline at EOF:\n%s", got)
	}
}

// Random edits: the diff always patches the old text into the new one.
func TestUnifiedDiffApplies(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch program")
	}
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "SyncAll();", "{", "}", ""}
	randText := func(n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, words[rng.Intn(len(words))])
		}
		return out
	}
	dir := t.TempDir()
	for i := 0; i < 60; i++ {
		x := randText(rng.Intn(30))
		y := append([]string(nil), x...)
		for k := rng.Intn(5); k >= 0; k-- {
			switch p := rng.Intn(len(y) + 1); rng.Intn(3) {
			case 0:
				y = append(y[:p], append([]string{words[rng.Intn(len(words))]}, y[p:]...)...)
			case 1:
				if p < len(y) {
					y = append(y[:p], y[p+1:]...)
				}
			default:
				if p < len(y) {
					y[p] = "changed"
				}
			}
		}
		a, b := strings.Join(x, "\n"), strings.Join(y, "\n")
		if rng.Intn(2) == 0 && a != "" {
			a += "\n"
		}
		if rng.Intn(2) == 0 && b != "" {
			b += "\n"
		}
		d := unifiedDiff("a/f.txt", "b/f.txt", []byte(a), []byte(b))
		if a == b {
			continue
		}
		path := filepath.Join(dir, "f.txt")
		os.WriteFile(path, []byte(a), 0o644)
		cmd := exec.Command("patch", "-p1", "--quiet", "--force")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v %s\n%q -> %q\n%s", i, err, out, a, b, d)
		}
		got, _ := os.ReadFile(path)
		if string(got) != b {
			t.Fatalf("case %d: patched %q, want %q\n%s", i, got, b, d)
		}
	}
}
