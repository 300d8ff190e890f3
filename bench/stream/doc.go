// Package stream owns the generic valid/ready stream verification
// components, the ones cocotbext-axi users reach for, on any bus whose
// beats move at a rising edge where valid and ready are both active:
//
//   - Source drives valid and the payload (Send, SendNowait, WaitIdle);
//   - Sink drives ready and records every beat it takes (Recv);
//   - Monitor drives nothing and records every handshake it sees;
//   - Checker drives nothing and fails the spec at the first violation
//     of the protocol's rule: once valid is active it stays active, with
//     the payload unchanged, until the handshake.
//
// Each one binds its signals by prefix with bench/bus (Config names them
// and their polarity; a bus may have several payload signals of any
// width, active-low valid and ready, or no ready at all) and runs its loop
// as a bench task that its constructor forks, so a spec only wires them
// up and waits:
//
//	p, err := compile.NewBuilder().Files("fifo.sv").Top("fifo").Build()
//	Expect(err).NotTo(HaveOccurred())
//	DeferCleanup(p.Close)
//	tb := bench.New(p, bench.Options{})
//	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
//	tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 2)
//
//	cfg := stream.Config{Data: []string{"data", "user"}}
//	in := cfg
//	in.Pause = stream.RandomPause(tb, 0.3) // seeded: a failure replays
//	src := stream.NewSource(tb, "in", clk, in)
//	out := cfg
//	out.Pause = stream.RandomPause(tb, 0.3) // backpressure
//	sink := stream.NewSink(tb, "out", clk, out)
//	stream.NewChecker(tb, "out", clk, cfg)
//
//	src.SendNowait(stream.NewBeat(0x12, 0x3))
//	Expect(sink.Recv()).To(stream.EqualBeat(stream.NewBeat(0x12, 0x3)))
//
// # Sampling and driving
//
// A handshake at a rising edge is what the design registered at that
// edge, so every component reads valid, ready, the payload and the reset
// through the bench's pre-edge view (bench.PreEdge) right after the edge,
// and the drivers write their next values then, after the edge, as
// registered logic does. The components call Config.Pause once per clock
// cycle, in task order, so a Pause drawn from tb.Rand (RandomPause) gives
// the same backpressure on every run with the same seed.
//
// # Reset
//
// With Config.Reset, a handshake at an edge where the reset was active
// does not count (the design was in reset), and while it is active the
// source drives valid inactive and the sink ready inactive. A beat the
// source had on the bus, or had queued, waits and goes out after the
// reset: nothing queued is dropped.
//
// # Waits
//
// Send, WaitIdle and Recv wait like any bench wait: in the spec they are
// bounded by Options.Timeout (bench.DefaultTimeout by default) and fail
// when nothing can end them; RecvWithin has its own timeout and returns
// false. After the bench stopped (a failure) every wait returns at once:
// Recv with a nil Beat.
package stream
