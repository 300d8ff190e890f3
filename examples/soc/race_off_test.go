//go:build !race

package soc_test

const raceEnabled = false
