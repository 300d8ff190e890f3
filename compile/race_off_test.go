//go:build !race

package compile_test

// raceEnabled is set when the race detector instruments the tests.
const raceEnabled = false
