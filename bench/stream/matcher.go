package stream

import (
	"fmt"

	"github.com/onsi/gomega/types"
)

// EqualBeat matches a Beat carrying the same values as want. (Gomega's
// Equal compares big.Ints by their internals, which differ for equal
// values built different ways.)
func EqualBeat(want Beat) types.GomegaMatcher { return beatMatcher{want} }

type beatMatcher struct{ want Beat }

func (m beatMatcher) Match(actual any) (bool, error) {
	got, ok := actual.(Beat)
	if !ok {
		return false, fmt.Errorf("EqualBeat: want a stream.Beat, got %T", actual)
	}
	return got.Equal(m.want), nil
}

func (m beatMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected beat\n\t%v\nto equal\n\t%v", actual, m.want)
}

func (m beatMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected beat\n\t%v\nnot to equal\n\t%v", actual, m.want)
}
