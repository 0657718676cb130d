package fsys

import "golang.org/x/sys/unix"

// exchange swaps the names a and b in dir in one step (APFS and HFS+;
// other file systems answer ENOTSUP and swap takes its two-step way).
func exchange(dir int, a, b string) error {
	return unix.RenameatxNp(dir, a, dir, b, unix.RENAME_SWAP)
}
