package fsys

import "golang.org/x/sys/unix"

// A read lease on a file is granted only while no process has it open for
// writing, and a process opening it for writing afterwards breaks it
// (fcntl(2), F_SETLEASE). Held over the rename, it says for certain
// whether a writer could have written into the file the rename displaced.

func readLease(fd int) error {
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK)
	return err
}

// leaseBroken reports whether a process began opening the file for
// writing since the lease was granted (its open waits for the lease).
func leaseBroken(fd int) bool {
	t, err := unix.FcntlInt(uintptr(fd), unix.F_GETLEASE, 0)
	return err != nil || t != unix.F_RDLCK
}

func dropLease(fd int) { unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK) }
