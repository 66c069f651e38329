package compare

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/stats"
	"github.com/benchtrim/benchtrim/internal/workpool"
	"github.com/benchtrim/benchtrim/table"
)

// Description summarises one benchmark of a single result set.
type Description struct {
	Name
	// Runs are the runs pooled (several files or versions of the benchmark).
	Runs []table.Key
	// Mean is the mean per operation (of the iteration means for
	// InvocationSamples 0) with its hierarchical bootstrap interval, as a
	// side of Compare reports it.
	Mean estimate.Interval
	// Median and CV are the median and the coefficient of variation
	// (population standard deviation over mean, stats.CV) of the iteration
	// means: the centre and spread of what benchstat counts as samples.
	Median, CV float64
	// Iterations is the number of iterations; Units counts the units per
	// level as SideStats.Units.
	Iterations int
	Units      [5]int
	// Err says why the benchmark could not be described.
	Err error
}

// TopUnits is the number of units at the outermost level with more than one.
func (d *Description) TopUnits() int { return (&SideStats{Units: d.Units}).TopUnits() }

// SetReport is the outcome of Describe for one metric.
type SetReport struct {
	Options Options
	Label   string
	// Metric and Unit are as in Report.
	Metric, Unit string
	// Benchmarks holds one entry per benchmark, sorted by name.
	Benchmarks []Description
}

// IsTime reports whether the report describes times per operation.
func (r *SetReport) IsTime() bool { return r.Metric == "" || r.Metric == table.Primary }

// describeSet summarises every benchmark of set without comparing: its mean
// with the hierarchical bootstrap interval Compare gives a side (same
// resamples, confidence, invocation samples and warmup rule), the median
// and CV of its iteration means, and how many iterations and units it has.
// Several runs of one benchmark are pooled as Compare pools a side.
// Benchmark i draws from stats.NewStream(opt.Seed, name, 0), so the report
// does not depend on opt.Workers.
func describeSet(set runSet, opt Options) (*SetReport, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	rep := &SetReport{Options: opt, Label: set.Label, Metric: table.Primary, Unit: "ns/op"}
	series := set.Series
	if len(series) > 0 && series[0].Metric != "" && series[0].Metric != table.Primary {
		rep.Metric, rep.Unit = series[0].Metric, series[0].Unit
		series = valuesAsTimes(series)
	}
	key := opt.rowKey()
	_, groups := matchBy(series, nil, key) // the runs grouped by row, sorted
	pool := workspacePool()
	rep.Benchmarks, _ = workpool.Map(len(groups), opt.Workers, func(i int) (Description, error) {
		g := &groups[i]
		d := Description{Name: g.Name, Runs: g.Runs}
		ws := pool.Get().(*stats.Workspace)
		d.Err = describeRuns(&d, runsOf(series, g.Name, key), set.Pair, &opt, ws)
		pool.Put(ws)
		if opt.Progress != nil {
			opt.Progress(len(groups))
		}
		return d, nil
	})
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

func describeRuns(d *Description, runs []*table.Series, pair string, opt *Options, ws *stats.Workspace) error {
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
	d.Iterations, d.Units = len(sm.iterMeans), sm.units
	d.Median = stats.Median(sm.iterMeans, nil)
	d.CV = math.NaN()
	if len(sm.iterMeans) > 1 {
		d.CV = stats.CV(sm.iterMeans, nil)
	}
	if _, ok := constantSides(&sm, &sm); ok {
		v := sm.values[0]
		d.Mean = estimate.Interval{Estimate: v, Lower: v, Upper: v}
		return nil
	}
	rng := stats.NewStream(opt.Seed, d.Name.String(), 0)
	d.Mean, err = stats.HierarchicalMeanCI(h, opt.Bootstrap, rng, ws)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	if !finite(d.Mean.Estimate) || !finite(d.Mean.Lower) || !finite(d.Mean.Upper) || !finite(d.Median) || math.IsInf(d.CV, 0) {
		return notFinite("mean, median or CV", "the values overflow float64")
	}
	return nil
}
