//go:build race

package compile_test

// raceEnabled is set when the race detector instruments the tests, which
// makes simulation an order of magnitude slower.
const raceEnabled = true
