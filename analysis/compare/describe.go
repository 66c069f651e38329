package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// description summarises one benchmark of a single result set.
type description struct {
	Name
	// runs are the runs pooled (several files or versions of the benchmark).
	runs []table.Key
	// mean is the mean per operation (of the iteration means for
	// InvocationSamples 0) with its hierarchical bootstrap interval, as a
	// side of Compare reports it.
	mean estimate.Interval
	// median and cv are the median and the coefficient of variation
	// (population standard deviation over mean, stats.cv) of the iteration
	// means: the centre and spread of what benchstat counts as samples.
	median, cv float64
	// iterations is the number of iterations; Units counts the units per
	// level as SideStats.Units.
	iterations int
	units      [5]int
	// err says why the benchmark could not be described.
	err error
	// pos and procs are as for Row.
	pos   position
	procs string
}

// less orders descriptions in input order (names break ties).
func (d *description) less(o *description) bool {
	if d.pos != o.pos {
		return d.pos.less(o.pos)
	}
	return d.Name.less(o.Name)
}

// topUnits is the number of units at the outermost level with more than one.
func (d *description) topUnits() int { return (&SideStats{Units: d.units}).topUnits() }

// setReport is the outcome of Describe for one metric.
type setReport struct {
	options Options
	label   string
	// metric and unit are as in Report.
	metric, unit string
	// benchmarks holds one entry per benchmark, in input order.
	benchmarks []description
}

// isTime reports whether the report describes times per operation.
func (r *setReport) isTime() bool { return r.metric == "" || r.metric == table.Primary }

// describeSet summarises every benchmark of set without comparing: its mean
// with the hierarchical bootstrap interval Compare gives a side (same
// resamples, confidence, invocation samples and warmup rule), the median
// and CV of its iteration means, and how many iterations and units it has.
// Several runs of one benchmark are pooled as Compare pools a side.
// Benchmark i draws from stats.NewStream(opt.Seed, name, 0), so the report
// does not depend on opt.Workers.
func describeSet(set runSet, opt Options) (*setReport, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	rep := &setReport{options: opt, label: set.Label, metric: table.Primary, unit: "ns/op"}
	series := set.Series
	if len(series) > 0 && series[0].Metric != "" && series[0].Metric != table.Primary {
		rep.metric, rep.unit = series[0].Metric, series[0].Unit
		series = valuesAsTimes(series)
	}
	key := opt.rowKey()
	_, groups := matchBy(series, nil, key) // the runs grouped by row, sorted
	procs := procsOf
	if r, _ := parseRow(opt.Row); !r.fullname {
		procs = func(...[]*table.Series) string { return "" }
	}
	pool := workspacePool()
	rep.benchmarks, _ = workpool.Map(len(groups), opt.Workers, func(i int) (description, error) {
		g := &groups[i]
		d := description{Name: g.Name, runs: keys(g.Base), pos: firstPos(g.Base, nil, 0), procs: procs(g.Base)}
		ws := pool.Get().(*stats.Workspace)
		d.err = describeRuns(&d, runsOf(series, g.Name, key), set.Pair, &opt, ws)
		pool.Put(ws)
		if opt.Progress != nil {
			opt.Progress(len(groups))
		}
		return d, nil
	})
	sort.SliceStable(rep.benchmarks, func(i, j int) bool { return rep.benchmarks[i].less(&rep.benchmarks[j]) })
	return rep, nil
}

func runsOf(ss []*table.Series, n Name, key keyFunc) []*table.Series {
	var out []*table.Series
	for _, s := range ss {
		if key(s.Key) == n {
			out = append(out, s)
		}
	}
	return out
}

func describeRuns(d *description, runs []*table.Series, pair string, opt *Options, ws *stats.Workspace) error {
	var sm sample
	for j, s := range runs {
		if err := sm.add(s, int32(j+1), pair, opt.DiscardWarmup, weightedRows(s.Mode, opt.Bootstrap.InvocationSamples), nil); err != nil {
			return err
		}
	}
	h, err := sm.hierarchy()
	if err != nil {
		return err
	}
	d.iterations, d.units = len(sm.iterMeans), sm.units
	d.median = stats.Median(sm.iterMeans, nil)
	d.cv = math.NaN()
	if len(sm.iterMeans) > 1 {
		d.cv = stats.CV(sm.iterMeans, nil)
	}
	if _, ok := constantSides(&sm, &sm); ok {
		v := sm.values[0]
		d.mean = estimate.Interval{Estimate: v, Lower: v, Upper: v}
		return nil
	}
	rng := stats.NewStream(opt.Seed, d.Name.String(), 0)
	d.mean, err = stats.HierarchicalMeanCI(h, opt.Bootstrap, rng, ws)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	if !finite(d.mean.Estimate) || !finite(d.mean.Lower) || !finite(d.mean.Upper) || !finite(d.median) || math.IsInf(d.cv, 0) {
		return notFinite("mean, median or CV", "the values overflow float64")
	}
	return nil
}
