// Package axil owns weft's AXI4-Lite verification components, the ones
// cocotbext-axi users reach for: a Master that drives an AXI4-Lite slave
// in the design (AxiLiteMaster) and a RAM that serves an AXI4-Lite master
// in the design (AxiLiteRam). Both bind the bus by prefix (bench/bus),
// run their drive loop as a bench task forked by the constructor, sample
// every handshake at the rising edge with tb.PreEdge (what the design
// registered there), drive new values after the edge, and check the
// other side keeps the AXI handshake rule (a valid stays high, payload
// unchanged, until its ready). Random pauses (Options.Pause) give
// handshake delays and backpressure; while Options.Reset is active a
// component drives its outputs idle and ignores the bus.
//
// A spec drives a register file through a Master:
//
//	tb := bench.New(p, bench.Options{})
//	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
//	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 4)
//	m := axil.NewMaster(tb, "s_axil", clk.Signal(), axil.Options{
//		Reset: tb.Signal("rst_n"), ResetActiveLow: true,
//		Pause: stream.RandomPause(tb, 0.3),
//	})
//	Expect(m.WriteWord(0x08, 0xcafe)).To(Equal(axil.OKAY))
//	v, resp := m.ReadWord(0x08)
//	Expect(resp).To(Equal(axil.OKAY))
//	Expect(v).To(Equal(uint64(0xcafe)))
//	Expect(m.WriteWord(0x80, 1)).To(Equal(axil.DECERR)) // an answer, not a failure
//
// and serves a DMA-like master with a RAM:
//
//	ram := axil.NewRAM(tb, "m_axil", clk.Signal(), 1024, axil.Options{})
//	ram.Write(0x100, payload) // preload
//	... start the design, wait for it ...
//	Expect(ram.Read(0x200, len(payload))).To(Equal(payload))
//
// The design needs a process clocked by clk (any flop will do): the
// bench takes its pre-edge samples at evaluations where an edge fires
// one, so a bus of wires alone would never show a handshake.
//
// Failures (a timeout, a broken handshake rule, a response nobody asked
// for, a reset that cuts a transfer short) go through tb.Failf and name
// the bus. A slave's SLVERR or DECERR is returned, not a failure. Write
// and Read wait at most Options.Timeout clock cycles; the tasks run
// until the bench closes.
package axil
