//go:build race

package soc_test

// raceEnabled: the suite runs under the race detector.
const raceEnabled = true
