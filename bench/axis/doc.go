// Package axis owns weft's AXI4-Stream verification components, the
// counterparts of cocotbext-axi's AxiStreamSource, AxiStreamSink and
// AxiStreamMonitor: a Source you Send frames to, a Sink you Recv frames
// from, and a passive Monitor that records the frames it sees on a bus.
// They are built on bench/stream's valid/ready components (the
// handshake, the pauses, the reset, the pre-edge sampling) and add what
// AXI4-Stream puts on top: byte lanes, packets and the sideband.
//
//	src := axis.NewSource(tb, "s_axis", clk, axis.Options{Reset: rstN, ResetActiveLow: true})
//	sink := axis.NewSink(tb, "m_axis", clk, axis.Options{Pause: stream.RandomPause(tb, 0.3)})
//	mon := axis.NewMonitor(tb, "m_axis", clk, axis.Options{})
//	axis.NewChecker(tb, "m_axis", clk, axis.Options{}) // protocol rules on the bus
//
//	src.Send(axis.Frame{Data: []byte("hello"), ID: 1, Dest: 2})
//	Expect(sink.Recv().Data).To(Equal([]byte("hello")))
//	Expect(mon.Recv().ID).To(Equal(uint64(1)))
//
// # The bus
//
// A component binds its bus by prefix (bench/bus): tdata and tvalid are
// required, tready, tlast, tkeep, tstrb, tid, tdest and tuser are used
// when the design has them. tdata may be any multiple of 8 bits wide;
// tkeep and tstrb have one bit per byte. A bus without tready always
// accepts. tid, tdest and tuser travel as uint64: a wider signal carries
// the value in its low 64 bits.
//
// # Frames
//
// A Frame is one packet. Data's byte 0 rides in tdata[7:0] of the first
// beat, byte 1 in tdata[15:8], and so on; the last beat of a frame has
// tlast set and tkeep (and tstrb) cleared for the byte lanes past the
// end of Data, which the sink drops. ID and Dest are the frame's tid and
// tdest, driven on every beat of it; the sink takes them from the first
// beat and fails the spec when a later beat of the same frame carries
// other values (the components do not reassemble interleaved streams).
// User holds tuser one value per beat: the sink fills it that way;
// the source takes len(User) == number of beats as is, one value as
// the tuser of every beat, and none as zero.
//
// A bus without tkeep carries whole beats only: Send fails the spec for
// a frame whose length is not a multiple of the bus's bytes. A bus
// without tlast has no packets: every beat is a frame, so Send splits
// Data into beats and the sink returns each beat as its own Frame.
//
// The sink reads each byte lane the AXI4-Stream way: tkeep=1 is a byte of
// the stream (tstrb=0 makes it a position byte, kept in Data with the
// value tdata had), tkeep=0 with tstrb=0 is a null byte, dropped
// wherever it is in the frame, and tkeep=0 with tstrb=1 is reserved and
// fails the spec. Without tkeep every byte is kept; without tstrb,
// tstrb is tkeep. The source drives tstrb equal to tkeep.
//
// # Reset and pauses
//
// Options.Reset makes the components idle while it is active: the source
// holds tvalid low, the sink holds tready low, and the sink and monitor
// drop a frame a reset cuts off. The source keeps its queue through a
// reset, and bench/stream keeps the beat it owes the bus, so a frame a
// reset cuts resumes where it stopped when the reset ends (cocotbext-axi
// flushes it instead; bench/stream has no flush). Options.Pause (stream.RandomPause, or
// any func) inserts idle cycles at the source and holds tready low at
// the sink, for backpressure.
package axis
