package main

// maxrssPerKB: macOS reports ru_maxrss in bytes.
const maxrssPerKB = 1024
