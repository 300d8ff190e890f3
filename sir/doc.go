// Package sir is weft's simulation IR: one Unit per kernel (Settle,
// Event, Fused(e), a tick loop) or lane task, a control-flow graph of Blocks over
// virtual registers of at most 64 bits. The package owns the IR types, the
// Builder, the verifier (Check), the printer (Fprint, Unit.String) and its
// parser (Parse), the arithmetic (Eval), the runtime-event ring format and
// the footprint analysis (Effects). Package sir/opt optimizes units and
// sir/interp executes them; the native backend lowers them to amd64.
//
// # Registers
//
// Registers (Reg, printed r1, r2, ...) have a fixed width of 1..64 bits
// (Unit.Regs). Invariant: a register's value is always canonical, i.e.
// zero-extended — the bits at and above its width are 0. Every op produces
// canonical results (Eval masks, loads truncate), Check rejects constants
// that do not fit, so the invariant holds by construction and a backend may
// rely on it (a 64-bit machine register holding a 13-bit SIR register has
// its top 51 bits clear). Signedness is not a register property: ops that
// care (divs, rems, mulhs, ashr, slt, sle, sext) say so.
//
// SIR is not SSA: a register may be assigned in several places (a
// procedural variable assigned on both arms of an if is one register). The
// rule Check enforces is definite assignment: on every path from the entry
// to a read, the register has been assigned. Consequences the optimizer
// uses: a register with a single assignment is defined by an instruction
// that dominates all its reads.
//
// # Ops
//
// Op lists every opcode with its operand widths. In short:
//
//	const copy
//	add sub mul mulhu mulhs divu divs remu rems   (modulo 2^w; x/0 = x%0 = 0; MIN/-1 = MIN)
//	addc addco subb subbo                           (carry/borrow chains)
//	and or xor not neg
//	shl lshr ashr (amount >= w: 0 / sign bits)  fshl fshr (funnel shifts of a:b)
//	eq ne ult ule slt sle                           (1-bit results)
//	mux zext sext trunc extract insert popcnt clz
//	load store loadbits storebits event
//
// Terminators: jump, branch (1-bit condition), ret STATUS. Idioms for what
// is not an op: ugt/sgt swap operands; reduction or is "ne x, 0", reduction
// and is "eq x, ones", reduction xor is "popcnt" into a 1-bit register,
// logical not is "eq x, 0"; $clog2(x) is 0 for x <= 1, else w - clz(x-1).
//
// # Values wider than 64 bits
//
// The lowering splits a wide value into a word tuple ([]Reg, least
// significant first, 64-bit words, the last word holding the remaining bits)
// and emits these idioms, all plain SIR a JIT maps to a few instructions:
//
//   - add/sub: addc/addco (subb/subbo) chains (Builder.AddWide, SubWide);
//     for a single add, the carry out is also "ult sum, a".
//   - compare: ult is the final borrow of a subbo chain (Builder.ULtWide);
//     eq is an or of per-word xors compared with 0; signed compares flip
//     the sign bit of the top words (xor) and compare unsigned.
//   - mul: schoolbook on 64-bit words with mul (low) and mulhu (high),
//     carries by ult; the low W bits of a product are the same for signed
//     and unsigned operands. Unrolled for a few words (Builder.MulWide,
//     O(n^2) instructions); for more, a loop over the words in scratch
//     memory (Builder.MulWideMem, O(n) instructions).
//   - div/rem: Knuth's algorithm D on 32-bit digits in scratch memory
//     (every quotient digit estimate is a 64-by-32-bit divu), negation
//     around it for signed operands, and a final mux for a zero divisor
//     (Builder.DivRemWide): O(n) instructions, at most (W/64)^2 digit
//     steps, no calls.
//   - static part selects across words: fshr hi, lo, k then trunc/extract.
//   - dynamic shifts: k = amount>>6 and s = amount&63; result word i is
//     fshl x[i-k], x[i-k-1], s (fshr for right shifts, with the sign word
//     ashr top, 63 as fill for ashr), the source words picked by a mux
//     barrel on k's bits for a few words, or by dynamic loads from scratch
//     memory (Builder.ShiftWideMem); amount >= W gives 0.
//
// Scratch memory is a region of state the caller reserves for a helper
// (its size is MulWideScratch, DivRemWideScratch, ShiftWideScratch); it is
// dead between helper runs, so code that never runs concurrently may share
// it.
//
// # Memory
//
// Until layout a unit addresses memory as (home, byte offset): Addr{Home,
// Offset} plus, for a dynamic element index, Index*Stride with Count
// elements. Loads and stores move Size = 1, 2, 4 or 8 little-endian bytes
// (a load truncates to its register's width, a store zero-extends);
// loadbits/storebits read or read-modify-write a bit field of the register's
// width at bit offset Lo from the address, within one 8-byte window
// (Lo%8 + width <= 64). A dynamic index is read as unsigned; Index >= Count
// makes a load (or loadbits) give 0 and a store (or storebits) do nothing,
// identically on every backend, never a fault. Layout (implemented by
// statelayout/) turns homes into byte offsets when a unit is interpreted or
// compiled; PackedLayout and MapLayout are simple implementations for tests.
//
// # Runtime events and status
//
// OpEvent appends a record (kind, format-string id, level, argument values
// with widths and signedness) to the runtime-event ring in state memory at
// Layout.Offset(RingHome); ring.go documents the byte format and the
// overflow rule (never write past the end; count the drop; a unit with
// events then returns StatusRingFull instead of StatusOK). Records appear in
// program order. A unit ends with ret STATUS: StatusOK or one of the Status
// codes ($finish, $stop, $fatal, settle did not converge, loop limit, ring
// full, ...); the runtime maps them to outcomes.
//
// # Footprints
//
// Effects(u, layout) lists the byte ranges a unit reads and writes: exact
// ranges for static accesses, whole homes for dynamic ones, the event ring
// as one resource. The partitioner and ordering/ use it on final units.
package sir
