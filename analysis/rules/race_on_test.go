//go:build race

package rules

// raceDetector is set in a build with the race detector, which makes the
// analysis some ten times slower: the long seeded tests run fewer steps.
const raceDetector = true
