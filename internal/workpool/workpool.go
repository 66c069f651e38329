// Package workpool runs independent jobs (one per benchmark) on a fixed
// number of goroutines. Results are written by index, so the output does not
// depend on the number of workers or on completion order.
package workpool

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns n when n > 0, else GOMAXPROCS.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Run calls fn(i) for i in [0, n) on Workers(workers) goroutines and waits.
// The first non-nil error (lowest i among those that failed) is returned;
// jobs not yet started when an error occurs are skipped.
func Run(n, workers int, fn func(i int) error) error {
	w := Workers(workers)
	if w > n {
		w = n
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Map computes out[i] = fn(i) for i in [0, n) in parallel.
func Map[T any](n, workers int, fn func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	err := Run(n, workers, func(i int) error {
		v, err := fn(i)
		out[i] = v
		return err
	})
	return out, err
}
