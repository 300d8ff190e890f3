// Package statelayout places weft's state memory: every storage object a
// kernel touches gets a sir.HomeID and a byte offset in one flat,
// pointer-free state buffer.
//
// # Two steps: Space, then Layout
//
// A Space lists the storage objects of a design in SIR terms, without
// placing them: the design's homes (sir.HomeID == design.Home.ID), a
// staging copy for every home a trigger group writes with non-blocking
// assignments (slt.FFGroup.Staged, plus Options.Stage), the trigger bytes,
// the previous values of the trigger bits, a small system block, scratch
// objects the kernel lowering adds (AddScratch), and the runtime-event ring
// (sir.RingHome). Kernels are built against a Space: their addresses are
// (HomeID, byte offset inside the object, element stride), which depend on
// how a value is encoded but not on where an object lies.
//
// A Layout places a Space. Packed is the sequential layout. Segmented is
// the layout for partitioned kernels: given the lanes whose tasks write
// each object, it packs the objects one lane alone writes into that lane's
// segment, gives every object several lanes write a segment of its own and
// puts the objects no lane writes into a shared segment first; the ring
// stays last. Segments start on 128-byte boundaries at least 16 bytes
// after the end of the previous one, so a store widened to 8 bytes never
// reaches another lane's storage. Inside a segment objects are placed as in
// Packed. Both return the same *Layout type, so SIR units, the
// interpreter, the native backend and the simulator work with either
// unchanged.
//
// # Value encoding (the same in every layout)
//
// An element of a home of width W bits takes ElemSize(W) bytes: 1, 2, 4 or
// 8 for W <= 64 (the smallest that holds W bits), 8*ceil(W/64) for wider
// elements (64-bit words, least significant word first). Bit i of a packed
// value is bit i%8 of byte i/8 of its element (little-endian throughout).
// Bits at and above W are padding and are always 0: kernels store
// zero-extended values and bit-field stores touch only the field.
// An array home (design.Home.Unpacked) is Elems() elements at a stride of
// ElemSize bytes, flattened element 0 first (row-major, see design.Dim).
// Every object is aligned to its element size (8 for wide elements).
//
// A design home without storage of its own (design.Design.Shares: a
// continuous copy between it and another home was removed) is placed at
// the element it shares, in every layout; it owns no bytes.
//
// A staging copy has exactly the encoding of its home, so a kernel writes
// it with the same addressing and a different HomeID.
//
// # Runtime objects
//
//   - Trigger bytes (KindTriggers): one byte per trigger event (Space.Events:
//     a distinct (trigger bit, edge) pair of some trigger group). The
//     simulator detects edges, writes 1 to the byte of every event that
//     fired, runs an Event kernel and writes 0 back. Event kernels only
//     read them.
//   - Previous values (KindPrev): one byte per slt.Trigger (0 or 1), for a
//     simulator that keeps the last seen value of each trigger bit in state
//     memory. Kernels never touch them.
//   - The system block (KindSys, SysSize bytes): at SysDiag a u32 the
//     kernels write before returning an error status (the loop index for
//     sir.StatusNoSettle, the loop site for sir.StatusLoopLimit), at
//     SysRandom the u32 state of $random/$urandom, at SysTime the u64
//     simulation time the simulator keeps current for $time.
//   - The runtime-event ring: sir.RingHeaderSize bytes of header followed by
//     Options.RingCap bytes of records (see sir/ring.go).
//
// Layout.Init writes the time-zero state: every design.Home.Init, the
// staging copies equal to their homes, and an empty ring.
package statelayout
