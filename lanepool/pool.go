package lanepool

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// MaxLanes bounds the lanes of a pool: a progress word records its parked
// waiters as one bit per lane in a uint64.
const MaxLanes = 64

// Pool runs kernels on a fixed number of lanes: lane 0 on the goroutine that
// calls Run, lanes 1..n-1 on worker goroutines locked to their OS threads for
// the pool's lifetime. A Pool runs one kernel at a time: concurrent calls to Run
// return ErrBusy. Close releases the workers; a Pool that is dropped without
// Close keeps them.
type Pool struct {
	// Read by every lane on every task, written only by New.
	lanes []laneState
	cfg   config
	_     [128 - (unsafe.Sizeof([]laneState{})+unsafe.Sizeof(config{}))%128]byte

	// failed holds the epoch of the last run in which a task failed, and the
	// lowest index that failed in it. It is written only on failure, so the
	// per-task check is a read of a clean line.
	failed failLine

	// Written on every Run, so kept away from what the lanes read. state is
	// stateIdle, stateRunning or stateClosed. runs counts Runs and is what
	// starts a worker; epoch is the current progress epoch, which wraps after
	// epochLimit (a field so a test can make it wrap). Only the dispatcher
	// (whoever is in Run) touches runs and epoch.
	state                   atomic.Uint32
	runs, epoch, epochLimit uint64
	_                       [128 - 4*8]byte

	wg sync.WaitGroup

	// pinErr is what WithPinning failed at, set by New before it returns.
	pinErr error
}

const (
	stateIdle uint32 = iota
	stateRunning
	stateClosed
)

// stopRun on a worker's start word tells it to exit.
const stopRun = ^uint64(0)

// New starts a pool of lanes lanes: lanes-1 worker goroutines, each locked to
// its own OS thread. Close releases them.
//
// With more lanes than GOMAXPROCS (read once, here) the pool polls only for
// OversubscribedWaitSpin, parks idle workers at once, and parks through the Go
// scheduler, which hands a parked lane's P to another goroutine at once;
// otherwise it spins for DefaultWaitSpin, DefaultIdleSpin and
// DefaultDoneSpin and parks on a futex, which wakes faster but keeps the P
// until the runtime's monitor retakes it (20µs or more). Lanes hand off
// without a context switch only while each has a core: CapLanes fits a
// lane count to the CPUs the process may use.
func New(lanes int, opts ...Option) (*Pool, error) {
	if lanes < 1 || lanes > MaxLanes {
		return nil, fmt.Errorf("lanepool: %d lanes requested, want 1 to %d", lanes, MaxLanes)
	}
	cfg := config{wait: DefaultWaitSpin, idle: DefaultIdleSpin, done: DefaultDoneSpin, park: defaultPark}
	for _, o := range opts {
		o(&cfg)
	}
	if lanes > runtime.GOMAXPROCS(0) {
		if !cfg.spinSet {
			cfg.wait, cfg.idle, cfg.done = OversubscribedWaitSpin, Spin{}, OversubscribedWaitSpin
		}
		if !cfg.parkSet {
			cfg.park = parkChan
		}
	}
	p := &Pool{lanes: make([]laneState, lanes), cfg: cfg, epochLimit: maxEpoch}
	p.failed.index.Store(math.MaxInt64)
	for l := range p.lanes {
		p.lanes[l].spot.ch = make(chan struct{}, 1)
		p.lanes[l].rec.rng = *rand.NewPCG(cfg.seed, uint64(l))
	}
	p.wg.Add(lanes - 1)
	var pin *pinning
	if len(cfg.pin) > 0 {
		pin = &pinning{errs: make([]error, lanes)}
		pin.wg.Add(lanes - 1)
	}
	for l := 1; l < lanes; l++ {
		go p.worker(l, pin)
	}
	if pin != nil {
		pin.wg.Wait()
		p.pinErr = errors.Join(pin.errs...)
	}
	return p, nil
}

// pinning collects the workers' WithPinning outcomes for New.
type pinning struct {
	wg   sync.WaitGroup
	errs []error // by lane
}

// Lanes returns the number of lanes of the pool.
func (p *Pool) Lanes() int { return len(p.lanes) }

// PinErr reports the lanes WithPinning could not pin (they run unpinned), or
// nil when every worker was pinned or no pinning was asked for.
func (p *Pool) PinErr() error { return p.pinErr }

// Run executes kernel k on state: lane 0 on the calling goroutine, the other
// lanes of k on the workers. It returns once every lane has finished or
// skipped its tasks, and every write of every task happens before Run returns.
// The Result reports the lowest-indexed task that ran and failed. The error is
// non-nil only when k did not run: the pool is closed (ErrClosed), another Run
// is in progress (ErrBusy), or k has more lanes than the pool.
//
// If a task panics, the other lanes skip their pending tasks and Run panics
// with a *PanicError on the calling goroutine once they have stopped. A task
// on lane 0 that calls runtime.Goexit (t.FailNow) ends the calling goroutine
// the same way, leaving the pool idle; on a worker lane that crashes the
// program with a message, since the lane could not run again.
//
// Each started worker's start line keeps k and state referenced until the
// next Run that starts it, or Close.
func (p *Pool) Run(k *Kernel, state unsafe.Pointer) (Result, error) {
	if !p.state.CompareAndSwap(stateIdle, stateRunning) {
		if p.state.Load() == stateClosed {
			return Result{}, ErrClosed
		}
		return Result{}, ErrBusy
	}
	if k == nil || len(k.lanes) > len(p.lanes) {
		p.state.Store(stateIdle)
		if k == nil {
			return Result{}, fmt.Errorf("lanepool: Run with a nil kernel")
		}
		return Result{}, fmt.Errorf("lanepool: kernel has %d lanes, the pool only %d", len(k.lanes), len(p.lanes))
	}
	p.runs++
	p.lanes[0].rec.stats.runs.add(1)
	if p.epoch++; p.epoch > p.epochLimit {
		p.restartEpochs()
	}
	e := p.epoch
	for _, l := range k.active {
		st := &p.lanes[l].start
		st.k, st.state, st.epoch = k, state, e
		p.publish(st, p.runs, 0)
	}
	p.runLane(k, 0, state, e)
	p.awaitWorkers(k, e)
	if p.failed.epoch.Load() != e {
		p.state.Store(stateIdle)
		return Result{}, nil
	}
	res, pe := p.collect(k, e)
	p.failed.index.Store(math.MaxInt64)
	p.state.Store(stateIdle)
	if pe != nil {
		panic(pe)
	}
	return res, nil
}

// awaitWorkers returns once every worker started for k has published its
// done marker for epoch e.
func (p *Pool) awaitWorkers(k *Kernel, e uint64) {
	done := word(e, doneCount)
	for _, l := range k.active {
		if src := &p.lanes[l].progress; src.v.Load() < done {
			p.await(src, done, 0, p.cfg.done)
		}
	}
}

// restartEpochs zeroes every word that holds an epoch, so epochs can start
// again from 1. Every lane is idle and every worker waits on its start word,
// which counts runs, not epochs.
func (p *Pool) restartEpochs() {
	for l := range p.lanes {
		p.lanes[l].progress.v.Store(0)
		p.lanes[l].rec.failEpoch = 0
	}
	p.failed.epoch.Store(0)
	p.epoch = 1
}

// collect picks, among the lanes that recorded a failure in run e, the panic
// or else the failure of the lowest sequential index. Lanes record only tasks
// that ran, so skipped tasks never count.
func (p *Pool) collect(k *Kernel, e uint64) (Result, *PanicError) {
	var res Result
	var pe *PanicError
	for l := range k.lanes {
		r := &p.lanes[l].rec
		if r.failEpoch != e {
			continue
		}
		if r.panicked {
			if pe == nil || r.task < pe.Task {
				pe = &PanicError{Task: r.task, Lane: l, Value: r.panicVal, Stack: r.stack}
			}
			r.panicVal, r.stack = nil, nil
			continue
		}
		if res.Status == OK || r.task < res.Task {
			res = Result{Status: r.status, Task: r.task, Lane: l}
		}
	}
	return res, pe
}

// Close stops the workers and waits until their goroutines, and with them their
// OS threads, have exited. It is idempotent; it returns ErrBusy while a Run is
// in progress. Run on a closed pool returns ErrClosed.
func (p *Pool) Close() error {
	if !p.state.CompareAndSwap(stateIdle, stateClosed) {
		if p.state.Load() == stateRunning {
			return ErrBusy
		}
		p.wg.Wait() // closed by someone else; let them finish
		return nil
	}
	for l := 1; l < len(p.lanes); l++ {
		st := &p.lanes[l].start
		st.k, st.state = nil, nil
		p.publish(st, stopRun, 0)
	}
	p.wg.Wait()
	return nil
}

// worker runs lane l. It never unlocks its thread, so when Close makes it
// return the runtime terminates the thread rather than keeping it idle.
func (p *Pool) worker(l int, pin *pinning) {
	runtime.LockOSThread()
	defer p.wg.Done()
	if pin != nil {
		cpu := p.cfg.pin[l%len(p.cfg.pin)]
		if err := pinThread(cpu); err != nil {
			pin.errs[l] = fmt.Errorf("lanepool: pinning lane %d to CPU %d: %w", l, cpu, err)
		}
		pin.wg.Done()
	}
	start := &p.lanes[l].start
	var seen uint64
	for {
		if start.v.Load() <= seen {
			p.await(start, seen+1, l, p.cfg.idle)
		}
		run := start.v.Load()
		if run == stopRun {
			return
		}
		seen = run
		p.runLane(start.k, l, start.state, start.epoch)
	}
}
