package fsys

import "golang.org/x/sys/unix"

// exchange swaps the names a and b in dir in one step.
func exchange(dir int, a, b string) error {
	return unix.Renameat2(dir, a, dir, b, unix.RENAME_EXCHANGE)
}
