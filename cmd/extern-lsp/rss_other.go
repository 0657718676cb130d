//go:build !darwin

package main

// maxrssPerKB: Linux and the BSDs report ru_maxrss in kilobytes.
const maxrssPerKB = 1
