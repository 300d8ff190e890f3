package sim

import (
	"cmp"
	"fmt"
	"io"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// ringsPending reports whether the event ring holds records or dropped
// events, or, after a call of slot k that may have run its partitioned
// kernel, a lane's ring does.
func (s *Simulator) ringsPending(k *kernel) bool {
	if sir.RingPending(s.st[s.ringOff:]) {
		return true
	}
	if k.par == nil {
		return false
	}
	for _, off := range s.rings[1:] {
		if sir.RingPending(s.st[off:]) {
			return true
		}
	}
	return false
}

// drain outputs the records of the event rings in order and empties them:
// the rings of the lanes of a partitioned call merged into the sequential
// kernel's order by their event keys (program.MergeRecords). A malformed
// ring is a failure; dropped events are a non-fatal note (and a marker
// line in the output where they were lost).
func (s *Simulator) drain(k *kernel) error {
	var rings [][]sir.Record
	dropped := 0
	var err error
	for i, off := range s.rings {
		ring := s.st[off : off+sir.RingHeaderSize+s.ringCap]
		if i > 0 && !sir.RingPending(ring) {
			continue
		}
		recs, d, e := sir.DecodeRing(ring)
		sir.ResetRing(ring)
		rings, dropped, err = append(rings, recs), dropped+d, cmp.Or(err, e)
	}
	recs := program.MergeRecords(rings)
	if err != nil {
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: fmt.Errorf("malformed runtime-event ring: %w", err)}
		return s.fail
	}
	for i := range recs {
		if err := s.emit(&recs[i]); err != nil && s.note == nil {
			s.note = &Error{Step: s.steps, Kernel: k.name, Err: fmt.Errorf("writing output: %w", err)}
		}
	}
	if dropped > 0 {
		s.dropped += dropped
		io.WriteString(s.out, fmt.Sprintf("*** weft: %d runtime events lost here: the event ring overflowed ***\n", dropped))
		if s.note == nil {
			s.note = &Error{Step: s.steps, Kernel: k.name, Err: &RingOverflowError{Kept: len(recs), Dropped: dropped, Cap: s.ringCap}}
		}
	}
	return nil
}

// emit outputs one record.
func (s *Simulator) emit(rec *sir.Record) error {
	var pos program.Pos
	if rec.Format >= 0 && rec.Format < len(s.p.Formats) {
		pos = s.p.Formats[rec.Format].Pos
	}
	switch rec.Kind {
	case sir.EvFinish, sir.EvStop, sir.EvFatal:
		if s.pendFinish == nil {
			s.pendFinish = &FinishError{Task: rec.Kind, Code: rec.Level, Pos: pos}
		}
		if rec.Kind != sir.EvFatal {
			return nil
		}
	}
	msg := s.p.Message(*rec)
	var line string
	switch rec.Kind {
	case sir.EvDisplay:
		line = msg + "\n"
	case sir.EvWrite:
		line = msg
	case sir.EvError, sir.EvWarning, sir.EvInfo, sir.EvFatal:
		sev := map[sir.EventKind]string{sir.EvError: "ERROR", sir.EvWarning: "WARNING", sir.EvInfo: "INFO", sir.EvFatal: "FATAL"}[rec.Kind]
		if rec.Kind == sir.EvError || rec.Kind == sir.EvFatal {
			s.nerrors++
		}
		line = sev + ": " + posText(pos)
		if msg != "" {
			line += ": " + msg
		}
		line += "\n"
	default:
		line = fmt.Sprintf("<%s event>", rec.Kind)
		if msg != "" {
			line += " " + msg
		}
		line += "\n"
	}
	_, err := io.WriteString(s.out, line)
	return err
}

// posText is "file:line" (or "<unknown>").
func posText(p program.Pos) string {
	if p.Line <= 0 {
		return p.String()
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}
