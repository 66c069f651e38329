package optimize

import (
	"github.com/benchtrim/benchtrim/reports"
)

// MetricTotal totals one metric's µOpTime choices over every project and
// version of a run: the suite-wide answer to "how much time can be cut".
type MetricTotal struct {
	Metric Metric
	// Benchmarks counts benchmark runs; NotReduced those whose full
	// configuration is the cheapest stable one (or that have too few
	// repetitions to reduce).
	Benchmarks, NotReduced int
	// FullTimeNs and TimeNs are the execution times of the full and of
	// the chosen configurations, summed.
	FullTimeNs, TimeNs int64
	// Saved is 1 − TimeNs / FullTimeNs.
	Saved float64
	// Within[i] is the fraction of benchmark runs whose change rate is
	// ≤ ChangeLimits[i].
	Within [len(ChangeLimits)]float64
}

// totals adds the per-project summaries of each metric (summarize) into one
// MetricTotal per metric, in the order the metrics first appear. The
// fractions within each change limit are weighted by benchmark count.
func totals(sums []Summary) []MetricTotal {
	var out []MetricTotal
	index := map[Metric]int{}
	for _, s := range sums {
		i, ok := index[s.Metric]
		if !ok {
			i = len(out)
			index[s.Metric] = i
			out = append(out, MetricTotal{Metric: s.Metric})
		}
		t := &out[i]
		u := s.Methods[MethodUOpTime]
		t.Benchmarks += s.Benchmarks
		t.NotReduced += s.NotReduced + s.TooFewRepetitions
		t.FullTimeNs += s.FullTimeNs
		t.TimeNs += u.TimeNs
		for j := range t.Within {
			t.Within[j] += u.Within[j] * float64(s.Benchmarks)
		}
	}
	for i := range out {
		t := &out[i]
		for j := range t.Within {
			t.Within[j] /= float64(t.Benchmarks)
		}
		t.Saved = 1 - float64(t.TimeNs)/float64(t.FullTimeNs)
	}
	return out
}

// GoodShare is the share of benchmark runs within 5 % that Best asks of a
// metric before it ranks it by time saved.
const GoodShare = 0.9

// best picks the metric to recommend from totals: the one that saves the
// most time among those keeping at least GoodShare of the benchmark runs
// within 5 % (ChangeLimits[2]); when none does, the one keeping the most
// within 5 % (ties: more time saved). It returns −1 for no totals.
func best(totals []MetricTotal) int {
	best := -1
	for i, t := range totals {
		if t.Within[2] < GoodShare {
			continue
		}
		if best < 0 || t.Saved > totals[best].Saved {
			best = i
		}
	}
	if best >= 0 {
		return best
	}
	for i, t := range totals {
		if best < 0 || t.Within[2] > totals[best].Within[2] ||
			t.Within[2] == totals[best].Within[2] && t.Saved > totals[best].Saved {
			best = i
		}
	}
	return best
}

// totalsTable is the short per-metric table of the terminal summary.
func totalsTable(totals []MetricTotal) *reports.Table {
	t := &reports.Table{Columns: []string{"metric", "saved", "full time", "µOpTime time", "c ≤ 1 %", "c ≤ 3 %", "c ≤ 5 %", "not reduced"}}
	for _, m := range totals {
		t.AddRow(m.Metric.String(), reports.Percent(m.Saved), reports.Seconds(float64(m.FullTimeNs)/1e9),
			reports.Seconds(float64(m.TimeNs)/1e9), reports.Percent(m.Within[0]), reports.Percent(m.Within[1]),
			reports.Percent(m.Within[2]), m.NotReduced)
	}
	return t
}
