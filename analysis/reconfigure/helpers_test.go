package reconfigure

import (
	"math"
	"math/bits"
	"sort"
	"testing"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// genSpec describes a generated benchmark series: iteration k (0-based) of
// fork f has the level mean·F_f·curve(k)·ε_k with lognormal fork factor F_f
// (sigma forkSD) and iteration noise ε_k (sigma noise), both with mean 1.
// With invocations > 0 the series is sample mode: each iteration holds a
// histogram of that many invocations, lognormal around the level (sigma
// invNoise), truncated to whole nanoseconds and quantised as JMH's
// sample-mode histogram (and synth) do: only the 10 most significant bits
// are kept.
type genSpec struct {
	forks, iters       int
	mean               float64
	noise, forkSD      float64
	curve              func(k int) float64
	invocations        int
	invNoise           float64
	forkIters          []int // optional per-fork iteration counts (ragged data)
	iterationTimeNanos int64 // setup measurement time; 0 = no setup
}

func lognormal(r interface{ NormFloat64() float64 }, sigma float64) float64 {
	if sigma == 0 {
		return 1
	}
	return math.Exp(sigma*r.NormFloat64() - sigma*sigma/2)
}

// genSeries builds the series of g directly (as table.Table.Collect would return
// it), with draws from the stream (seed, key).
func genSeries(key table.Key, g genSpec, seed uint64) *table.Series {
	r := stats.NewRand(seed, key.String(), 0)
	s := &table.Series{Key: key, Metric: table.Primary, Unit: "ns/op"}
	if key.Mode == "" {
		s.Mode = "avgt"
		if g.invocations > 0 {
			s.Mode = "sample"
		}
	}
	if g.iterationTimeNanos > 0 {
		s.Setup = &table.Setup{Key: s.Key, MeasurementTimeNs: g.iterationTimeNanos}
	}
	add := func(fork, iter int, v float64, count int64) {
		s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
		s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
		s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], int32(fork))
		s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], int32(iter))
		s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], 1)
		s.Warmup = append(s.Warmup, false)
		s.Value = append(s.Value, v)
		s.NsPerOp = append(s.NsPerOp, v)
		s.Count = append(s.Count, count)
	}
	for f := 1; f <= g.forks; f++ {
		ff := lognormal(r, g.forkSD)
		n := g.iters
		if g.forkIters != nil {
			n = g.forkIters[f-1]
		}
		for k := 0; k < n; k++ {
			c := 1.0
			if g.curve != nil {
				c = g.curve(k)
			}
			level := g.mean * ff * c * lognormal(r, g.noise)
			if g.invocations == 0 {
				add(f, k+1, level, 1)
				continue
			}
			hist := map[float64]int64{}
			for i := 0; i < g.invocations; i++ {
				hist[quantise(level*lognormal(r, g.invNoise))]++
			}
			vals := make([]float64, 0, len(hist))
			for v := range hist {
				vals = append(vals, v)
			}
			sort.Float64s(vals)
			for _, v := range vals {
				add(f, k+1, v, hist[v])
			}
		}
	}
	return s
}

// quantise truncates v to whole nanoseconds and keeps its 10 most
// significant bits, (t >> b) << b.
func quantise(v float64) float64 {
	t := max(int64(v), 1)
	if b := bits.Len64(uint64(t)) - 10; b > 0 {
		t = t >> b << b
	}
	return float64(t)
}

// seriesOf builds an avgt series from explicit iteration values per fork.
func seriesOf(key table.Key, forks ...[]float64) *table.Series {
	s := &table.Series{Key: key, Metric: table.Primary, Unit: "ns/op"}
	for f, vals := range forks {
		for k, v := range vals {
			s.Levels[table.LevelInstance] = append(s.Levels[table.LevelInstance], 1)
			s.Levels[table.LevelTrial] = append(s.Levels[table.LevelTrial], 1)
			s.Levels[table.LevelFork] = append(s.Levels[table.LevelFork], int32(f+1))
			s.Levels[table.LevelIteration] = append(s.Levels[table.LevelIteration], int32(k+1))
			s.Levels[table.LevelSlice] = append(s.Levels[table.LevelSlice], 1)
			s.Warmup = append(s.Warmup, false)
			s.Value = append(s.Value, v)
			s.NsPerOp = append(s.NsPerOp, v)
			s.Count = append(s.Count, 1)
		}
	}
	return s
}

func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g, want %.6g (± %g)", name, got, want, tol)
	}
}

// warmups returns the warmup iterations per fork run.
func warmups(cr *CriterionResult) []int {
	out := make([]int, len(cr.Forks))
	for i, f := range cr.Forks {
		out[i] = f.WarmupIterations
	}
	return out
}
