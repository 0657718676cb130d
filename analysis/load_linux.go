package analysis

import "syscall"

// loadAverage is the machine's one-minute load average.
func loadAverage() (float64, bool) {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0, false
	}
	return float64(si.Loads[0]) / 65536, true
}
