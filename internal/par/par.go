// Package par runs independent pieces of work on several goroutines so
// that the result never depends on the scheduling: each piece writes only
// its own output, and the error returned is the one of the first piece in
// order that failed.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Do calls f(i) once for each i in [0, n) on up to workers goroutines
// (GOMAXPROCS when workers <= 0; the caller's goroutine alone when one
// worker or one piece). Pieces start in increasing i; after a failure no
// piece past it starts. The error returned is the failure of the lowest i,
// the same error a sequential loop that stops at its first failure
// returns, since every piece before a failed one has started and runs to
// its end.
func Do(n, workers int, f func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			if err := f(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Int64 // lowest failed index + 1 seen so far (0: none)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if fl := failed.Load(); fl != 0 && int64(i) >= fl {
					return
				}
				if errs[i] = f(i); errs[i] != nil {
					for {
						fl := failed.Load()
						if fl != 0 && fl <= int64(i)+1 || failed.CompareAndSwap(fl, int64(i)+1) {
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
