package optimize

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/table"
)

// overflowReason says why the values of s cannot be optimised although
// they are finite: sums of them (the observations' count-weighted means,
// a configuration's mean or variance, a bootstrap resample's) would
// overflow float64 (stats.CheckSums); "" when they cannot.
func overflowReason(s *table.Series) string {
	if err := stats.CheckCountedSums(s.NsPerOp, s.Count); err != nil {
		return "ns/op " + err.Error()
	}
	return ""
}

// nonFinite names the first quantity of r that is not finite although it
// must be when no sum overflowed: an average (mean or median) of finite
// values, or a change rate between two of them. A metric or a CI bound
// may be ±Inf on its own (a studentized interval of values without
// spread); those are results, not overflows. It returns "" when all are.
func (r *Result) nonFinite() string {
	evals := []struct {
		name string
		e    *Evaluation
	}{{"full", &r.Full}, {"chosen", &r.Chosen}, {"minimum", &r.Minimum}, {"random", &r.Random}}
	for i := range r.All {
		evals = append(evals, struct {
			name string
			e    *Evaluation
		}{"evaluated", &r.All[i]})
	}
	for _, ev := range evals {
		if !finite(ev.e.Average) {
			return fmt.Sprintf("the %s configuration's %s average", ev.name, r.Metric)
		}
	}
	for m := Method(0); m < numMethods; m++ {
		if c := r.changeRate(m); !finite(c) && r.Full.Average != 0 {
			return fmt.Sprintf("the %s configuration's change rate", m)
		}
	}
	return ""
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dropNonFinite moves the benchmark runs with a result that is not finite
// (nonFinite) from rep.Results to rep.Skipped, in key order, so that no
// ±Inf or NaN is reported as an outcome. series are the runs optimised.
func (rep *Report) dropNonFinite(series []*table.Series) {
	bad := map[table.Key]string{}
	for i := range rep.Results {
		r := &rep.Results[i]
		if q := r.nonFinite(); q != "" && bad[r.Key] == "" {
			bad[r.Key] = q
		}
	}
	if len(bad) == 0 {
		return
	}
	kept := rep.Results[:0]
	for _, r := range rep.Results {
		q, ok := bad[r.Key]
		if !ok {
			kept = append(kept, r)
			continue
		}
		if q != "" {
			rows := 0
			for _, s := range series {
				if s.Key == r.Key {
					rows = s.Len()
				}
			}
			rep.Skipped = append(rep.Skipped, Skipped{Key: r.Key, Rows: rows,
				Reason: q + " is not finite (the values overflow float64)"})
			bad[r.Key] = ""
		}
	}
	rep.Results = kept
	slices.SortStableFunc(rep.Skipped, func(a, b Skipped) int {
		switch {
		case a.Key.Less(b.Key):
			return -1
		case b.Key.Less(a.Key):
			return 1
		}
		return 0
	})
	rep.Warnings = seriesWarnings(rep.Results, &rep.Options)
}
