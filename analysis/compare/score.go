package compare

import (
	"math"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// scoreUnit is the unit a row's times are shown in: for a JMH benchmark
// the score unit its file recorded (JMH's scoreUnit), so JMH users read
// their scores; for anything else none, and the text shows time per
// operation (formatNs). The comparison itself runs on the canonical
// table's ns_per_op, and the data table keeps it (with the mode beside
// it): for a time unit (avgt, sample, ss; "us/op") the score is
// ns_per_op / ns(unit), for a throughput unit (thrpt; "ops/ms") it is
// threads·ns(unit) / ns_per_op, the inverse of format/jmh's normalisation
// (ingest.NsPerOp), JMH's score per thread count summed.
type scoreUnit struct {
	// unit is the recorded unit, "" for time per operation.
	unit string
	// k is ns(unit) for a time unit, threads·ns(unit) for a throughput.
	k float64
	// thrpt says the unit is operations per time: higher is faster.
	thrpt bool
}

// jmhModes are the modes of JMH benchmarks.
var jmhModes = map[string]bool{"avgt": true, "thrpt": true, "sample": true, "ss": true}

// scoreOf is the score unit of the runs of a row: their recorded unit
// when every run is of a JMH mode and all share the unit and the thread
// count, else none (time per operation, which every run has).
func scoreOf(sides ...[]*table.Series) scoreUnit {
	var su scoreUnit
	first, threads := true, 0
	for _, ss := range sides {
		for _, s := range ss {
			th := 1
			if s.Setup != nil && s.Setup.Threads > 0 {
				th = s.Setup.Threads
			}
			if !jmhModes[s.Mode] || s.Metric != "" && s.Metric != table.Primary || !first && (s.Unit != su.unit || th != threads) {
				return scoreUnit{}
			}
			su.unit, threads, first = s.Unit, th, false
		}
	}
	kind, ns := ingest.ClassifyUnit(su.unit)
	switch kind {
	case ingest.UnitTimePerOp:
		su.k = ns
	case ingest.UnitOpsPerTime:
		su.k, su.thrpt = float64(threads)*ns, true
	default:
		return scoreUnit{}
	}
	return su
}

// score is a time per operation in ns as a score of the unit.
func (su scoreUnit) score(ns float64) float64 {
	if su.thrpt {
		return su.k / ns
	}
	return ns / su.k
}

// interval is an interval of times per operation as one of scores: for a
// throughput its bounds swap (k/upper, k/lower) and an open bound stays
// open on the other side.
func (su scoreUnit) interval(iv estimate.Interval) estimate.Interval {
	if !su.thrpt {
		return estimate.Interval{Estimate: su.score(iv.Estimate), Lower: su.score(iv.Lower), Upper: su.score(iv.Upper)}
	}
	open := func(v, inf float64) float64 {
		if math.IsInf(v, 0) {
			return inf
		}
		return su.k / v
	}
	return estimate.Interval{Estimate: su.score(iv.Estimate), Lower: open(iv.Upper, math.Inf(-1)), Upper: open(iv.Lower, math.Inf(1))}
}

// timesOf is the interval of times per operation of an interval of
// scores (interval's inverse).
func (su scoreUnit) timesOf(iv estimate.Interval) estimate.Interval {
	if !su.thrpt {
		return estimate.Interval{Estimate: iv.Estimate * su.k, Lower: iv.Lower * su.k, Upper: iv.Upper * su.k}
	}
	return su.interval(iv) // k/x is its own inverse
}

// ratio is a ratio of times test/base as the ratio of scores the text
// shows: for a throughput 1/ratio with its bounds swapped, so Δ % is the
// score's change 1/(1 + Δ) − 1 (higher is faster).
func (su scoreUnit) ratio(r estimate.Interval) estimate.Interval {
	if !su.thrpt {
		return r
	}
	return estimate.Interval{Estimate: 1 / r.Estimate, Lower: 1 / r.Upper, Upper: 1 / r.Lower}
}

// scoreMedians sets c's medians and their intervals for a throughput row
// from the medians of the iteration scores (k / iteration time) and
// their intervals, as times (k / median score): the median of the scores
// as JMH users read them, whose interval's order statistics are the
// scores' (benchstat's on the scores), and for an even count the mean of
// the two middle scores, not of the two middle times. Then the verdict is
// decided again on them.
func (su scoreUnit) scoreMedians(c *Row, base, test []float64, opt *Options) {
	for _, side := range []struct {
		s *SideStats
		x []float64
	}{{&c.Base, base}, {&c.Test, test}} {
		scores := make([]float64, len(side.x))
		for i, v := range side.x {
			scores[i] = su.k / v
		}
		_, ci := medianSide(scores)
		side.s.MedianCI = su.timesOf(ci)
		side.s.Median = side.s.MedianCI.Estimate
	}
	c.decide(opt, base, test)
}
