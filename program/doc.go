// Package program owns the compiled design as the runtime sees it: the
// boundary between weft's compiler (hdl, elab, slt, kernels, statelayout,
// lanes, ffsplit) and its runtime (sim, dut, bench, vcd). A Program holds
// exactly what a simulator needs and nothing of the compiler's own types:
//
//   - the signal table (Signals, Scopes, Functions) that dut, vcd and the
//     bench name signals by, with what a Force cannot hold (NoForce);
//   - the flat state layout (Layout): every object's offset and size, the
//     staging pairs, the initial values, the event ring, the system block
//     (SysDiag, SysRandom, SysTime) and the lane segments;
//   - the SIR units (Initial, Settle, Event, per event Unit and Fused,
//     the tick loops) and the partitioned kernels' task tables with their
//     waits and effects (Parallel), with the tick loops' free-running
//     lanes (LaneTick);
//   - the triggers and events the step loop detects edges with, the
//     runtime-event formats (Message formats a ring record), the
//     $readmem calls, the loop tables error messages name, the plan
//     summary and the compiler's warnings.
//
// kernels.(*Program).Export builds one; Link checks every index, every
// object's place and every unit (sir.Check), so a Program that links is
// safe to run. A linked Program is never changed again: a simulator keeps
// what it derives (compiled code, waits recomputed from the code's store
// footprints with Partitioned.WaitsFor) to itself, and several simulators
// may share one Program.
//
// The shared runtime formats are defined here once: the system block
// fields (SysDiag...), the lane status object (LaneStatus, LaneDiag,
// LaneStatusSize); the event ring's header is sir's (sir.RingHeaderSize,
// sir.RingField...).
//
// # Image
//
// Encode writes a linked Program as bytes that Decode reads back, so that
// a cache can skip the compiler (image.go). An image is a header, then a
// msgpack body:
//
//	"weft-image\x00"  magic
//	u32 (LE)          container version (the header's layout)
//	u64 (LE)          body length
//	[32]byte          sha256 of the body
//	body              Meta, then the program, structs as arrays
//
// Meta says who wrote the image and from what: FormatVersion
// (ImageVersion) and Schema (a fingerprint of the encoded types' shape),
// which Decode checks, and WeftVersion, ISA, Options and Deps (the source
// files and their sha256), which the caller compares with what it
// expects; ReadMeta reads them without decoding the program. Each unit
// is stored once, in a table the places that hold it index, so units a
// partitioned kernel shares with the sequential ones decode to one
// *sir.Unit; its instructions are a compact varint string, not msgpack
// values. No machine code is stored: a simulator compiles the units again.
// The same program and Meta always give the same bytes.
//
// Decode never panics, and returns a program only when the image is
// intact and the program links: it checks the header, the length and the
// checksum, then that every length the msgpack body claims fits in the
// bytes that remain (so that a forged length cannot make the decoder
// allocate more than a few hundred bytes per byte of image), decodes, and
// calls Link, which checks every index and every unit. An intact image of
// another FormatVersion or Schema is an ErrStaleImage error (a cache
// miss); anything else refused is an ErrBadImage error. Bump ImageVersion whenever an encoded type changes.
package program
