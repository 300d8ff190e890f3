//go:build race

package sim_test

// raceEnabled is set when the race detector instruments the tests, which
// makes the interpreter an order of magnitude slower.
const raceEnabled = true
