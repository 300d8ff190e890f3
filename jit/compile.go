package jit

import (
	"fmt"
	"unsafe"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/sir"
)

// Kernel is one SIR unit compiled to native code (see lower.go for what is
// lowered and the arena convention). Run it on a buffer of at least Size()
// bytes: the simulation state followed by the arena. Close frees the code.
// A Kernel holds no per-run state, so it may run on several buffers
// concurrently (each with its own arena).
type Kernel struct {
	name      string
	code      *Code
	fn        Func
	minState  int // highest byte the unit's memory accesses touch
	stateSize int
	arenaOff  int
	arenaSize int
	footprint []ordering.Range
	blocks    []blockCode // where each block's code lies, for Disassemble
}

// Compile checks u and compiles it to native code for state memory laid
// out by l. An op the backend does not lower gives an *UnsupportedError
// (the caller falls back to sir/interp); on platforms without the native
// backend it gives ErrUnsupported.
func Compile(u *sir.Unit, l sir.Layout, opt Options) (*Kernel, error) {
	if err := sir.Check(u); err != nil {
		return nil, err
	}
	if !Supported {
		return nil, ErrUnsupported
	}
	minState, err := extent(u, l)
	if err != nil {
		return nil, err
	}
	size := opt.StateSize
	if size == 0 {
		size = minState
	}
	if size < minState {
		return nil, fmt.Errorf("jit: unit %q accesses %d bytes of state, StateSize is %d", u.Name, minState, size)
	}
	k := &Kernel{name: u.Name, minState: minState, stateSize: size, arenaOff: (size + 7) &^ 7}
	if opt.ArenaOffset != 0 {
		if opt.ArenaOffset < size || opt.ArenaOffset%8 != 0 {
			return nil, fmt.Errorf("jit: arena offset %d must be a multiple of 8 at or after the state's %d bytes", opt.ArenaOffset, size)
		}
		k.arenaOff = opt.ArenaOffset
	}
	regs := opt.regs
	if regs == nil {
		regs = allocatable
	}
	low, err := lower(u, l, size, k.arenaOff, opt.MaxBackEdges, regs)
	if err != nil {
		return nil, err
	}
	k.arenaSize = 8 * low.slots
	for _, r := range low.stores {
		k.footprint = append(k.footprint, ordering.Range{Lo: r[0], Hi: r[1]})
	}
	if k.code, err = NewCode(low.code); err != nil {
		return nil, err
	}
	if k.fn, err = k.code.Func(0); err != nil {
		k.code.Close()
		return nil, err
	}
	writePerfMap(u.Name, k.code, low.blocks)
	k.blocks = low.blocks
	return k, nil
}

// extent returns the end of the highest byte u's memory accesses touch
// (what the interpreter calls MinState: the ring header counts for units
// with events), and rejects layouts it cannot address before any code is
// emitted.
func extent(u *sir.Unit, l sir.Layout) (int, error) {
	end := 0
	for _, b := range u.Blocks {
		for i := range b.Insts {
			in := &b.Insts[i]
			if in.Op == sir.OpEvent {
				r := l.Offset(sir.RingHome)
				if r < 0 {
					return 0, fmt.Errorf("jit: unit %q has events but the layout places no event ring", u.Name)
				}
				if int64(r)+sir.RingHeaderSize >= 1<<31-1<<20 {
					return 0, fmt.Errorf("jit: unit %q: state beyond 2 GiB", u.Name)
				}
				end = max(end, r+sir.RingHeaderSize)
				continue
			}
			if !in.Op.IsMem() {
				continue
			}
			h := l.Offset(in.Addr.Home)
			if h < 0 || in.Addr.Home == sir.RingHome {
				return 0, fmt.Errorf("jit: unit %q: layout has no offset for %s", u.Name, in.Addr.Home)
			}
			off, size := h+in.Addr.Offset, in.Size
			if in.Op == sir.OpLoadBits || in.Op == sir.OpStoreBits {
				vw := u.Width(in.Dst)
				if in.Op == sir.OpStoreBits {
					vw = u.Width(in.A)
				}
				off += in.Lo / 8
				size = (in.Lo%8 + vw + 7) / 8
			}
			e := int64(off) + int64(size)
			if in.Addr.Dynamic() {
				e += int64(in.Addr.Count-1) * int64(in.Addr.Stride)
				if in.Addr.Count >= 1<<31 {
					return 0, fmt.Errorf("jit: unit %q: array of %d elements", u.Name, in.Addr.Count)
				}
			}
			if e >= 1<<31-1<<20 {
				return 0, fmt.Errorf("jit: unit %q: state beyond 2 GiB", u.Name)
			}
			end = max(end, int(e))
		}
	}
	return end, nil
}

// Name is the unit's name.
func (k *Kernel) Name() string { return k.name }

// CodeSize is the number of bytes of machine code.
func (k *Kernel) CodeSize() int {
	if k.code == nil {
		return 0
	}
	return k.code.Len()
}

// StateSize is the size of the simulation state the kernel was compiled for.
func (k *Kernel) StateSize() int { return k.stateSize }

// ArenaOffset is where the arena starts: StateSize rounded up to 8.
func (k *Kernel) ArenaOffset() int { return k.arenaOff }

// Footprint is every state byte the generated code may store, read off
// the code as it was emitted (absolute offsets, merged ranges): each
// store's bytes (a dynamic store: every element it may address), the
// event ring from its header to the end of the state when the unit has
// events. The arena is not included; it belongs to the kernel's lane.
// sim recomputes the waits of partitioned kernels from it.
func (k *Kernel) Footprint() []ordering.Range { return k.footprint }

// ArenaSize is the number of arena bytes the kernel uses: 8 per slot (the
// back-edge budget and the spilled registers), at most 8*len(u.Regs).
func (k *Kernel) ArenaSize() int { return k.arenaSize }

// Size is the smallest buffer Run accepts: state, padding and arena.
func (k *Kernel) Size() int { return k.arenaOff + k.arenaSize }

// Run executes the kernel on buf (state then arena, at least Size() bytes,
// holding no Go pointers) and returns its status: sir.StatusBadState when
// buf is too small.
func (k *Kernel) Run(buf []byte) sir.Status {
	if len(buf) < k.Size() {
		return sir.StatusBadState
	}
	return sir.Status(k.fn.Call(unsafe.Pointer(&buf[0])))
}

// RunPtr executes the kernel on the buffer at p, which the caller
// guarantees holds at least Size() bytes.
func (k *Kernel) RunPtr(p unsafe.Pointer) sir.Status { return sir.Status(k.fn.Call(p)) }

// Close frees the machine code; the kernel must not run afterwards.
func (k *Kernel) Close() error {
	if k.code == nil {
		return nil
	}
	return k.code.Close()
}
