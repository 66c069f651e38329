package reports

import (
	"github.com/benchtrim/benchtrim/table"
)

// seriesColumns are the columns of a series frame (the HTML report's
// iteration charts): per benchmark run its observations in recorded order,
// one row each:
//
//	project, version, benchmark, params, mode   the benchmark run
//	instance, trial, fork   the observation's units (1-based, as recorded)
//	iteration            its iteration in the fork, 1-based as the file numbers
//	                     its measurement iterations (JMH, go test -count lines)
//	slice                its slice (µOpTime), 1 without slices
//	value_ns             its value (ns/op; a sample-mode iteration's mean)
//	phase                warmup (measured but discarded as warmup), kept (the
//	                     recommended configuration runs it), cut (recorded,
//	                     left out by the recommendation)
//
// A fork longer than SeriesPoints observations keeps every k-th (the
// first and the last always), so a suite's frame stays small.
var seriesColumns = []string{"project", "version", "benchmark", "params", "mode", "instance", "trial", "fork",
	"iteration", "slice", "value_ns", "phase"}

// SeriesPoints bounds the observations a series frame keeps per fork.
const SeriesPoints = 400

// Phases of an observation (SeriesPoint.Phase).
const (
	PhaseKept   = "kept"
	PhaseWarmup = "warmup"
	PhaseCut    = "cut"
)

// SeriesPoint is one observation of a benchmark run: its units, value and
// phase (PhaseKept, PhaseWarmup or PhaseCut).
type SeriesPoint struct {
	Instance, Trial, Fork, Iteration, Slice int32
	ValueNs                                 float64
	Phase                                   string
}

// RunSeries is one benchmark run's observations in recorded order, at
// most SeriesPoints per fork (ThinSeries).
type RunSeries struct {
	Key    table.Key
	Points []SeriesPoint
}

// ThinSeries keeps at most SeriesPoints of each fork's points (those with
// equal instance, trial and fork, consecutive): every k-th, k = ⌈n /
// SeriesPoints⌉, and the fork's last.
func ThinSeries(pts []SeriesPoint) []SeriesPoint {
	var out []SeriesPoint
	for a := 0; a < len(pts); {
		b := a + 1
		for b < len(pts) && pts[b].Instance == pts[a].Instance && pts[b].Trial == pts[a].Trial && pts[b].Fork == pts[a].Fork {
			b++
		}
		n := b - a
		k := (n + SeriesPoints - 1) / SeriesPoints
		for i := a; i < b; i += k {
			out = append(out, pts[i])
		}
		if (n-1)%k != 0 {
			out = append(out, pts[b-1])
		}
		a = b
	}
	return out
}

// SeriesFrame is the series frame of ss (seriesColumns), each run's
// points as given.
func SeriesFrame(ss []RunSeries) *Frame {
	var k KeyColumns
	var inst, trial, fork, it, slice []int64
	var v []float64
	var phase []string
	for _, s := range ss {
		for _, p := range s.Points {
			k.Add(s.Key)
			inst, trial, fork = append(inst, int64(p.Instance)), append(trial, int64(p.Trial)), append(fork, int64(p.Fork))
			it, slice = append(it, int64(p.Iteration)), append(slice, int64(p.Slice))
			v, phase = append(v, p.ValueNs), append(phase, p.Phase)
		}
	}
	f := &Frame{}
	k.AddTo(f)
	f.Int("instance", inst)
	f.Int("trial", trial)
	f.Int("fork", fork)
	f.Int("iteration", it)
	f.Int("slice", slice)
	f.Float("value_ns", v)
	f.String("phase", phase)
	return f
}
