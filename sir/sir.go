package sir

import "fmt"

// Reg is a virtual register: an index into Unit.Regs. NoReg (0) means "no
// register", so the zero Addr has no dynamic index.
type Reg int32

// NoReg is the absent register.
const NoReg Reg = 0

func (r Reg) String() string { return fmt.Sprintf("r%d", int32(r)) }

// HomeID names a storage object (design.Home.ID for design homes). Negative
// IDs are pseudo-homes that only the runtime uses; RingHome is the
// runtime-event ring.
type HomeID int32

// RingHome is the pseudo-home of the runtime-event ring: Layout.Offset(RingHome)
// is the byte offset of the ring header in state memory. Loads and stores
// never name it; only OpEvent writes it.
const RingHome HomeID = -1

func (h HomeID) String() string {
	if h == RingHome {
		return "ring"
	}
	return fmt.Sprintf("h%d", int32(h))
}

// BlockID is an index into Unit.Blocks.
type BlockID int32

func (b BlockID) String() string { return fmt.Sprintf("b%d", int32(b)) }

// RegInfo describes one register.
type RegInfo struct {
	Width int // 1..64 bits
}

// Unit is one function: a kernel or a lane task. Blocks[0] is the entry.
type Unit struct {
	Name   string
	Regs   []RegInfo // indexed by Reg; Regs[0] is unused (NoReg)
	Blocks []*Block
}

// NewUnit returns an empty unit.
func NewUnit(name string) *Unit { return &Unit{Name: name, Regs: make([]RegInfo, 1)} }

// NewReg adds a register of width w.
func (u *Unit) NewReg(w int) Reg {
	u.Regs = append(u.Regs, RegInfo{Width: w})
	return Reg(len(u.Regs) - 1)
}

// Width is the width of register r (0 for NoReg or an invalid register).
func (u *Unit) Width(r Reg) int {
	if r <= 0 || int(r) >= len(u.Regs) {
		return 0
	}
	return u.Regs[r].Width
}

// NewBlock appends an empty block and returns its ID.
func (u *Unit) NewBlock() BlockID {
	u.Blocks = append(u.Blocks, &Block{})
	return BlockID(len(u.Blocks) - 1)
}

// Clone returns a deep copy of u.
func (u *Unit) Clone() *Unit {
	c := &Unit{Name: u.Name, Regs: append([]RegInfo(nil), u.Regs...), Blocks: make([]*Block, len(u.Blocks))}
	for i, b := range u.Blocks {
		nb := &Block{Term: b.Term, Insts: make([]Inst, len(b.Insts))}
		for j, in := range b.Insts {
			if in.Ev != nil {
				in.Ev = in.Ev.clone()
			}
			nb.Insts[j] = in
		}
		c.Blocks[i] = nb
	}
	return c
}

// NumInsts counts the instructions of u (terminators excluded).
func (u *Unit) NumInsts() int {
	n := 0
	for _, b := range u.Blocks {
		n += len(b.Insts)
	}
	return n
}

// Block is a straight-line list of instructions ended by a terminator.
type Block struct {
	Insts []Inst
	Term  Term
}

// TermKind is the kind of a block terminator.
type TermKind uint8

const (
	TermNone   TermKind = iota // not terminated yet (rejected by Check)
	TermJump                   // jump Then
	TermBranch                 // branch Cond, Then, Else (Cond is 1 bit; nonzero goes to Then)
	TermReturn                 // ret Status
)

// Term is a block terminator.
type Term struct {
	Kind       TermKind
	Cond       Reg
	Then, Else BlockID
	Status     Status
}

// Succs appends the successors of t to buf (Then before Else; a branch with
// equal targets lists it twice).
func (t *Term) Succs(buf []BlockID) []BlockID {
	switch t.Kind {
	case TermJump:
		return append(buf, t.Then)
	case TermBranch:
		return append(buf, t.Then, t.Else)
	}
	return buf
}

// Inst is one instruction. Which fields an op uses is listed on the Op
// constants; unused fields are zero.
type Inst struct {
	Op      Op
	Dst     Reg    // result register (NoReg for store, storebits, event)
	A, B, C Reg    // register operands
	Imm     uint64 // OpConst value
	Lo      int    // bit offset: extract, insert, loadbits, storebits
	Size    int    // bytes moved by load/store: 1, 2, 4 or 8
	Addr    Addr   // load, store, loadbits, storebits
	Ev      *Event // OpEvent
}

// Uses appends the registers in reads to buf, in operand order (A, B, C,
// the address index, event argument words).
func (in *Inst) Uses(buf []Reg) []Reg {
	n := opTable[in.Op].nargs
	if in.Op >= numOps {
		n = 0
	}
	if n > 0 {
		buf = append(buf, in.A)
	}
	if n > 1 {
		buf = append(buf, in.B)
	}
	if n > 2 {
		buf = append(buf, in.C)
	}
	if in.Op.IsMem() && in.Addr.Index != NoReg {
		buf = append(buf, in.Addr.Index)
	}
	if in.Op == OpEvent && in.Ev != nil {
		for _, a := range in.Ev.Args {
			buf = append(buf, a.Words...)
		}
	}
	return buf
}

// MapUses replaces every register in reads r by f(r).
func (in *Inst) MapUses(f func(Reg) Reg) {
	if in.Op >= numOps {
		return
	}
	n := opTable[in.Op].nargs
	if n > 0 {
		in.A = f(in.A)
	}
	if n > 1 {
		in.B = f(in.B)
	}
	if n > 2 {
		in.C = f(in.C)
	}
	if in.Op.IsMem() && in.Addr.Index != NoReg {
		in.Addr.Index = f(in.Addr.Index)
	}
	if in.Op == OpEvent && in.Ev != nil {
		for i := range in.Ev.Args {
			for j, w := range in.Ev.Args[i].Words {
				in.Ev.Args[i].Words[j] = f(w)
			}
		}
	}
}

// Addr is a memory operand before layout: byte Offset within Home, plus
// Index*Stride when Index is set. A dynamic access is in range when Index <
// Count (Index read as unsigned); out of range, a load gives 0 and a store
// does nothing — on every backend. Static accesses have Index == NoReg and
// Stride == Count == 0.
type Addr struct {
	Home   HomeID
	Offset int
	Index  Reg
	Stride int
	Count  int
}

// Dynamic reports whether the address has a register index.
func (a Addr) Dynamic() bool { return a.Index != NoReg }

// Event is the static part of a runtime event: what OpEvent appends to the
// runtime-event ring (see the package documentation for the record format).
type Event struct {
	Kind   EventKind
	Format int // id of the format string in the program's string table
	Level  int // $finish/$stop level, $fatal finish number; 0 otherwise
	// Seq orders the records of several rings (the lanes of a partitioned
	// kernel, each with its own ring) as one sequential run would have
	// written them: records sorted stably by Seq. Kernels number the
	// processes in sequential-kernel order; one ring's records are already
	// in that order.
	Seq  uint32
	Args []EventArg
}

func (e *Event) clone() *Event {
	c := *e
	c.Args = make([]EventArg, len(e.Args))
	for i, a := range e.Args {
		a.Words = append([]Reg(nil), a.Words...)
		c.Args[i] = a
	}
	return &c
}

// EventArg is one value of an event: Width bits held in len(Words) =
// ceil(Width/64) registers, least significant word first; every word but the
// last is 64 bits wide and the last holds the remaining Width-64*(n-1) bits.
type EventArg struct {
	Words  []Reg
	Width  int
	Signed bool
}

// EventKind is the system task behind an event.
type EventKind uint8

const (
	EvDisplay EventKind = iota + 1
	EvWrite
	EvFinish
	EvStop
	EvError
	EvFatal
	EvWarning
	EvInfo
	numEventKinds
)

var eventKindNames = [...]string{"", "display", "write", "finish", "stop", "error", "fatal", "warning", "info"}

func (k EventKind) String() string {
	if k > 0 && k < numEventKinds {
		return eventKindNames[k]
	}
	return fmt.Sprintf("event%d", uint8(k))
}

// Status is what a unit returns: 0 for OK, otherwise a code the runtime maps
// to an outcome. It is a plain integer so native code returns it in a
// register (lanepool.Status has the same representation).
type Status uint32

const (
	StatusOK        Status = 0 // completed normally
	StatusFinish    Status = 1 // $finish executed
	StatusStop      Status = 2 // $stop executed
	StatusFatal     Status = 3 // $fatal executed
	StatusNoSettle  Status = 4 // comb settle did not converge within its bound
	StatusLoopLimit Status = 5 // a loop elaboration could not unroll reached MaxIter
	StatusRingFull  Status = 6 // the runtime-event ring overflowed: events were dropped
	StatusStepLimit Status = 7 // interpreter step bound reached (runaway or malformed unit)
	StatusBadState  Status = 8 // state memory too small for the unit (interpreter only)
	// StatusUser is the first code free for the runtime's own use.
	StatusUser Status = 16
)

var statusNames = [...]string{"ok", "finish", "stop", "fatal", "nosettle", "looplimit", "ringfull", "steplimit", "badstate"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("%d", uint32(s))
}

// SpliceExit is a copied block that returned Status in the spliced unit,
// left unterminated by Unit.Splice for the caller to continue from.
type SpliceExit struct {
	Block  BlockID
	Status Status
}

// Splice appends a copy of src's blocks to u, with src's registers and
// blocks renumbered into u's, so that u can run src's code inline (a tick
// loop runs a fused kernel's optimized code once per edge). It returns
// the copy's entry block and the copied blocks whose return continue(s)
// selects, left unterminated for the caller to continue from; every other
// return is kept as is. The copy's blocks are those from entry on.
func (u *Unit) Splice(src *Unit, cont func(Status) bool) (entry BlockID, exits []SpliceExit) {
	regBase := Reg(len(u.Regs) - 1)
	u.Regs = append(u.Regs, src.Regs[1:]...)
	blockBase := BlockID(len(u.Blocks))
	mapReg := func(r Reg) Reg {
		if r == NoReg {
			return NoReg
		}
		return r + regBase
	}
	for _, b := range src.Blocks {
		nb := &Block{Term: b.Term, Insts: make([]Inst, len(b.Insts))}
		for j, in := range b.Insts {
			if in.Ev != nil {
				in.Ev = in.Ev.clone()
			}
			if in.Dst != NoReg {
				in.Dst = mapReg(in.Dst)
			}
			in.MapUses(mapReg)
			nb.Insts[j] = in
		}
		switch nb.Term.Kind {
		case TermBranch:
			nb.Term.Cond = mapReg(nb.Term.Cond)
			nb.Term.Then += blockBase
			nb.Term.Else += blockBase
		case TermJump:
			nb.Term.Then += blockBase
		case TermReturn:
			if s := nb.Term.Status; cont(s) {
				nb.Term = Term{}
				exits = append(exits, SpliceExit{BlockID(len(u.Blocks)), s})
			}
		}
		u.Blocks = append(u.Blocks, nb)
	}
	return blockBase, exits
}
