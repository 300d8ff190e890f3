package bench

import (
	"fmt"
	"math/big"

	"github.com/onsi/gomega/types"

	"github.com/weft-hdl/weft/dut"
)

// HaveValue succeeds when a *dut.Signal holds v: any Go integer or a
// *big.Int. A negative v compares with the sign-extended value of a
// signed signal. Failures name the signal, its width and both values in
// hex:
//
//	Expect(d.Signal("rx_data")).To(HaveValue(0x5a))
//
//	Expected uart_top.rx_data (8 bits) to have value 0x5a (90), but it is 0x3c (60)
func HaveValue(v any) types.GomegaMatcher { return &valueMatcher{want: v} }

// BeHigh succeeds when a 1-bit *dut.Signal is 1.
func BeHigh() types.GomegaMatcher { return &levelMatcher{want: 1} }

// BeLow succeeds when a 1-bit *dut.Signal is 0.
func BeLow() types.GomegaMatcher { return &levelMatcher{want: 0} }

func signalOf(matcher string, actual any) (*dut.Signal, error) {
	sig, ok := actual.(*dut.Signal)
	if !ok || sig == nil {
		return nil, fmt.Errorf("%s expects a *dut.Signal, got %T", matcher, actual)
	}
	if sig.IsArray() {
		return nil, fmt.Errorf("%s: %s is an array of %d elements; match one element (Elem)", matcher, sig.Name(), sig.Len())
	}
	return sig, nil
}

type valueMatcher struct {
	want any
	w    *big.Int // want, once converted
	neg  bool     // want < 0: compare signed
	got  *big.Int
}

func bigOf(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case int:
		return big.NewInt(int64(x)), true
	case int8:
		return big.NewInt(int64(x)), true
	case int16:
		return big.NewInt(int64(x)), true
	case int32:
		return big.NewInt(int64(x)), true
	case int64:
		return big.NewInt(x), true
	case uint:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint8:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint16:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint32:
		return new(big.Int).SetUint64(uint64(x)), true
	case uint64:
		return new(big.Int).SetUint64(x), true
	case *big.Int:
		if x != nil {
			return new(big.Int).Set(x), true
		}
	}
	return nil, false
}

func (m *valueMatcher) Match(actual any) (bool, error) {
	sig, err := signalOf("HaveValue", actual)
	if err != nil {
		return false, err
	}
	w, ok := bigOf(m.want)
	if !ok {
		return false, fmt.Errorf("HaveValue wants an integer or *big.Int, got %T", m.want)
	}
	m.w, m.neg = w, w.Sign() < 0
	if m.neg {
		if !sig.Signed() || sig.Width() > 64 {
			return false, fmt.Errorf("HaveValue(%s): %s is unsigned (or wider than 64 bits); compare with its bit pattern", w, sig.Path())
		}
		m.got = big.NewInt(sig.GetSigned())
	} else {
		v, err := sig.ValueBig()
		if err != nil {
			return false, err
		}
		m.got = v
	}
	return m.got.Cmp(m.w) == 0, nil
}

// num formats a value as hex (and decimal).
func num(v *big.Int) string {
	if v.Sign() < 0 {
		return fmt.Sprintf("-%#x (%s)", new(big.Int).Neg(v), v)
	}
	return fmt.Sprintf("%#x (%s)", v, v)
}

func describeSig(actual any) string {
	sig := actual.(*dut.Signal)
	bits := "bits"
	if sig.Width() == 1 {
		bits = "bit"
	}
	return fmt.Sprintf("%s (%d %s)", sig.Path(), sig.Width(), bits)
}

func (m *valueMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected %s to have value %s, but it is %s", describeSig(actual), num(m.w), num(m.got))
}

func (m *valueMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected %s not to have value %s, but it does", describeSig(actual), num(m.w))
}

type levelMatcher struct {
	want, got uint64
}

func level(v uint64) string {
	if v == 1 {
		return "high (1)"
	}
	return "low (0)"
}

func (m *levelMatcher) Match(actual any) (bool, error) {
	name := map[uint64]string{0: "BeLow", 1: "BeHigh"}[m.want]
	sig, err := signalOf(name, actual)
	if err != nil {
		return false, err
	}
	if sig.Width() != 1 {
		return false, fmt.Errorf("%s: %s is %d bits wide; use HaveValue", name, sig.Path(), sig.Width())
	}
	v, err := sig.Value()
	if err != nil {
		return false, err
	}
	m.got = v
	return v == m.want, nil
}

func (m *levelMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected %s to be %s, but it is %s", describeSig(actual), level(m.want), level(m.got))
}

func (m *levelMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected %s not to be %s, but it is", describeSig(actual), level(m.want))
}
