// Package interp is SIR's portable reference interpreter: it executes a
// sir.Unit on a state byte slice (little-endian, home offsets from a
// sir.Layout) and returns the unit's sir.Status. Every other backend is
// tested against it.
//
// Compile checks the unit (sir.Check), resolves addresses through the layout
// and pre-decodes the instructions into a flat array, so Run allocates
// nothing. ALU ops go through sir.Eval, the same function constant folding
// uses. Run never panics on a checked unit: a state slice shorter than the
// unit's accesses gives sir.StatusBadState, and a step budget
// (Options.MaxSteps) turns a runaway loop into sir.StatusStepLimit.
package interp

import (
	"encoding/binary"
	"fmt"

	"github.com/weft-hdl/weft/sir"
)

// DefaultMaxSteps is the default step budget of one Run: instructions plus
// terminators executed.
const DefaultMaxSteps = 1 << 28

// Options tune Compile.
type Options struct {
	// MaxSteps bounds the instructions and terminators one Run executes
	// (0: DefaultMaxSteps). Reaching it returns sir.StatusStepLimit.
	MaxSteps int64
}

// Func is a compiled unit. A Func is not safe for concurrent use (it owns
// its register file); compile one per goroutine.
type Func struct {
	name      string
	code      []inst
	blocks    []block
	regs      []uint64
	minState  int
	ring      int // absolute offset of the ring header; -1 without events
	ringEnd   int // end of its record space (0: the end of the state)
	maxSteps  int64
	numEvents int
}

type inst struct {
	op            sir.Op
	dst, a, b, c  int32
	w, aw, bw, lo int
	imm           uint64 // const value; for bit fields: value mask
	off           int    // absolute byte offset of the access (bit fields: of the first byte)
	size          int    // bytes moved (bit fields: bytes touched)
	idx           int32
	stride        int
	count         uint64
	ev            *sir.Event
	evSize        int
}

type block struct {
	start, end int
	term       sir.Term
}

// Compile checks u and prepares it for Run under layout l.
func Compile(u *sir.Unit, l sir.Layout, opt Options) (*Func, error) {
	if err := sir.Check(u); err != nil {
		return nil, err
	}
	f := &Func{name: u.Name, regs: make([]uint64, len(u.Regs)), ring: -1, maxSteps: opt.MaxSteps}
	if f.maxSteps <= 0 {
		f.maxSteps = DefaultMaxSteps
	}
	for bi, b := range u.Blocks {
		blk := block{start: len(f.code), term: b.Term}
		for ii := range b.Insts {
			in := &b.Insts[ii]
			d := inst{op: in.Op, dst: int32(in.Dst), a: int32(in.A), b: int32(in.B), c: int32(in.C),
				w: u.Width(in.Dst), aw: u.Width(in.A), bw: u.Width(in.B), lo: in.Lo, imm: in.Imm}
			if in.Op.IsMem() {
				base := l.Offset(in.Addr.Home)
				if base < 0 {
					return nil, fmt.Errorf("interp: unit %q: b%d[%d]: layout has no offset for %s", u.Name, bi, ii, in.Addr.Home)
				}
				d.off, d.size = base+in.Addr.Offset, in.Size
				if in.Op == sir.OpLoadBits || in.Op == sir.OpStoreBits {
					vw := d.w
					if in.Op == sir.OpStoreBits {
						vw = d.aw
					}
					d.off += in.Lo / 8
					d.lo = in.Lo % 8
					d.size = (d.lo + vw + 7) / 8
					d.imm = sir.Mask(vw)
				}
				end := d.off + d.size
				if in.Addr.Dynamic() {
					d.idx, d.stride, d.count = int32(in.Addr.Index), in.Addr.Stride, uint64(in.Addr.Count)
					end += (in.Addr.Count - 1) * in.Addr.Stride
				}
				f.minState = max(f.minState, end)
			}
			if in.Op == sir.OpEvent {
				d.ev, d.evSize = in.Ev, sir.RecordSize(in.Ev)
				f.numEvents++
				if f.ring < 0 {
					f.ring = l.Offset(sir.RingHome)
					if f.ring < 0 {
						return nil, fmt.Errorf("interp: unit %q has events but the layout places no event ring", u.Name)
					}
					f.minState = max(f.minState, f.ring+sir.RingHeaderSize)
					if sz, ok := l.(sir.Sizer); ok && sz.Size(sir.RingHome) >= sir.RingHeaderSize {
						f.ringEnd = f.ring + sz.Size(sir.RingHome)
					}
				}
			}
			f.code = append(f.code, d)
		}
		blk.end = len(f.code)
		f.blocks = append(f.blocks, blk)
	}
	return f, nil
}

// Name is the unit's name.
func (f *Func) Name() string { return f.name }

// MinState is the smallest state slice Run accepts.
func (f *Func) MinState() int { return f.minState }

// Run executes the unit on state and returns its status. Registers start at
// zero on every call.
func (f *Func) Run(state []byte) sir.Status {
	if len(state) < f.minState {
		return sir.StatusBadState
	}
	regs := f.regs
	clear(regs)
	le := binary.LittleEndian
	steps := f.maxSteps
	bi := 0
	for {
		blk := &f.blocks[bi]
		steps -= int64(blk.end-blk.start) + 1
		if steps < 0 {
			return sir.StatusStepLimit
		}
		for i := blk.start; i < blk.end; i++ {
			in := &f.code[i]
			switch in.op {
			case sir.OpConst:
				regs[in.dst] = in.imm
			case sir.OpLoad:
				addr, ok := in.addr(regs)
				if !ok {
					regs[in.dst] = 0
					continue
				}
				var v uint64
				switch in.size {
				case 1:
					v = uint64(state[addr])
				case 2:
					v = uint64(le.Uint16(state[addr:]))
				case 4:
					v = uint64(le.Uint32(state[addr:]))
				default:
					v = le.Uint64(state[addr:])
				}
				regs[in.dst] = v & sir.Mask(in.w)
			case sir.OpStore:
				addr, ok := in.addr(regs)
				if !ok {
					continue
				}
				v := regs[in.a]
				switch in.size {
				case 1:
					state[addr] = byte(v)
				case 2:
					le.PutUint16(state[addr:], uint16(v))
				case 4:
					le.PutUint32(state[addr:], uint32(v))
				default:
					le.PutUint64(state[addr:], v)
				}
			case sir.OpLoadBits:
				addr, ok := in.addr(regs)
				if !ok {
					regs[in.dst] = 0
					continue
				}
				regs[in.dst] = readBytes(state[addr:addr+in.size]) >> uint(in.lo) & in.imm
			case sir.OpStoreBits:
				addr, ok := in.addr(regs)
				if !ok {
					continue
				}
				p := state[addr : addr+in.size]
				fm := in.imm << uint(in.lo)
				writeBytes(p, readBytes(p)&^fm|regs[in.a]<<uint(in.lo)&fm)
			case sir.OpEvent:
				f.event(state, in, regs)
			default:
				regs[in.dst] = sir.Eval(in.op, in.w, in.aw, in.bw, in.lo, in.imm, regs[in.a], regs[in.b], regs[in.c])
			}
		}
		switch t := &blk.term; t.Kind {
		case sir.TermJump:
			bi = int(t.Then)
		case sir.TermBranch:
			if regs[t.Cond] != 0 {
				bi = int(t.Then)
			} else {
				bi = int(t.Else)
			}
		default: // TermReturn (Check rejects the rest)
			if t.Status == sir.StatusOK && f.ring >= 0 && sir.RingDropped(state[f.ring:]) != 0 {
				return sir.StatusRingFull
			}
			return t.Status
		}
	}
}

// addr returns the absolute byte address of a memory access, or false when
// its dynamic index is out of range.
func (in *inst) addr(regs []uint64) (int, bool) {
	if in.idx == 0 {
		return in.off, true
	}
	i := regs[in.idx]
	if i >= in.count {
		return 0, false
	}
	return in.off + int(i)*in.stride, true
}

func readBytes(p []byte) uint64 {
	var v uint64
	for i := len(p) - 1; i >= 0; i-- {
		v = v<<8 | uint64(p[i])
	}
	return v
}

func writeBytes(p []byte, v uint64) {
	for i := range p {
		p[i] = byte(v)
		v >>= 8
	}
}

func (f *Func) event(state []byte, in *inst, regs []uint64) {
	ring := state[f.ring:]
	if f.ringEnd > f.ring && f.ringEnd <= len(state) {
		ring = state[f.ring:f.ringEnd]
	}
	off := sir.RingReserve(ring, in.evSize)
	if off < 0 {
		return
	}
	rec := ring[off : off+in.evSize]
	sir.PutRecordHeader(rec, in.ev, in.evSize)
	q := sir.RecordHeaderSize
	le := binary.LittleEndian
	for _, a := range in.ev.Args {
		le.PutUint32(rec[q:], uint32(a.Width))
		var flags uint32
		if a.Signed {
			flags = 1
		}
		le.PutUint32(rec[q+4:], flags)
		q += 8
		for _, r := range a.Words {
			le.PutUint64(rec[q:], regs[r])
			q += 8
		}
	}
}

// Run compiles u and runs it once on state.
func Run(u *sir.Unit, l sir.Layout, state []byte) (sir.Status, error) {
	f, err := Compile(u, l, Options{})
	if err != nil {
		return 0, err
	}
	return f.Run(state), nil
}
