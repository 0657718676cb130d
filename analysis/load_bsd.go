//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package analysis

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// loadAverage is the machine's one-minute load average: vm.loadavg is a
// struct loadavg, three 32-bit fixed-point loads then the long scale.
func loadAverage() (float64, bool) {
	b, err := unix.SysctlRaw("vm.loadavg")
	var scale uint64
	switch {
	case err != nil:
		return 0, false
	case len(b) >= 24: // 64-bit long, aligned after the loads
		scale = binary.NativeEndian.Uint64(b[16:24])
	case len(b) >= 16:
		scale = uint64(binary.NativeEndian.Uint32(b[12:16]))
	}
	if scale == 0 {
		return 0, false
	}
	return float64(binary.NativeEndian.Uint32(b[0:4])) / float64(scale), true
}
