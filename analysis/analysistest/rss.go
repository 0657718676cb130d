package analysistest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// CheckPeakRSS runs `check` (every rule, one job, JSON out) with bin in a
// folder holding only src as big.cpp, and returns the child's peak resident
// set size in bytes: the memory benchmarks of issue 13 divide it by the
// input's size. env is added to the child's environment.
func CheckPeakRSS(bin, dir string, src []byte, env ...string) (int64, error) {
	if err := os.WriteFile(filepath.Join(dir, "big.cpp"), src, 0o644); err != nil {
		return 0, err
	}
	cfg := "select = [\"ALL\"]\nmax-file-size = \"64MB\"\n"
	if err := os.WriteFile(filepath.Join(dir, "extern-lsp.toml"), []byte(cfg), 0o644); err != nil {
		return 0, err
	}
	// The child runs in dir: a relative bin (a test binary run as
	// ./x.test) would not be found there.
	bin, err := filepath.Abs(bin)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(bin, "check", "-j", "1", "--format", "json", "--no-progress", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	err = cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() == 2 {
		return 0, fmt.Errorf("check: %v", err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, fmt.Errorf("no resource usage for the child on this system")
	}
	return ru.Maxrss * 1024, nil
}
