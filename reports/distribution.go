package reports

import (
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/table"
)

// distributionColumns are the columns of a distributions frame (the HTML
// report's violins): per benchmark run and configuration (such as
// "recorded" or "recommended") the number of iterations, their mean, and
// per kept point its probability p and the iteration value at that
// quantile:
//
//	project, version, benchmark, params, mode   the benchmark run
//	configuration        which iterations: "recorded" (every measured one), …
//	iterations           the number of iteration values
//	mean_ns              their mean
//	quantile             p in [0, 1] (type-7 quantiles, evenly spaced)
//	value_ns             the p-quantile of the iteration values
//	unit                 the unit the file recorded scores in (JMH's scoreUnit:
//	                     ops/ms, us/op; ns/op for go test), empty when unknown
//	score_scale          k of the conversion of a time per operation in ns to
//	                     that unit: score = ns / k for a time unit (k = ns of
//	                     the time unit), k / ns for a throughput (k = threads ·
//	                     ns of the time unit, format/jmh's normalisation inverted)
//	score, score_error   the mean of the recorded scores in unit and the half-width
//	                     of its 99.9 % t interval, as JMH computes Score and
//	                     Score Error (NaN with fewer than 3 values)
var distributionColumns = []string{"project", "version", "benchmark", "params", "mode", "configuration",
	"iterations", "mean_ns", "quantile", "value_ns", "unit", "score_scale", "score", "score_error"}

// distributionPoints bounds the quantiles kept per distribution: runs with
// fewer iterations keep every value, sorted.
const distributionPoints = 41

// Distribution is the iteration values of one benchmark run under one
// configuration.
type Distribution struct {
	Key           table.Key
	Configuration string
	Values        []float64
	// Iterations > 0 marks a summary (Summarize): Values are then the
	// quantile points DistributionFrame keeps of that many finite values,
	// whose mean is Mean.
	Iterations int64
	Mean       float64
	// Unit, Scale, Score and ScoreError are the run's scores as its file
	// recorded them (the columns unit, score_scale, score and
	// score_error): the caller computes them from the recorded values
	// (Summarize keeps them); Unit "" when unknown.
	Unit                     string
	Scale, Score, ScoreError float64
}

// Summarize returns d with its values replaced by the quantile points
// DistributionFrame keeps (at most distributionPoints) and their number
// and mean recorded, so a report can hold the distribution in a few
// values; DistributionFrame gives the same rows for d and Summarize(d).
func Summarize(d Distribution) Distribution {
	if d.Iterations > 0 {
		return d
	}
	x, sum := finiteSorted(d.Values)
	out := Distribution{Key: d.Key, Configuration: d.Configuration, Unit: d.Unit, Scale: d.Scale, Score: d.Score, ScoreError: d.ScoreError}
	if len(x) == 0 {
		return out
	}
	_, out.Values = quantilePoints(x)
	out.Iterations, out.Mean = int64(len(x)), sum/float64(len(x))
	return out
}

// finiteSorted returns the finite values of v, sorted, and their sum.
func finiteSorted(v []float64) ([]float64, float64) {
	x := make([]float64, 0, len(v))
	sum := 0.0
	for _, y := range v {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			x = append(x, y)
			sum += y
		}
	}
	slices.Sort(x)
	return x, sum
}

// DistributionFrame is the distributions frame of ds (distributionColumns):
// the finite values of each (or its Summarize summary), summarised by at most distributionPoints
// evenly spaced quantiles; a distribution without finite values has no rows.
func DistributionFrame(ds []Distribution) *Frame {
	var k KeyColumns
	var conf, unit []string
	var n []int64
	var mean, p, v, scale, score, scoreErr []float64
	for _, d := range ds {
		d = Summarize(d)
		if d.Iterations == 0 {
			continue
		}
		ps, qs := quantilePoints(d.Values)
		for i := range ps {
			k.Add(d.Key)
			conf = append(conf, d.Configuration)
			n = append(n, d.Iterations)
			mean = append(mean, d.Mean)
			p, v = append(p, ps[i]), append(v, qs[i])
			sc, se, sk := d.Score, d.ScoreError, d.Scale
			if d.Unit == "" {
				sc, se, sk = math.NaN(), math.NaN(), math.NaN()
			}
			unit, scale, score, scoreErr = append(unit, d.Unit), append(scale, sk), append(score, sc), append(scoreErr, se)
		}
	}
	f := &Frame{}
	k.AddTo(f)
	f.String("configuration", conf)
	f.Int("iterations", n)
	f.Float("mean_ns", mean)
	f.Float("quantile", p)
	f.Float("value_ns", v)
	f.String("unit", unit)
	f.Float("score_scale", scale)
	f.Float("score", score)
	f.Float("score_error", scoreErr)
	return f
}

// quantilePoints returns distributionPoints evenly spaced probabilities
// and the type-7 quantiles of the sorted x at them, or every value of x
// with p = i/(len(x)−1) when x is shorter (p = 0.5 for one value).
func quantilePoints(x []float64) (ps, qs []float64) {
	if len(x) == 1 {
		return []float64{0.5}, []float64{x[0]}
	}
	m := min(len(x), distributionPoints)
	for i := 0; i < m; i++ {
		pi := float64(i) / float64(m-1)
		ps = append(ps, pi)
		if m == len(x) {
			qs = append(qs, x[i])
			continue
		}
		h := pi * float64(len(x)-1)
		j := int(h)
		if j+1 >= len(x) {
			qs = append(qs, x[len(x)-1])
			continue
		}
		qs = append(qs, x[j]+(h-float64(j))*(x[j+1]-x[j]))
	}
	return ps, qs
}
