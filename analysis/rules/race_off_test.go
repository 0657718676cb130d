//go:build !race

package rules

// raceDetector is set in a build with the race detector (race_on_test.go).
const raceDetector = false
