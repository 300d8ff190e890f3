//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"errors"
	"io"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/weft-hdl/weft/jit/amd64"
)

// build assembles emit into executable code and returns its first function.
func build(t testing.TB, emit func(a *amd64.Assembler)) (*Code, Func) {
	t.Helper()
	a := amd64.New()
	emit(a)
	mc, err := a.Finish()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCode(mc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	f, err := c.Func(0)
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

func ptr(s []uint64) unsafe.Pointer { return unsafe.Pointer(&s[0]) }

func retConst(a *amd64.Assembler) {
	a.MovRegImm(StatusReg, 42, 32)
	a.Ret()
}

// loadAddStore: state[3] = state[1] + state[2]; state[4] = the state
// address seen in RBX; return 7.
func loadAddStore(a *amd64.Assembler) {
	a.MovRegMem(amd64.RAX, amd64.M(StateReg, 8), 64)
	a.AluRegMem(amd64.Add, amd64.RAX, amd64.M(StateReg, 16), 64)
	a.MovMemReg(amd64.M(StateReg, 24), amd64.RAX, 64)
	a.MovMemReg(amd64.M(StateReg, 32), StateReg, 64)
	a.MovRegImm(StatusReg, 7, 32)
	a.Ret()
}

// sumLoop: state[1] = 1 + 2 + ... + state[0] (wrapping); returns the
// number of iterations.
func sumLoop(a *amd64.Assembler) {
	a.MovRegMem(amd64.RCX, amd64.M(StateReg, 0), 64)
	a.AluRegReg(amd64.Xor, amd64.RAX, amd64.RAX, 32) // sum
	a.AluRegReg(amd64.Xor, amd64.RDX, amd64.RDX, 32) // iterations
	done := a.NewLabel()
	top := a.NewLabel()
	a.TestRegReg(amd64.RCX, amd64.RCX, 64)
	a.Jcc(amd64.CondE, done)
	a.Bind(top)
	a.AluRegReg(amd64.Add, amd64.RAX, amd64.RCX, 64)
	a.AluRegImm(amd64.Add, amd64.RDX, 1, 32)
	a.AluRegImm(amd64.Sub, amd64.RCX, 1, 64)
	a.Jcc(amd64.CondNE, top)
	a.Bind(done)
	a.MovMemReg(amd64.M(StateReg, 8), amd64.RAX, 64)
	a.MovRegReg(StatusReg, amd64.RDX, 32)
	a.Ret()
}

func TestReturnConstant(t *testing.T) {
	_, f := build(t, retConst)
	state := make([]uint64, 1)
	if got := f.Call(ptr(state)); got != 42 {
		t.Fatalf("status %d, want 42", got)
	}
}

func TestLoadAddStore(t *testing.T) {
	_, f := build(t, loadAddStore)
	state := []uint64{0, 40, 2, 0, 0}
	if got := f.Call(ptr(state)); got != 7 {
		t.Fatalf("status %d, want 7", got)
	}
	if state[3] != 42 || state[4] != uint64(uintptr(ptr(state))) {
		t.Fatalf("state %v, want [3]=42 and [4]=%p", state, ptr(state))
	}
}

func TestLoop(t *testing.T) {
	_, f := build(t, sumLoop)
	for _, n := range []uint64{0, 1, 10, 1000, 100000} {
		state := []uint64{n, 0}
		if got := f.Call(ptr(state)); uint64(got) != n || state[1] != n*(n+1)/2 {
			t.Errorf("n=%d: status %d, sum %d; want %d, %d", n, got, state[1], n, n*(n+1)/2)
		}
	}
}

// TestEntryPoints runs two functions from one Code.
func TestEntryPoints(t *testing.T) {
	var second int
	c, f0 := build(t, func(a *amd64.Assembler) {
		retConst(a)
		a.Align(16)
		second = a.Len()
		loadAddStore(a)
	})
	f1, err := c.Func(second)
	if err != nil {
		t.Fatal(err)
	}
	state := []uint64{0, 1, 2, 0, 0}
	if f0.Call(ptr(state)) != 42 || f1.Call(ptr(state)) != 7 || state[3] != 3 {
		t.Fatalf("entry points misbehave: state %v", state)
	}
}

// TestClobberEverything: native code may trash every register but amd64.RSP,
// including RBP, R14 (g), R15 and X15; Go must carry on unharmed.
func TestClobberEverything(t *testing.T) {
	_, f := build(t, func(a *amd64.Assembler) {
		for r := range amd64.Reg(amd64.NumRegs) {
			if r != amd64.RSP {
				a.MovRegImm(r, -0x2152411021524111, 64) // 0xdeadbeefdeadbeef
			}
		}
		a.Raw(0x66, 0x4C, 0x0F, 0x6E, 0xF8) // movq xmm15, rax
		a.MovRegImm(StatusReg, 9, 32)
		a.Ret()
	})
	state := make([]uint64, 1)
	for i := 0; i < 1000; i++ {
		if got := f.Call(ptr(state)); got != 9 {
			t.Fatalf("status %d", got)
		}
		if i%100 == 0 {
			runtime.GC()
			var pcs [32]uintptr
			if runtime.Callers(0, pcs[:]) == 0 {
				t.Fatal("no stack after native call")
			}
		}
	}
	// the zero register X15 and g must be intact: float math and a
	// goroutine switch use them
	var zero float64
	done := make(chan float64)
	go func() { done <- zero + 1.5 }()
	if <-done != 1.5 {
		t.Fatal("float math broken after native call")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("panic not recovered")
			}
		}()
		var m map[int]int
		m[0] = 1 // panics: defer and recover walk this stack
	}()
}

// TestGoroutinesUnderGC calls native code from 8 goroutines locked to OS
// threads while the collector runs without pause and others allocate. The
// calls go on for dur and until collections have run: on a loaded machine
// the collecting goroutine may get no turn for a while, which makes the
// test longer, not failed.
func TestGoroutinesUnderGC(t *testing.T) {
	_, loop := build(t, sumLoop)
	_, las := build(t, loadAddStore)
	dur := time.Second
	if testing.Short() {
		dur = 200 * time.Millisecond
	}
	stop := make(chan struct{})
	var gcs, calls atomic.Int64
	var bg sync.WaitGroup
	bg.Add(2)
	go func() { // constant collections
		defer bg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
				gcs.Add(1)
			}
		}
	}()
	go func() { // garbage
		defer bg.Done()
		var keep [][]byte
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				keep = append(keep, make([]byte, 1<<10))
				if len(keep) > 1000 {
					keep = nil
				}
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			state := make([]uint64, 8) // Go-heap state, kept alive by the call
			deadline := time.Now().Add(dur)
			for i := uint64(0); time.Now().Before(deadline) || gcs.Load() < 2; i++ {
				n := uint64(g)*1000 + i%500
				state[0] = n
				if got := loop.Call(ptr(state)); uint64(got) != n || state[1] != n*(n+1)/2 {
					errs <- errors.New("wrong loop result")
					return
				}
				state[1], state[2] = i, uint64(g)
				if las.Call(ptr(state)) != 7 || state[3] != i+uint64(g) {
					errs <- errors.New("wrong load/add/store result")
					return
				}
				calls.Add(2)
			}
		}()
	}
	wg.Wait()
	close(stop)
	bg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d native calls, %d GCs", calls.Load(), gcs.Load())
	if gcs.Load() == 0 {
		t.Error("no GC ran during the test")
	}
}

// TestUnderProfiler runs native loops with SIGPROF arriving inside them.
func TestUnderProfiler(t *testing.T) {
	_, loop := build(t, sumLoop)
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		t.Skip("cpu profiler busy:", err)
	}
	defer pprof.StopCPUProfile()
	state := make([]uint64, 2)
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		state[0] = 1 << 20 // about a millisecond per call
		if loop.Call(ptr(state)) != 1<<20 {
			t.Fatal("wrong result")
		}
	}
}

func TestCodeErrors(t *testing.T) {
	if _, err := NewCode(nil); err == nil {
		t.Error("NewCode(nil) succeeded")
	}
	c, err := NewCode([]byte{0xC3})
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1 {
		t.Errorf("Len %d", c.Len())
	}
	for _, off := range []int{-1, 1, 4096} {
		if _, err := c.Func(off); err == nil {
			t.Errorf("Func(%d) succeeded", off)
		}
	}
	f, err := c.Func(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if st := f.Call(nil); st != StatusNoCode {
		t.Errorf("Call after Close = %#x, want StatusNoCode", st)
	}
	if st := (Func{}).Call(nil); st != StatusNoCode {
		t.Errorf("zero Func Call = %#x, want StatusNoCode", st)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.Func(0); err == nil {
		t.Error("Func after Close succeeded")
	}
}

// BenchmarkCallOverhead measures one Go -> native -> Go round trip through
// the trampoline (the native function returns a constant).
func BenchmarkCallOverhead(b *testing.B) {
	_, f := build(b, retConst)
	state := ptr(make([]uint64, 1))
	for b.Loop() {
		f.Call(state)
	}
}
