//go:build !race

package hdl

// allocSlack: see race_on_test.go.
const allocSlack = 1
