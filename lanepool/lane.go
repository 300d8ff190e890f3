package lanepool

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"unsafe"
)

// laneState is everything one lane owns, each part in its own lines.
type laneState struct {
	progress line // written by the lane: its progress word
	start    line // written by the dispatcher: the run a worker is to start
	spot     spot
	rec      record
}

// record is the lane's failure record and jitter source: written only by the
// lane, read by the dispatcher after it has seen the lane's done marker.
type record struct {
	recordData
	_ [128 - unsafe.Sizeof(recordData{})%128]byte
}

type recordData struct {
	failEpoch uint64 // the run that failed on this lane; other fields belong to it
	task      int    // index of the running, then failed, task
	status    Status
	panicked  bool
	panicVal  any
	stack     []byte
	rng       rand.PCG
	// stats is the lane's share of Pool.Stats. Only waits that find their
	// word missing, publishes that find a sleeper and (on lane 0) Run
	// touch it, so a lane that never waits never writes it.
	stats laneStats
}

// runLane runs lane me's tasks of k in progress epoch e and then publishes
// the lane's done marker, however the tasks ended: all run, one failed, the
// rest skipped, a panic, or runtime.Goexit. Every lane waiting on this one
// needs that marker.
func (p *Pool) runLane(k *Kernel, me int, state unsafe.Pointer, e uint64) {
	ls := &p.lanes[me]
	returned := false
	defer func() {
		r := recover()
		if r != nil {
			ls.rec.failEpoch, ls.rec.panicked = e, true
			ls.rec.panicVal, ls.rec.stack = r, debug.Stack()
		}
		goexit := r == nil && !returned
		if r != nil || goexit {
			p.failed.fail(e, ls.rec.task)
		}
		p.publish(&ls.progress, word(e, doneCount), me)
		if goexit {
			// t.FailNow in a task. On the caller's goroutine, leave the
			// pool idle and let the goroutine exit as the test wants; a
			// worker cannot be left to exit, its lane would hang the next
			// Run, so say so loudly.
			if me != 0 {
				panic(fmt.Sprintf("lanepool: task %d on lane %d called runtime.Goexit (t.FailNow?); tasks on workers must return a Status", ls.rec.task, me))
			}
			p.awaitWorkers(k, e)
			p.failed.index.Store(math.MaxInt64)
			p.state.Store(stateIdle)
		}
	}()
	p.runTasks(ls, k, me, state, e)
	returned = true
}

// runTasks runs the tasks in order. Before each it waits for the counts the
// task needs. Once a task of the run has failed, the lane stops at its first
// task whose index is above the lowest failed index: a lane's indices rise, so
// all that is left would come later in the sequential order too. Tasks below
// it still run, which makes the reported failure the one the sequential
// kernel reports, whatever the timing.
func (p *Pool) runTasks(ls *laneState, k *Kernel, me int, state unsafe.Pointer, e uint64) {
	tasks := k.lanes[me]
	for i := range tasks {
		t := &tasks[i]
		for _, w := range k.waits[t.w0:t.w1] {
			src := &p.lanes[w.lane].progress
			if want := word(e, w.count); src.v.Load() < want {
				p.await(src, want, me, p.cfg.wait)
			}
		}
		// A lane that failed or stopped publishes its done marker, which
		// satisfies every wait on it; this check keeps such a wait from
		// letting a task run on incomplete data. (A task below the lowest
		// failure waits only for tasks further below it, which all ran.)
		if p.failed.skips(e, t.index) {
			return
		}
		if p.cfg.jitter > 0 {
			p.pause(&ls.rec)
		}
		ls.rec.task = t.index
		if st := t.fn(state); st != OK {
			ls.rec.failEpoch, ls.rec.status, ls.rec.panicked = e, st, false
			p.failed.fail(e, t.index)
			return
		}
		if t.publish {
			if p.cfg.jitter > 0 {
				p.pause(&ls.rec)
			}
			p.publish(&ls.progress, word(e, uint32(i+1)), me)
		}
	}
}
