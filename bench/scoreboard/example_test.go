package scoreboard_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/compile"
)

// A monitor's queue watched by a scoreboard: the third item differs, and
// the failure shows how (here Fail prints it instead of failing a test).
func Example() {
	p, err := compile.NewBuilder().Files("testdata/counter.sv").Top("counter").Output(io.Discard).Build()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	// The message starts "bench: at <time> in task ...:"; print its own part.
	show := func(m string, _ ...int) { fmt.Println(m[strings.Index(m, "scoreboard \"dma\" stream"):]) }
	tb := bench.New(p, bench.Options{Fail: show, Output: io.Discard})
	defer tb.Close()

	received := bench.NewQueue[[]byte](tb, "packets", 0)
	sb := scoreboard.New[[]byte](tb, "dma")
	sb.Expect("out", []byte("ping"), []byte("pong"), []byte("pang"))
	sb.Watch("out", received.Get)
	for _, pkt := range []string{"ping", "pong", "pung"} {
		received.Put([]byte(pkt)) // as a monitor task would
	}
	tb.Timer(bench.NS) // let the watch task run
	fmt.Println("matched:", sb.Matched("out"))
	// Output:
	// scoreboard "dma" stream "out": item 2 differs (2 matched before it): byte 1 of 4: got 0x75, want 0x61
	//   got  0000: 70 75 6e 67
	//   want 0000: 70 61 6e 67
	//                 ^^
	// matched: 2
}
