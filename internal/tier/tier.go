// Package tier says which of the two test tiers a test run is in.
//
// The default tier is what `go test ./...` runs: every behaviour checked,
// each on the smallest input that shows it, so that the whole suite
// finishes in minutes on a busy 2-core machine. The long tier adds the
// campaigns: oracle comparisons over the whole corpus, random-design
// hunts, hostile-input sweeps at full size, long SoC boots, lane stress.
// WEFT_LONG=1 turns it on (.ci/run does).
package tier

import (
	"os"
	"testing"
)

// Env is the environment variable that selects the long tier.
const Env = "WEFT_LONG"

// Long reports whether the long tier is on.
func Long() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// LongOnly skips t unless the long tier is on, saying what it is.
func LongOnly(t testing.TB, what string) {
	t.Helper()
	if !Long() {
		t.Skipf("long tier (%s=1): %s", Env, what)
	}
}

// Pick returns long in the long tier and short otherwise: the size of a
// campaign that runs in both tiers.
func Pick[T any](short, long T) T {
	if Long() {
		return long
	}
	return short
}
