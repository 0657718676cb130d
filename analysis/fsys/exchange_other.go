//go:build unix && !linux && !darwin

package fsys

import "golang.org/x/sys/unix"

// exchange reports that this system cannot swap two names in one step, so
// swap takes its two-step way.
func exchange(dir int, a, b string) error { return unix.ENOTSUP }
