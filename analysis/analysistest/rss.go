package analysistest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// CheckUsage is what one child `check` process used.
type CheckUsage struct {
	PeakRSS int64         // bytes
	CPU     time.Duration // user + system
	// Stopped is set when the analysis stopped at its steps: its peak is
	// that of part of the work.
	Stopped bool
}

// timeBin reports the peak RSS of the check it runs. The test process
// cannot read it from its own child: Go starts a child sharing the
// parent's memory until it execs, and Linux carries that memory's
// high-water mark into the new program's, so once a benchmark had built
// a 10 MB input every child's peak read as the test's own (52-56 MB).
const timeBin = "/usr/bin/time"

// CheckRun runs `check` (every rule, one job, JSON out) with bin in a
// folder holding only src as big.cpp, and returns the child's peak resident
// set size (measured by timeBin) and CPU time. env is added to the
// child's environment.
func CheckRun(bin, dir string, src []byte, env ...string) (CheckUsage, error) {
	if err := os.WriteFile(filepath.Join(dir, "big.cpp"), src, 0o644); err != nil {
		return CheckUsage{}, err
	}
	cfg := "select = [\"ALL\"]\nmax-file-size = \"64MB\"\n"
	if err := os.WriteFile(filepath.Join(dir, "extern-lsp.toml"), []byte(cfg), 0o644); err != nil {
		return CheckUsage{}, err
	}
	// The child runs in dir: a relative bin (a test binary run as
	// ./x.test) would not be found there.
	bin, err := filepath.Abs(bin)
	if err != nil {
		return CheckUsage{}, err
	}
	if _, err := os.Stat(timeBin); err != nil {
		return CheckUsage{}, fmt.Errorf("the peak RSS is read with %s: %v", timeBin, err)
	}
	usage := filepath.Join(dir, "maxrss")
	cmd := exec.Command(timeBin, "-f", "%M", "-o", usage, bin, "check", "-j", "1", "--format", "json", "--no-progress", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() == 2 {
		return CheckUsage{}, fmt.Errorf("check: %v", err)
	}
	kb, err := os.ReadFile(usage)
	if err != nil {
		return CheckUsage{}, err
	}
	// The last field: time writes a note on a failed child first.
	fields := strings.Fields(string(kb))
	var peak int64
	if len(fields) == 0 {
		return CheckUsage{}, fmt.Errorf("%s wrote no peak RSS", timeBin)
	}
	if peak, err = strconv.ParseInt(fields[len(fields)-1], 10, 64); err != nil {
		return CheckUsage{}, fmt.Errorf("%s: %q: %v", timeBin, kb, err)
	}
	// time's own CPU is included, a millisecond or two.
	return CheckUsage{PeakRSS: peak * 1024, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		Stopped: bytes.Contains(out.Bytes(), []byte(`"name": "analysis-incomplete"`))}, nil
}

// floorSource is a tiny extern: checking it costs what any check costs
// (the runtime, the rules' tables, the parser) and nothing that grows with
// the input.
const floorSource = `#include "kernel_operator.h"
extern "C" __global__ __aicore__ void tiny(__gm__ int64_t *args) {
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
  out[0] = 1;
  AscendC::SyncAll();
}
`

// CheckFloor is the peak RSS of `check` on a tiny extern, the least of
// three runs: the part of a big file's peak that does not depend on it.
func CheckFloor(b testing.TB, bin string, env ...string) int64 {
	b.Helper()
	floor := int64(-1)
	for range 3 {
		u, err := CheckRun(bin, b.TempDir(), []byte(floorSource), env...)
		if err != nil {
			b.Fatal(err)
		}
		if floor < 0 || u.PeakRSS < floor {
			floor = u.PeakRSS
		}
	}
	return floor
}

// BenchCheckMemory runs `check` on src b.N times in child processes and
// reports the largest peak RSS (peak-MB), its ratio to the input's size
// (x-input), the ratio of what it adds to the floor (see CheckFloor) to
// the input's size (x-over-floor: (peak - floor) / size), the floor
// (floor-MB), the CPU time of a run (cpu-ms) and how many runs stopped at
// the analysis budget anyway (budget-stops: the peak is then that of part
// of the work). x-over-floor is what issue 13 bounds ("memory at most 20
// times the input"): the floor is the process, not the input.
func BenchCheckMemory(b *testing.B, bin string, floor int64, src []byte, env ...string) {
	dir := b.TempDir()
	var peak int64
	var cpu time.Duration
	stops := 0
	for i := 0; i < b.N; i++ {
		u, err := CheckRun(bin, dir, src, env...)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, u.PeakRSS)
		cpu += u.CPU
		if u.Stopped {
			stops++
		}
	}
	size := float64(len(src))
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(peak)/size, "x-input")
	b.ReportMetric(float64(peak-floor)/size, "x-over-floor")
	b.ReportMetric(float64(floor)/(1<<20), "floor-MB")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms")
	b.ReportMetric(float64(stops), "budget-stops")
}
