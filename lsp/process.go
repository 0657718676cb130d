package lsp

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process exists (signal 0 checks without
// sending; EPERM means it exists under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
