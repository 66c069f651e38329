package optimize

import (
	"github.com/benchtrim/benchtrim/reports"
)

// metricTotal totals one metric's µOpTime choices over every project and
// version of a run: the suite-wide answer to "how much time can be cut".
type metricTotal struct {
	metric Metric
	// benchmarks counts benchmark runs; notReduced those whose full
	// configuration is the cheapest stable one (or that have too few
	// repetitions to reduce).
	benchmarks, notReduced int
	// fullTimeNs and timeNs are the execution times of the full and of
	// the chosen configurations, summed.
	fullTimeNs, timeNs int64
	// saved is 1 − TimeNs / FullTimeNs.
	saved float64
	// within[i] is the fraction of benchmark runs whose change rate is
	// ≤ changeLimits[i].
	within [len(changeLimits)]float64
}

// totals adds the per-project summaries of each metric (summarize) into one
// metricTotal per metric, in the order the metrics first appear. The
// fractions within each change limit are weighted by benchmark count.
func totals(sums []summary) []metricTotal {
	var out []metricTotal
	index := map[Metric]int{}
	for _, s := range sums {
		i, ok := index[s.metric]
		if !ok {
			i = len(out)
			index[s.metric] = i
			out = append(out, metricTotal{metric: s.metric})
		}
		t := &out[i]
		u := s.methods[MethodUOpTime]
		t.benchmarks += s.benchmarks
		t.notReduced += s.notReduced + s.tooFewRepetitions
		t.fullTimeNs += s.fullTimeNs
		t.timeNs += u.timeNs
		for j := range t.within {
			t.within[j] += u.within[j] * float64(s.benchmarks)
		}
	}
	for i := range out {
		t := &out[i]
		for j := range t.within {
			t.within[j] /= float64(t.benchmarks)
		}
		t.saved = 1 - float64(t.timeNs)/float64(t.fullTimeNs)
	}
	return out
}

// goodShare is the share of benchmark runs within 5 % that Best asks of a
// metric before it ranks it by time saved.
const goodShare = 0.9

// best picks the metric to recommend from totals: the one that saves the
// most time among those keeping at least goodShare of the benchmark runs
// within 5 % (changeLimits[2]); when none does, the one keeping the most
// within 5 % (ties: more time saved). It returns −1 for no totals.
func best(totals []metricTotal) int {
	best := -1
	for i, t := range totals {
		if t.within[2] < goodShare {
			continue
		}
		if best < 0 || t.saved > totals[best].saved {
			best = i
		}
	}
	if best >= 0 {
		return best
	}
	for i, t := range totals {
		if best < 0 || t.within[2] > totals[best].within[2] ||
			t.within[2] == totals[best].within[2] && t.saved > totals[best].saved {
			best = i
		}
	}
	return best
}

// totalsTable is the short per-metric table of the terminal summary.
func totalsTable(totals []metricTotal) *reports.Table {
	t := &reports.Table{Columns: []string{"metric", "saved", "full time", "µOpTime time", "c ≤ 1 %", "c ≤ 3 %", "c ≤ 5 %", "not reduced"}}
	for _, m := range totals {
		t.AddRow(m.metric.String(), reports.Percent(m.saved), reports.Seconds(float64(m.fullTimeNs)/1e9),
			reports.Seconds(float64(m.timeNs)/1e9), reports.Percent(m.within[0]), reports.Percent(m.within[1]),
			reports.Percent(m.within[2]), m.notReduced)
	}
	return t
}
