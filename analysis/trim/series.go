package trim

import (
	"math"

	"github.com/benchtrim/benchtrim/analysis/internal/verdict"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// What the report draws per benchmark run beside the plan: its
// observations in recorded order with their phase (the series frame), and
// its scores in the unit its file recorded them in (the distributions
// frame's unit, score_scale, score and score_error columns).

// keptMask reports per observation of d whether the configuration k
// (design counts) keeps it: the first k[j] units at every level j, in
// recorded order, as replay and kept take them.
func (d *design) keptMask(k []float64) []bool {
	first := d.children()
	out := make([]bool, len(d.obs))
	for i := range d.obs {
		in := float64(d.ids[0][i]) < k[0]
		for j := 1; in && j < len(d.levels); j++ {
			in = float64(d.ids[j][i]-first[j-1][d.ids[j-1][i]]) < k[j]
		}
		out[i] = in
	}
	return out
}

// runSeries is s's observations (cells: slices, or iterations with their
// histogram rows merged, as newDesign takes them) in recorded order, at
// most reports.SeriesPoints per fork: those of the first w iterations of
// each fork as warmup, the others kept where kept says so (kept[i] for
// the i-th observation after the warmup; nil: all kept) and cut
// otherwise.
func runSeries(s *table.Series, w int, kept []bool) reports.RunSeries {
	var pts []reports.SeriesPoint
	i := 0
	for _, c := range s.Units(table.LevelSlice) {
		p := reports.SeriesPoint{Instance: s.Levels[table.LevelInstance][c.Start], Trial: s.Levels[table.LevelTrial][c.Start],
			Fork: s.Levels[table.LevelFork][c.Start], Iteration: s.Levels[table.LevelIteration][c.Start],
			Slice: s.Levels[table.LevelSlice][c.Start], ValueNs: s.WeightedMean(c), Phase: reports.PhaseKept}
		if int(p.Iteration) <= w {
			p.Phase = reports.PhaseWarmup
		} else {
			if kept != nil && i < len(kept) && !kept[i] {
				p.Phase = reports.PhaseCut
			}
			i++
		}
		pts = append(pts, p)
	}
	return reports.RunSeries{Key: s.Key, Points: reports.ThinSeries(pts)}
}

// scoreScale is the unit s's file recorded its scores in and k of the
// conversion from a time per operation in ns (reports.Distribution.Scale:
// score = ns / k for a time unit, k / ns for a throughput, with k =
// threads · ns of the time unit, format/jmh's normalisation inverted);
// "" when the unit is neither (or the rows mix units).
func scoreScale(s *table.Series) (string, float64) {
	if s.MixedUnits() {
		return "", math.NaN()
	}
	switch kind, ns := ingest.ClassifyUnit(s.Unit); kind {
	case ingest.UnitTimePerOp:
		return s.Unit, ns
	case ingest.UnitOpsPerTime:
		threads := 1
		if s.Setup != nil && s.Setup.Threads > 1 {
			threads = s.Setup.Threads
		}
		return s.Unit, float64(threads) * ns
	}
	return "", math.NaN()
}

// jmhScore is JMH's Score and Score Error of the recorded values (in the
// file's unit) of the cells of s after the first w iterations of every
// fork that keep selects (nil: all): the mean of the values and
// t(0.9995, n − 1) · sd / √n, the half-width of its 99.9 % interval
// (JMH's AbstractStatistics.getMeanErrorAt(0.999), NaN for n ≤ 2). In
// sample mode every sample counts (a histogram row its count times), as
// JMH pools them; elsewhere a row is one value.
func jmhScore(s *table.Series, w int, keep []bool) (score, scoreErr float64) {
	var n, sum float64
	type wv struct{ w, v float64 }
	var vals []wv
	i := 0
	for _, c := range s.Units(table.LevelSlice) {
		if int(s.Levels[table.LevelIteration][c.Start]) <= w {
			continue
		}
		in := keep == nil || i < len(keep) && keep[i]
		i++
		if !in {
			continue
		}
		for r := c.Start; r < c.End; r++ {
			wt := 1.0
			if s.Mode == "sample" && s.Count[r] > 0 {
				wt = float64(s.Count[r])
			}
			n += wt
			sum += wt * s.Value[r]
			vals = append(vals, wv{wt, s.Value[r]})
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean := sum / n
	if n <= 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range vals {
		ss += x.w * (x.v - mean) * (x.v - mean)
	}
	return mean, verdict.TQuantile(1-(1-0.999)/2, int(n)-1) * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// scored is dist with s's unit, scale and JMH score (jmhScore) of the
// observations keep selects after the warmup w.
func scored(dist reports.Distribution, s *table.Series, w int, keep []bool) reports.Distribution {
	dist.Unit, dist.Scale = scoreScale(s)
	if dist.Unit != "" {
		dist.Score, dist.ScoreError = jmhScore(s, w, keep)
	}
	return dist
}
