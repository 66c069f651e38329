package compare

import (
	"fmt"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/table"
)

// part is the bookkeeping of Run on one part of an input split by
// benchmark name (every run of a benchmark name, on both sides, in one
// part: the chunks of a spooled input, tablefile.NameGroupOf), for
// Merge's checks on the whole input.
type part struct {
	// Metrics are the metrics the part's tables hold (Metrics with no
	// wanted list).
	Metrics []string
	// BaseKeys and TestKeys are the primary metric's runs the sides'
	// selectors match (the set compareSides' filter check reads); BaseAll
	// and TestAll every primary run of each side's table (checkSides'
	// label hint).
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

// comparePart adds to r the comparison of compareSides on base and
// test, the sides of one part of a split input, with the bookkeeping for
// Merge (r.part): no check that the filter keeps a benchmark or that a
// selector matches a run (Merge makes them on the whole), and every
// metric of opt.Metrics (all the part holds when empty) of which the
// part keeps a run, secondary metrics with no pair included: whether
// compareSides keeps them depends on every part.
func (r *Report) comparePart(base, test Side, opt Options) error {
	p := &part{sameTable: base.Table == test.Table}
	var err error
	if p.Metrics, err = wantedMetrics(nil, base.Table, test.Table); err != nil {
		return err
	}
	// Collect's zero Filter is the primary metric (Side.set).
	all := base.Table.Collect(table.Filter{})
	p.BaseAll, p.BaseKeys = keys(all), keys(newSet("", all, base.Select).Series)
	if !p.sameTable {
		all = test.Table.Collect(table.Filter{})
	}
	p.TestAll, p.TestKeys = keys(all), keys(newSet("", all, test.Select).Series)
	for _, m := range p.wanted(opt.Metrics) {
		bs, ts := sidesOf(base, test, m, opt.Filter)
		g, err := compareSets(bs, ts, opt)
		if err != nil {
			return err
		}
		if len(g.Results) > 0 || len(g.Unmatched) > 0 { // else nothing of m kept here
			r.add(g)
		}
	}
	r.part = p
	return nil
}

// mergeRows sets out to the A/B comparison of the parts of one split
// input: per metric the parts' rows sorted by name (as matchBy sorts
// them) and their configuration lines merged, without the secondary
// metrics that no part pairs; a benchmark in two parts is an error. With
// whole, the parts carry Run's bookkeeping (comparePart) and mergeRows
// makes the checks of Run on the whole (a filter that keeps no
// benchmark, a wanted metric no part holds, a side selector matching no
// run) and takes the metrics in Run's order; else in the parts' order.
func (out *Report) mergeRows(parts []*Report, whole bool) error {
	var metrics []string
	if whole {
		ps := make([]*part, len(parts))
		for i, p := range parts {
			ps[i] = p.part
		}
		var err error
		if metrics, err = checkParts(ps, out.Options); err != nil {
			return err
		}
	} else {
		for _, p := range parts {
			for _, x := range slices.Concat(p.Rows, p.Unmatched) {
				if !slices.Contains(metrics, x.Metric) {
					metrics = append(metrics, x.Metric)
				}
			}
		}
	}
	for _, m := range metrics {
		var g *metricRows
		seen := map[Name]bool{}
		for _, p := range parts {
			for i, rows := range [][]Row{p.Rows, p.Unmatched} {
				for _, x := range rows {
					if x.Metric != m {
						continue
					}
					if seen[x.Name] {
						return fmt.Errorf("compare: benchmark %s is in two parts", fullName(x.Name))
					}
					seen[x.Name] = true
					if g == nil {
						g = &metricRows{Options: out.Options, Base: out.Base, Test: out.Test, Metric: m, Unit: x.Unit}
					}
					if i == 0 {
						g.Results = append(g.Results, x)
					} else {
						g.Unmatched = append(g.Unmatched, x)
					}
				}
			}
			for _, h := range p.metrics {
				if h.Metric == m && g != nil {
					g.Config = mergeConfig(g.Config, h.Config)
				}
			}
		}
		if g == nil || m != table.Primary && len(g.Results) == 0 {
			continue // nothing of m, or a secondary metric only one side has
		}
		sort.SliceStable(g.Results, func(i, j int) bool { return g.Results[i].Name.less(g.Results[j].Name) })
		sort.SliceStable(g.Unmatched, func(i, j int) bool { return g.Unmatched[i].Name.less(g.Unmatched[j].Name) })
		out.add(g)
	}
	return nil
}

// checkParts makes Run's checks of an A/B comparison on the whole input
// from the bookkeeping of its parts, with the parts' options opt, and
// returns the metrics to compare in Run's order (partsMetrics).
func checkParts(parts []*part, opt Options) ([]string, error) {
	base, test := opt.Base.Select, opt.Test.Select
	if parts[0].sameTable && base == test {
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
	// compareSides' filter check on the primary metric.
	if _, err := opt.Filter.keep(append(seriesOf(bk), seriesOf(tk)...)); err != nil {
		return nil, err
	}
	return partsMetrics(parts, opt.Metrics)
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
