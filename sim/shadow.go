package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
)

// EquivalenceError reports the first difference between a simulator and
// the reference it runs in lock-step with (Shadow), or between two
// simulators' states (Compare).
type EquivalenceError struct {
	Step uint64 // the step after which they differ
	// Home and Elem name the first differing home and element; Home is
	// empty when the difference is in output or outcome.
	Home      string
	Elem      int
	Got, Want string // this simulator's and the reference's value
	What      string // "state", "output" or "outcome"
}

func (e *EquivalenceError) Error() string {
	switch e.What {
	case "state":
		el := ""
		if e.Elem >= 0 {
			el = fmt.Sprintf("[%d]", e.Elem)
		}
		return fmt.Sprintf("sim: not equivalent after step %d: %s%s is %s, the reference has %s", e.Step, e.Home, el, e.Got, e.Want)
	default:
		return fmt.Sprintf("sim: not equivalent after step %d: %s differs: %q, the reference has %q", e.Step, e.What, e.Got, e.Want)
	}
}

// Compare reports the first home (in ID order, then element) whose value
// differs between a and b, two simulators of the same design (built from
// the same source; their layouts, backends and lanes may differ), or nil.
func Compare(a, b *Simulator) error {
	if a.st == nil || b.st == nil {
		return ErrClosed
	}
	ha, hb := a.p.Signals, b.p.Signals
	if len(ha) != len(hb) {
		return fmt.Errorf("sim: Compare: designs differ (%d and %d signals)", len(ha), len(hb))
	}
	for id, h := range ha {
		if hb[id].Path != h.Path || hb[id].Width != h.Width || hb[id].Elems() != h.Elems() {
			return fmt.Errorf("sim: Compare: designs differ at signal %d (%s and %s)", id, h.Path, hb[id].Path)
		}
		sa, sb := a.lay.Signal(id), b.lay.Signal(id)
		pa, pb := a.st[sa.Offset:sa.Offset+sa.Size()], b.st[sb.Offset:sb.Offset+sb.Size()]
		if bytes.Equal(pa, pb) {
			continue
		}
		for e := 0; e < sa.Elems; e++ {
			ea, eb := pa[e*sa.ElemSize:(e+1)*sa.ElemSize], pb[e*sb.ElemSize:(e+1)*sb.ElemSize]
			if !bytes.Equal(ea, eb) {
				el := e
				if !h.IsArray() {
					el = -1
				}
				return &EquivalenceError{Step: a.steps, Home: h.Path, Elem: el, What: "state",
					Got: valueText(leValue(ea)), Want: valueText(leValue(eb))}
			}
		}
	}
	return nil
}

// shadow holds the references run in lock-step with a simulator (Shadow).
type shadow struct {
	refs    []*Simulator
	refOuts []*bytes.Buffer
	mine    bytes.Buffer // this simulator's output since the last check
	out     io.Writer    // where this simulator's output goes too
	err     error        // the first difference found
}

func (sh *shadow) Write(p []byte) (int, error) {
	sh.mine.Write(p)
	return sh.out.Write(p)
}

// Shadow runs ref in lock-step with s: every input write, time change,
// Step and Tick edge on s is applied to ref as well (ref must simulate the
// same design, built from the same source: typically the sequential
// kernels while s runs partitioned ones, or the other way round), and
// after each evaluation every home, the output text and the outcome
// ($finish, errors) are compared. The first difference is returned by
// that Step or Tick as an *EquivalenceError and stops s. Several
// references may be attached; Close closes them too. ref's own output is
// only compared, not written anywhere.
func (s *Simulator) Shadow(ref *Simulator) error {
	if err := s.usable(); err != nil {
		return err
	}
	if ref == nil || ref == s || ref.st == nil {
		return errors.New("sim: Shadow needs another open simulator")
	}
	if ref.shadow != nil {
		return errors.New("sim: Shadow: the reference has references of its own")
	}
	if err := Compare(s, ref); err != nil {
		return err
	}
	if s.shadow == nil {
		s.shadow = &shadow{out: s.out}
		s.out = s.shadow
	}
	var refOut bytes.Buffer
	ref.out = &refOut
	s.shadow.refs = append(s.shadow.refs, ref)
	s.shadow.refOuts = append(s.shadow.refOuts, &refOut)
	return nil
}

// Shadows lists the references attached with Shadow, in order.
func (s *Simulator) Shadows() []*Simulator {
	if s.shadow == nil {
		return nil
	}
	return append([]*Simulator(nil), s.shadow.refs...)
}

// shadowEval runs one evaluation on every reference (eval, with the ref
// usable) and compares them with s, whose evaluation returned err.
func (s *Simulator) shadowEval(err error, eval func(ref *Simulator, i int) error) error {
	sh := s.shadow
	if sh.err != nil {
		return sh.err
	}
	fail := func(e *EquivalenceError) error {
		e.Step = s.steps
		sh.err = e
		s.fail = e
		return e
	}
	for i, ref := range sh.refs {
		refErr := ref.usable()
		if refErr == nil {
			refErr = eval(ref, i)
		}
		if errKey(err) != errKey(refErr) {
			return fail(&EquivalenceError{What: "outcome", Got: errText(err), Want: errText(refErr)})
		}
		if refOut := sh.refOuts[i]; !bytes.Equal(sh.mine.Bytes(), refOut.Bytes()) {
			return fail(&EquivalenceError{What: "output", Got: sh.mine.String(), Want: refOut.String()})
		}
		if e := Compare(s, ref); e != nil {
			var ee *EquivalenceError
			if errors.As(e, &ee) {
				return fail(ee)
			}
			return e
		}
	}
	sh.mine.Reset()
	for _, o := range sh.refOuts {
		o.Reset()
	}
	return err
}

// errKey is what must agree between two simulators' outcomes: the
// kernel that reported it may differ (a partitioned kernel's name).
func errKey(err error) string {
	var fe *FinishError
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &fe):
		return fmt.Sprintf("finish %v %d %s", fe.Task, fe.Code, fe.Pos)
	case errors.As(err, &e):
		return e.Err.Error()
	}
	return err.Error()
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// leValue reads a little-endian unsigned value.
func leValue(src []byte) *big.Int {
	be := make([]byte, len(src))
	for i, b := range src {
		be[len(src)-1-i] = b
	}
	return new(big.Int).SetBytes(be)
}
