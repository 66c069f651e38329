package duet

import "math"

// RunTime is the wall-clock machine time of one run (SPEC §10).
type RunTime struct {
	Instance, Run int32
	// TimeNs is the run time in ns: for seqn span_A + span_B with span =
	// max(end) − min(start) of a pair; for duet and syncduet max(end) −
	// min(start) over both pairs (the thesis's min(start) − max(end) is a
	// sign slip, D5).
	TimeNs int64
	// Seconds is TimeNs truncated to whole seconds, as the reference's
	// pandas Timedelta.seconds.
	Seconds int64
	// Iterations is the number of A and B iteration records.
	Iterations int
}

// perIteration is Seconds / Iterations, the code's normalised run time.
func (r RunTime) perIteration() float64 { return float64(r.Seconds) / float64(r.Iterations) }

// runTimes returns the run time of every run of one key's raw records (no
// warm-up filter: the runtime is the machine time of the whole run).
// recs must be sorted as in group.
func runTimes(recs []Record, typ string) []RunTime {
	var out []RunTime
	for _, r := range runs(recs) {
		rt := RunTime{Instance: r.Instance, Run: r.Run, Iterations: len(r.A) + len(r.B)}
		if typ == typeSeqn {
			rt.TimeNs = span(r.A) + span(r.B)
		} else {
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			for _, p := range [][]Record{r.A, r.B} {
				for _, x := range p {
					lo, hi = min(lo, x.StartNs), max(hi, x.EndNs)
				}
			}
			rt.TimeNs = hi - lo
		}
		rt.Seconds = rt.TimeNs / 1e9
		if rt.TimeNs < 0 && rt.TimeNs%1e9 != 0 {
			rt.Seconds--
		}
		out = append(out, rt)
	}
	return out
}

func span(p []Record) int64 {
	if len(p) == 0 {
		return 0
	}
	lo, hi := p[0].StartNs, p[0].EndNs
	for _, x := range p[1:] {
		lo, hi = min(lo, x.StartNs), max(hi, x.EndNs)
	}
	return hi - lo
}

// speedup returns the runtime speedup of duet against seqn from the run
// times of one benchmark and environment (SPEC §10, D6):
//
//	speedupCode:   mean_r(Seconds/Iterations | seqn) / mean_r(Seconds/Iterations | duet) − 1
//	speedupThesis: mean_r(TimeNs | seqn) / mean_r(TimeNs | duet)          (eq. 5.1)
//
// NaN when either side has no run.
func speedup(seqn, duet []RunTime, def SpeedupDefinition) float64 {
	if len(seqn) == 0 || len(duet) == 0 {
		return math.NaN()
	}
	if def == speedupThesis {
		return meanBy(seqn, func(r RunTime) float64 { return float64(r.TimeNs) }) /
			meanBy(duet, func(r RunTime) float64 { return float64(r.TimeNs) })
	}
	return meanBy(seqn, RunTime.perIteration)/meanBy(duet, RunTime.perIteration) - 1
}

func meanBy[T any](x []T, f func(T) float64) float64 {
	var s float64
	for _, v := range x {
		s += f(v)
	}
	return s / float64(len(x))
}
