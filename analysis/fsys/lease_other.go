//go:build !linux

package fsys

import "golang.org/x/sys/unix"

// No leases here: settle watches the displaced file for late writes.
func readLease(fd int) error  { return unix.ENOTSUP }
func leaseBroken(fd int) bool { return true }
func dropLease(fd int)        {}
