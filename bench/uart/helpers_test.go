package uart_test

import (
	"io"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
)

// env is a design on a bench whose failures are recorded, not fatal: the
// mutation checks assert on them, and t.Fatal must not run inside a
// bench task.
type env struct {
	*bench.Bench
	fails []string
}

// build compiles files with top (and parameter overrides, name/value
// pairs) and puts the design on a bench bounded by timeout.
func build(t *testing.T, top string, files []string, timeout bench.Time, params ...string) *env {
	t.Helper()
	b := compile.NewBuilder().Files(files...).Top(top).Output(io.Discard)
	for i := 0; i+1 < len(params); i += 2 {
		b.Param(params[i], params[i+1])
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	e := &env{}
	e.Bench = bench.New(p, bench.Options{
		Fail:    func(m string, _ ...int) { e.fails = append(e.fails, m) },
		Output:  io.Discard,
		Seed:    7,
		Timeout: timeout,
	})
	return e
}

// closeClean closes the bench (running the scoreboards' end checks) and
// fails the test on any failure.
func (e *env) closeClean(t *testing.T) {
	t.Helper()
	e.Close()
	if len(e.fails) > 0 {
		t.Fatalf("%d failures:\n%s", len(e.fails), strings.Join(e.fails, "\n"))
	}
}

// closeFailing closes the bench and returns its first failure.
func (e *env) closeFailing(t *testing.T) string {
	t.Helper()
	e.Close()
	if len(e.fails) == 0 {
		t.Fatal("the bench did not fail")
	}
	return e.fails[0]
}

func wantAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message lacks %q:\n%s", p, msg)
		}
	}
}

// randomChars are n random characters of bits bits.
func randomChars(e *env, n, bits int) []uint16 {
	rng := e.Rand()
	out := make([]uint16, n)
	for i := range out {
		out[i] = uint16(rng.UintN(1 << bits))
	}
	return out
}

func toBytes(ws []uint16) []byte {
	out := make([]byte, len(ws))
	for i, w := range ws {
		out[i] = byte(w)
	}
	return out
}
