package compare

import (
	"fmt"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// FrameResults is the name of the data table (one row per benchmark, or
// per A/A comparison) that every report of this package returns from Frame.
const FrameResults = "results"

// Side is one side of a comparison: the table its runs come from, the
// labels that choose them (all runs for a zero Selector) and the label
// reports print for it.
type Side struct {
	Label  string
	Table  *table.Table
	Select Selector
}

// series returns the side's runs of metric that filter keeps.
func (s Side) set(metric string, filter *Filter) runSet {
	return newSet(s.Label, filter.selectSeries(s.Table.Collect(table.Filter{Metric: metric})), s.Select)
}

// sidesOf returns the runs of metric that filter keeps of both sides, the
// test side ranked after the base when it reads a table of its own.
func sidesOf(base, test Side, metric string, filter *Filter) (runSet, runSet) {
	bs, ts := base.set(metric, filter), test.set(metric, filter)
	if base.Table != test.Table {
		ts.rank = 1
	}
	return bs, ts
}

// checkSides reports a side whose selector chooses no run, naming the
// project@version labels the input has. Sides chosen by labels from one
// table must differ.
func checkSides(base, test Side) error {
	if base.Table == test.Table && base.Select == test.Select {
		return fmt.Errorf("base and test select the same runs (%s)", base.Select)
	}
	for _, s := range []struct {
		name string
		side Side
	}{{"base", base}, {"test", test}} {
		if s.side.Select == (Selector{}) {
			continue
		}
		all := s.side.Table.Collect(table.Filter{})
		if len(newSet("", all, s.side.Select).Series) == 0 {
			return fmt.Errorf("no runs match the %s selection (%s)%s", s.name, s.side.Select, labelsHint(all))
		}
	}
	return nil
}

// compareSides adds to r the A/B comparison of two sides: test against
// base for the primary metric (times per operation, see compareSets) and
// every secondary metric of opt.Metrics (nil: all the input holds) that
// both sides have, on the benchmarks opt.Filter keeps.
func (r *Report) compareSides(base, test Side, opt Options) error {
	// The primary metric decides whether the filter matched anything.
	bp, tp := base.set(table.Primary, nil), test.set(table.Primary, nil)
	if _, err := opt.Filter.keep(append(append([]*table.Series(nil), bp.Series...), tp.Series...)); err != nil {
		return err
	}
	metrics, err := wantedMetrics(opt.Metrics, base.Table, test.Table)
	if err != nil {
		return fmt.Errorf("metrics %w", err)
	}
	var sets [][2]runSet
	total := 0
	for _, m := range metrics {
		bs, ts := sidesOf(base, test, m, opt.Filter)
		pairs, _ := matchBy(bs.Series, ts.Series, opt.rowKey())
		if m != table.Primary && len(pairs) == 0 {
			continue // a secondary metric only one side has
		}
		sets = append(sets, [2]runSet{bs, ts})
		total += len(pairs)
	}
	opt.Progress = overall(opt.Progress, total)
	for _, st := range sets {
		g, err := compareSets(st[0], st[1], opt)
		if err != nil {
			return err
		}
		r.add(g)
	}
	return nil
}

// describe summarises one side without comparing (describeSet), per metric
// of opt.Metrics that it holds, on the benchmarks opt.Filter keeps.
func describe(side Side, opt Options) (setReports, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if _, err := opt.Filter.keep(side.Table.Collect(table.Filter{})); err != nil {
		return nil, err
	}
	metrics, err := wantedMetrics(opt.Metrics, side.Table)
	if err != nil {
		return nil, fmt.Errorf("metrics %w", err)
	}
	var sets []runSet
	total := 0
	for _, m := range metrics {
		s := side.set(m, opt.Filter)
		if len(s.Series) == 0 {
			continue
		}
		sets = append(sets, s)
		_, groups := matchBy(s.Series, nil, opt.rowKey())
		total += len(groups)
	}
	opt.Progress = overall(opt.Progress, total)
	var reps setReports
	for _, s := range sets {
		rep, err := describeSet(s, opt)
		if err != nil {
			return nil, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// overall turns a per-stage progress callback into one that reports the
// total over all stages.
func overall(progress func(int), total int) func(int) {
	if progress == nil {
		return nil
	}
	return func(int) { progress(total) }
}

// String describes the selector: "project P, version V, pair A".
func (sel Selector) String() string {
	var parts []string
	if sel.Project != "" {
		parts = append(parts, "project "+sel.Project)
	}
	if sel.Version != "" {
		parts = append(parts, "version "+sel.Version)
	}
	if sel.Pair != "" {
		parts = append(parts, "pair "+sel.Pair)
	}
	if sel.Param != "" {
		parts = append(parts, sel.Param)
	}
	if sel.Shards > 1 {
		parts = append(parts, fmt.Sprintf("shard %d/%d", sel.Shard, sel.Shards))
	}
	return strings.Join(parts, ", ")
}

// filesLabel is the label of a side read from files: the first three names
// and a count of the rest, then the selector if any.
func filesLabel(files []string, sel Selector) string {
	s := strings.Join(files, ", ")
	if len(files) > 3 {
		s = strings.Join(files[:3], ", ") + fmt.Sprintf(" and %d more files", len(files)-3)
	}
	if sel != (Selector{}) {
		s += " (" + sel.String() + ")"
	}
	return s
}

// labelsHint lists the project@version labels present, for error messages.
func labelsHint(all []*table.Series) string {
	seen := map[string]bool{}
	var labels []string
	for _, s := range all {
		l := s.Project + "@" + s.Version
		if !seen[l] {
			seen[l] = true
			labels = append(labels, l)
		}
	}
	if len(labels) == 0 {
		return "; the input holds no runs"
	}
	if len(labels) > 10 {
		labels = append(labels[:10], "…")
	}
	return "; the input has project@version " + strings.Join(labels, ", ")
}
