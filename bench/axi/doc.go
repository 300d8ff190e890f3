// Package axi owns AXI4 memory-mapped verification components for the
// bench: RAM, a slave memory that an RTL master (a DMA, a CPU's bus port,
// a traffic generator) reads and writes, like cocotbext-axi's AxiRam.
//
//	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
//	rng := tb.Rand() // seeded: a failure replays with -ginkgo.seed
//	ram := axi.NewRAM(tb, "m_axi", clk.Signal(), 64<<10, axi.Options{
//		Reset:          tb.Signal("rst_n"),
//		ResetActiveLow: true,
//		Pause:          func() bool { return rng.IntN(4) == 0 }, // ready low 1 cycle in 4
//		RespDelay:      func() int { return rng.IntN(3) },
//	})
//	copy(ram.Mem()[0x100:], firmware)               // preload
//	tb.Set(tb.Signal("start"), 1)
//	tb.WaitUntil("done", func() bool { return tb.Signal("done").Get() == 1 })
//	Expect(ram.Mem()[0x2000:0x2010]).To(Equal(want)) // what the master wrote
//
// NewRAM binds the bus by prefix (see package bench/bus) and starts one
// bench task that serves all five channels, one rising edge at a time.
// It reads the handshakes through tb.PreEdge, so a transfer is what the
// design registered at the edge, and drives the slave's outputs right
// after the edge, as registered logic would.
//
// # What the RAM does
//
//   - Bursts: INCR (1 to 256 beats), WRAP (2, 4, 8 or 16 beats, wrapping
//     at a boundary of beats × bytes per beat) and FIXED (up to 16 beats).
//   - Narrow transfers: AxSIZE below the bus width moves the byte lanes
//     that the beat's address selects; an unaligned start address moves
//     the lanes from the address up to the end of its AxSIZE unit. Write
//     strobes select among those lanes; strobes outside them are ignored
//     (the AXI spec says a master keeps them low, many leave them high).
//     A read returns the whole bus word, every lane.
//   - Write data waits for its address: wready stays low until an AW has
//     been accepted whose data is not complete, which AXI permits a
//     slave to do. W beats fill the oldest such burst.
//   - Outstanding transactions: up to MaxOutstanding AWs (accepted, B not
//     yet sent) and as many ARs (accepted, last R beat not yet taken);
//     beyond that awready/arready stay low.
//   - Ordering: B responses go out in AW order and read bursts in AR
//     order, whole bursts one after the other (no read interleaving, no
//     reordering across IDs). That is in order per ID, as AXI requires.
//   - Delays: Pause lowers awready, wready and arready for the cycles it
//     says, and holds rvalid low between R beats; RespDelay adds cycles
//     before each B response and before the first R beat of each burst.
//     valid stays high once raised until the master takes the beat.
//   - Errors: the RAM occupies addresses 0 to size-1. A beat whose bytes
//     lie (partly) beyond that is not written, reads as zero and answers
//     DECERR (a decode error: no memory there); a write burst with such a
//     beat answers DECERR in B. Exclusive accesses (AxLOCK) are served as
//     normal ones and answer OKAY, never EXOKAY. AxCACHE, AxPROT and AxQOS
//     are bound when present and ignored.
//   - Reset: while Options.Reset is active the RAM drives every output low
//     (no ready, no valid), drops the transactions in flight and ignores
//     the bus. Mem keeps its contents.
//
// # Protocol errors
//
// A master that breaks AXI4 fails the spec with tb.Failf naming the bus,
// the burst and the rule: wlast high before the last beat or low on it, a
// WRAP burst of a length other than 2, 4, 8, 16 or with an unaligned
// address, a FIXED burst longer than 16 beats, the reserved burst type 3,
// an AxSIZE wider than the data bus, an INCR burst that crosses a 4 KiB
// boundary, and awvalid, wvalid or arvalid dropped, or the payload beside
// it changed, before the handshake.
package axi
