package editortest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSkipsVisible: a package whose editor test skips passes, and plain
// `go test` (no -v) still shows its SKIP line.
func TestSkipsVisible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test package")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "test", "-count=1", "./testdata/skipper")
	cmd.Env = append(os.Environ(), RequireEnv+"=", SkipLogEnv+"=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test ./testdata/skipper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "SKIP no-such-editor: not installed anywhere") || !strings.Contains(string(out), "ok ") {
		t.Errorf("go test without -v hides the SKIP line:\n%s", out)
	}
}
