package trim

import (
	"sort"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/table"
)

// MaxPlotForks bounds the forks Report.Forks keeps (one per benchmark).
const MaxPlotForks = 24

// plotForks keeps, worst cases first, one fork per PathSteady benchmark:
// benchmarks without a steady state first, then by the recommended warmup
// as a share of the fork's length (largest first); the fork shown is the
// one with the latest steady-state start (or the first non-steady fork).
func plotForks(rep *Report, series []*table.Series, steadyOf map[table.Key]*steady.BenchmarkResult) []ForkSeries {
	cands := worstForks(rep, steadyOf)
	out := make([]ForkSeries, 0, len(cands))
	for _, c := range cands {
		b := &rep.Benchmarks[c.i]
		f := &steadyOf[b.Key].Forks[c.fork]
		vals := forkValues(series[c.i], f.ID)
		step := 1
		for len(vals)/step > MaxPlotPoints {
			step++
		}
		kept := make([]float64, 0, len(vals)/step+1)
		for k := 0; k < len(vals); k += step {
			kept = append(kept, vals[k])
		}
		out = append(out, ForkSeries{Key: b.Key, Fork: f.ID, Values: kept, Step: step, Class: f.Class.String(),
			SteadyStart: f.SteadyStart, Warmup: b.Recommended.WarmupIterations, Segments: f.Segments, Knee: f.Knee})
	}
	return out
}

// forkValues returns the iteration values (count-weighted mean ns/op) of
// fork id of s, in iteration order.
func forkValues(s *table.Series, id steady.ForkID) []float64 {
	var out []float64
	for _, sp := range s.Units(table.LevelIteration) {
		r := sp.Start
		if s.Levels[table.LevelInstance][r] != id.Instance || s.Levels[table.LevelTrial][r] != id.Trial || s.Levels[table.LevelFork][r] != id.Fork {
			continue
		}
		out = append(out, s.WeightedMean(sp))
	}
	return out
}

// forkCandidate is a benchmark's worst fork: Benchmarks index i, index
// fork in its steady result's Forks, and its score.
type forkCandidate struct {
	i, fork int
	score   float64
}

// worstForks picks per PathSteady benchmark its worst fork — the largest
// score, st/n for a steady fork of n points, 2 for a fork without a
// steady state, 0 otherwise, plus 10 when the benchmark has no steady
// state — and keeps the MaxPlotForks highest scores, ties in key order.
func worstForks(rep *Report, steadyOf map[table.Key]*steady.BenchmarkResult) []forkCandidate {
	var cands []forkCandidate
	for i := range rep.Benchmarks {
		b := &rep.Benchmarks[i]
		br := steadyOf[b.Key]
		if b.Path != PathSteady || br == nil || len(br.Forks) == 0 {
			continue
		}
		worst, score := 0, -1.0
		for j, f := range br.Forks {
			s := 0.0
			switch f.Class {
			case steady.ForkSteady:
				s = float64(f.SteadyStart) / float64(max(f.Points, 1))
			case steady.ForkNoSteady:
				s = 2
			}
			if s > score {
				worst, score = j, s
			}
		}
		if b.Status == StatusNoSteady {
			score += 10
		}
		cands = append(cands, forkCandidate{i, worst, score})
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	if len(cands) > MaxPlotForks {
		cands = cands[:MaxPlotForks]
	}
	return cands
}
