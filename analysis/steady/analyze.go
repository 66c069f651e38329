package steady

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// BenchmarkClass is the steady-state class of a benchmark run.
type BenchmarkClass int

const (
	// benchmarkSteady: every decided fork reaches a steady state.
	benchmarkSteady BenchmarkClass = iota
	// benchmarkNoSteady: no decided fork reaches a steady state.
	benchmarkNoSteady
	// benchmarkInconsistent: some decided forks do, some do not.
	benchmarkInconsistent
	// benchmarkTooShort: no fork could be decided (all too short or failed).
	benchmarkTooShort
)

// String returns "steady state", "no steady state", "inconsistent" or "too short".
func (c BenchmarkClass) String() string {
	switch c {
	case benchmarkSteady:
		return "steady state"
	case benchmarkNoSteady:
		return "no steady state"
	case benchmarkInconsistent:
		return "inconsistent"
	case benchmarkTooShort:
		return "too short"
	}
	return fmt.Sprintf("BenchmarkClass(%d)", int(c))
}

// classifyBenchmark classifies a benchmark from its forks' classes as
// Traini et al. do (classify_runs.py): steady state when every fork is
// steady, no steady state when none is, inconsistent otherwise. Forks that
// are too short or failed are left out; with none left the benchmark is
// benchmarkTooShort.
func classifyBenchmark(forks []ForkClass) BenchmarkClass {
	steady, not := 0, 0
	for _, c := range forks {
		switch c {
		case ForkSteady:
			steady++
		case ForkNoSteady:
			not++
		}
	}
	switch {
	case steady == 0 && not == 0:
		return benchmarkTooShort
	case not == 0:
		return benchmarkSteady
	case steady == 0:
		return benchmarkNoSteady
	}
	return benchmarkInconsistent
}

// BenchmarkResult is the analysis of one benchmark run (a table.Series).
type BenchmarkResult struct {
	Key   table.Key
	Setup *table.Setup
	// Unit is the unit the file recorded the run's scores in (JMH's
	// scoreUnit: ms/op, ops/s; ns/op for go test), empty when its rows
	// mix units or it is not known; the plots draw scores in it.
	Unit  string
	Forks []ForkResult
	Class BenchmarkClass
	// Window is the steady window W its forks were classified with
	// (Options.SteadyWindow, or AutoWindow of its longest fork).
	Window int
	// Evaluations has one entry per Options.Configs set, in order.
	Evaluations []BenchmarkEvaluation
}

// Report is the analysis of a set of benchmark runs.
type Report struct {
	Options    Options
	Benchmarks []BenchmarkResult
}

// forksOf splits a series into its forks (units of Series.Units(LevelFork),
// i.e. per pair, instance, trial and fork) and each fork into its
// iterations. An iteration's value is its count-weighted mean ns/op
// (Series.WeightedMean). Its duration is
//
//	ceil(T / v)·v        when the configured iteration time T is known
//	                     (setup.IterationTimeNs): JMH ends an iteration with
//	                     the operation that crosses T, as Traini et al.'s
//	                     estimate_time assumes;
//	count·v              otherwise: the iteration's invocations times their
//	                     mean time (count is 1 when unknown).
//
// Ops, the operations per iteration, is ceil(T / mean v) when T is known and
// the mean count per iteration otherwise. Iterations whose value is not
// finite and positive are left out and counted in forkSeries.dropped.
func forksOf(s *table.Series) []forkSeries {
	if s.Len() == 0 {
		return nil
	}
	T := float64(s.Setup.IterationTimeNs())
	iters := s.Units(table.LevelIteration)
	var forks []forkSeries
	var counts float64
	finish := func() {
		f := &forks[len(forks)-1]
		n := len(f.values)
		if n == 0 {
			return
		}
		if T > 0 {
			var mean float64
			for _, v := range f.values {
				mean += v
			}
			f.ops = math.Ceil(T / (mean / float64(n)))
		} else {
			f.ops = counts / float64(n)
		}
	}
	for _, sp := range iters {
		id := ForkID{s.Levels[table.LevelInstance][sp.Start], s.Levels[table.LevelTrial][sp.Start], s.Levels[table.LevelFork][sp.Start]}
		newFork := len(forks) == 0 || forks[len(forks)-1].id != id
		if !newFork && s.Pair != nil {
			newFork = s.Pair[sp.Start] != s.Pair[sp.Start-1]
		}
		if newFork {
			if len(forks) > 0 {
				finish()
			}
			forks = append(forks, forkSeries{id: id})
			counts = 0
		}
		f := &forks[len(forks)-1]
		v := s.WeightedMean(sp)
		if !(v > 0) || math.IsInf(v, 0) {
			f.dropped++
			continue
		}
		c := float64(s.TotalCount(sp))
		d := c * v
		if T > 0 {
			d = math.Ceil(T/v) * v
		}
		f.values = append(f.values, v)
		f.nanos = append(f.nanos, d)
		counts += c
	}
	finish()
	return forks
}

// analyze runs the steady-state analysis (and the evaluation of
// opt.Configs) on every series, benchmarks in parallel on opt.Workers
// goroutines. The result does not depend on the number of workers.
func analyze(series []*table.Series, opt Options) (*Report, error) {
	return analyzeSource(len(series), func(i int) (*table.Series, error) { return series[i], nil }, opt)
}

// analyzeSource is analyze over n series produced on demand by get (called
// once per index, from worker goroutines), so that large data sets need not
// be held in memory at once. Results are in index order.
func analyzeSource(n int, get func(i int) (*table.Series, error), opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	res := &Report{Options: opt, Benchmarks: make([]BenchmarkResult, n)}
	pool := make(chan *analyzer, workpool.Workers(opt.Workers))
	err := workpool.Run(n, opt.Workers, func(i int) error {
		s, err := get(i)
		if err != nil {
			return err
		}
		var a *analyzer
		select {
		case a = <-pool:
		default:
			a = newAnalyzer(&res.Options)
		}
		res.Benchmarks[i] = a.analyzeBenchmark(s)
		pool <- a
		if opt.Progress != nil {
			opt.Progress(n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func newAnalyzer(opt *Options) *analyzer {
	a := &analyzer{opt: opt, seg: opt.Segmenter}
	if a.seg == nil {
		a.seg = peltSegmenter{rule: opt.Penalty, value: opt.PenaltyValue, Range: opt.PenRange}
	}
	return a
}

// analyzeForks analyses the forks of one benchmark run given directly
// (tests, other analyzers); key names the run and keys its bootstrap
// streams, setup may be nil.
func analyzeForks(key table.Key, setup *table.Setup, forks []forkSeries, opt Options) (BenchmarkResult, error) {
	if err := opt.Validate(); err != nil {
		return BenchmarkResult{}, err
	}
	return newAnalyzer(&opt).analyzeForks(key, setup, forks), nil
}

func (a *analyzer) analyzeBenchmark(s *table.Series) BenchmarkResult {
	br := a.analyzeForks(s.Key, s.Setup, forksOf(s))
	if !s.MixedUnits() {
		br.Unit = s.Unit
	}
	return br
}

func (a *analyzer) analyzeForks(key table.Key, setup *table.Setup, forks []forkSeries) BenchmarkResult {
	longest := 0
	for i := range forks {
		longest = max(longest, len(forks[i].values))
	}
	br := BenchmarkResult{Key: key, Setup: setup, Forks: make([]ForkResult, len(forks)), Window: a.opt.window(longest)}
	name := key.String()
	classes := make([]ForkClass, len(forks))
	for i := range forks {
		br.Forks[i] = a.analyzeFork(name, &forks[i], br.Window)
		classes[i] = br.Forks[i].Class
	}
	br.Class = classifyBenchmark(classes)
	for si, set := range a.opt.Configs {
		br.Evaluations = append(br.Evaluations, a.evaluate(name, key, setup, set, si, forks, br.Forks))
	}
	return br
}
