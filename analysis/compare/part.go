package compare

import (
	"fmt"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/table"
)

// part is Run's work on one part of an input split by benchmark name
// (every run of a benchmark name, on both sides, in one part: the chunks
// of a spooled input, tablefile.NameGroupOf), for MergeAnalyses.
type part struct {
	// Metrics are the metrics the part's tables hold (Metrics with no
	// wanted list).
	Metrics []string
	// Reports holds compareSets' report for every metric of opt.Metrics
	// (all of Metrics when empty) of which the part keeps a run, secondary
	// metrics with no pair included: whether RunSides keeps them depends on
	// every part.
	Reports map[string]*Report
	// BaseKeys and TestKeys are the primary metric's runs the sides'
	// selectors match (the set RunSides' filter check reads); BaseAll and
	// TestAll every primary run of each side's table (checkSides' label
	// hint).
	BaseKeys, TestKeys, BaseAll, TestAll []table.Key
	// Described holds, for describePart, describeSet's report per metric.
	Described map[string]*setReport
	// sameTable says both sides read one table (label selection), where
	// equal selectors are an error.
	sameTable bool
}

// wanted returns the metrics of want (all when empty) that the part
// holds, in want's order.
func (p *part) wanted(want []string) []string {
	if len(want) == 0 {
		return p.Metrics
	}
	var out []string
	for _, m := range want {
		if slices.Contains(p.Metrics, m) {
			out = append(out, m)
		}
	}
	return out
}

// runPart runs the comparison of RunSides on base and test, the sides of one
// part of a split input, for mergeParts: no check that the filter keeps
// a benchmark or that a selector matches a run (mergeParts makes them on
// the whole), and no metric skipped. Every result is a function of its
// benchmark's runs and of the stream (Seed, benchmark name), so the parts'
// results are the unsplit run's.
func runPart(base, test Side, opt Options) (*part, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	p := &part{Reports: map[string]*Report{}}
	var err error
	if p.Metrics, err = wantedMetrics(nil, base.Table, test.Table); err != nil {
		return nil, err
	}
	for _, s := range base.set(table.Primary, nil).Series {
		p.BaseKeys = append(p.BaseKeys, s.Key)
	}
	for _, s := range test.set(table.Primary, nil).Series {
		p.TestKeys = append(p.TestKeys, s.Key)
	}
	for _, s := range base.Table.Collect(table.Filter{}) {
		p.BaseAll = append(p.BaseAll, s.Key)
	}
	for _, s := range test.Table.Collect(table.Filter{}) {
		p.TestAll = append(p.TestAll, s.Key)
	}
	for _, m := range p.wanted(opt.Metrics) {
		bs, ts := sidesOf(base, test, m, opt.Filter)
		r, err := compareSets(bs, ts, opt)
		if err != nil {
			return nil, err
		}
		if len(r.Results) == 0 && len(r.Unmatched) == 0 {
			continue // nothing of m kept here (its Metric would read primary)
		}
		p.Reports[m] = r
	}
	return p, nil
}

// mergeParts returns what RunSides gives on the union of the parts of one
// split input (runPart on each, the same sides' labels and selectors, and
// opt): RunSides' errors on the whole (a filter that keeps no benchmark, a
// wanted metric no part holds, a side selector matching no run), and per
// metric of RunSides' list the parts' reports merged (Merge), without the
// secondary metrics that no part pairs. sameTable says both sides read
// one table (label selection), where equal selectors are an error.
func mergeParts(parts []*part, base, test Selector, sameTable bool, opt Options) (Reports, error) {
	if sameTable && base == test {
		return nil, fmt.Errorf("base and test select the same runs (%s)", base)
	}
	var ba, ta, bk, tk []table.Key
	for _, p := range parts {
		ba, ta, bk, tk = append(ba, p.BaseAll...), append(ta, p.TestAll...), append(bk, p.BaseKeys...), append(tk, p.TestKeys...)
	}
	for _, ks := range [][]table.Key{ba, ta, bk, tk} {
		sort.Slice(ks, func(i, j int) bool { return ks[i].Less(ks[j]) })
	}
	// checkSides on the whole.
	for _, s := range []struct {
		name      string
		sel       Selector
		keys, all []table.Key
	}{{"base", base, bk, ba}, {"test", test, tk, ta}} {
		if s.sel != (Selector{}) && len(s.keys) == 0 {
			return nil, fmt.Errorf("no runs match the %s selection (%s)%s", s.name, s.sel, labelsHint(seriesOf(s.all)))
		}
	}
	// RunSides' filter check on the primary metric.
	if _, err := opt.Filter.keep(append(seriesOf(bk), seriesOf(tk)...)); err != nil {
		return nil, err
	}
	metrics, err := partsMetrics(parts, opt.Metrics)
	if err != nil {
		return nil, err
	}
	var reps Reports
	for _, m := range metrics {
		var rs []*Report
		for _, p := range parts {
			if r := p.Reports[m]; r != nil {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		r, err := Merge(rs)
		if err != nil {
			return nil, err
		}
		if m != table.Primary && len(r.Results) == 0 {
			continue // a secondary metric only one side has
		}
		reps = append(reps, r)
	}
	return reps, nil
}

// partsMetrics is Metrics over the parts' tables: want, or when empty
// every metric some part holds, primary first.
func partsMetrics(parts []*part, want []string) ([]string, error) {
	seen := map[string]bool{}
	var all []string
	for _, p := range parts {
		for _, m := range p.Metrics {
			if !seen[m] {
				seen[m] = true
				all = append(all, m)
			}
		}
	}
	metrics, err := pickMetrics(want, all, seen)
	if err != nil {
		return nil, fmt.Errorf("metrics %w", err)
	}
	return metrics, nil
}

// seriesOf wraps keys as series (Keep and labelsHint read only keys).
func seriesOf(keys []table.Key) []*table.Series {
	out := make([]*table.Series, len(keys))
	for i, k := range keys {
		out[i] = &table.Series{Key: k}
	}
	return out
}

// describePart is describe's work on one part of an input split by
// benchmark name (as runPart), for mergeDescribed: part.Metrics, BaseKeys
// and BaseAll of the side, and in Described describeSet's report for
// every metric of opt.Metrics (all of Metrics when empty) of which the
// part keeps a run. No check that the filter keeps a benchmark or that a
// wanted metric exists: mergeDescribed makes them on the whole.
func describePart(side Side, opt Options) (*part, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	p := &part{Described: map[string]*setReport{}}
	var err error
	if p.Metrics, err = wantedMetrics(nil, side.Table); err != nil {
		return nil, err
	}
	for _, s := range side.Table.Collect(table.Filter{}) {
		p.BaseAll = append(p.BaseAll, s.Key)
	}
	for _, m := range p.wanted(opt.Metrics) {
		s := side.set(m, opt.Filter)
		if len(s.Series) == 0 {
			continue
		}
		if p.Described[m], err = describeSet(s, opt); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// mergeDescribed returns what Describe gives on the union of the parts of
// one split input (describePart on each, with opt): describe's errors on
// the whole (a filter that keeps no benchmark, a wanted metric no part
// holds), and per metric, in describe's order, the parts' benchmarks in
// one report in input order.
func mergeDescribed(parts []*part, opt Options) (setReports, error) {
	var all []table.Key
	for _, p := range parts {
		all = append(all, p.BaseAll...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Less(all[j]) })
	if _, err := opt.Filter.keep(seriesOf(all)); err != nil {
		return nil, err
	}
	metrics, err := partsMetrics(parts, opt.Metrics)
	if err != nil {
		return nil, err
	}
	var reps setReports
	for _, m := range metrics {
		var out *setReport
		for _, p := range parts {
			r := p.Described[m]
			if r == nil {
				continue
			}
			if out == nil {
				c := *r
				c.options.Progress = nil
				c.benchmarks = nil
				out = &c
			}
			out.benchmarks = append(out.benchmarks, r.benchmarks...)
		}
		if out == nil {
			continue
		}
		sort.SliceStable(out.benchmarks, func(i, j int) bool { return out.benchmarks[i].less(&out.benchmarks[j]) })
		reps = append(reps, out)
	}
	return reps, nil
}
