package compare

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Report is Run's answer for a table: the A/B comparison of two sides
// (Rows and Unmatched, per metric), the description of one side or the
// A/A test (these two shown by WriteText and Frame only).
type Report struct {
	// Options are Run's options, without tables and Progress.
	Options Options
	// Base and Test are the labels of the sides compared.
	Base, Test string
	// Rows holds a row per metric and benchmark both sides have, the
	// metrics in Run's order (the primary metric first, or that of
	// Options.Metrics), each metric's rows sorted by name; the text and
	// the data table show them in input order, the order benchstat prints
	// its rows in (first appearance, the base's files first). Unmatched
	// holds the benchmarks only one side has, in the same order.
	Rows, Unmatched []Row
	// metrics are the A/B comparison's metrics, in Rows' order, without
	// their rows (add, byMetric).
	metrics []metricRows
	// described holds the description of one side, per metric.
	described setReports
	// aa holds the A/A test.
	aa *aaReport
	// part is the bookkeeping of a run on a part of the input
	// (Options.Part), for Merge.
	part *part
}

// add appends the rows of one metric's comparison to r.
func (r *Report) add(g *metricRows) {
	r.Rows, r.Unmatched = append(r.Rows, g.Results...), append(r.Unmatched, g.Unmatched...)
	h := *g
	h.Results, h.Unmatched = nil, nil
	r.metrics = append(r.metrics, h)
}

// byMetric returns r's comparison per metric, with its rows.
func (r *Report) byMetric() []*metricRows {
	out := make([]*metricRows, len(r.metrics))
	for i := range r.metrics {
		g := r.metrics[i]
		for _, x := range r.Rows {
			if x.Metric == g.Metric {
				g.Results = append(g.Results, x)
			}
		}
		for _, x := range r.Unmatched {
			if x.Metric == g.Metric {
				g.Unmatched = append(g.Unmatched, x)
			}
		}
		out[i] = &g
	}
	return out
}

// Unanswered is the error of an A/B comparison that compared no benchmark
// (the sides share none, or every comparison failed), nil otherwise and
// for a description or an A/A test: benchtrim compare prints the report,
// then fails with it (exit status 1).
func (r *Report) Unanswered() error {
	if len(r.metrics) == 0 {
		return nil
	}
	failed := 0
	for _, g := range r.byMetric() {
		s := g.summary()
		if s.compared > 0 {
			return nil
		}
		failed += s.failed
	}
	if failed > 0 {
		return fmt.Errorf("no benchmark compared: all %d comparisons failed", failed)
	}
	return errors.New("no benchmark compared: the two sides have no benchmark in common")
}

// Run is the package's entry point, the one benchtrim compare and
// analysis/trim call: with opt.AA the A/A test of t's runs that
// opt.Filter keeps; with a zero opt.Test the description of opt.Base
// (every run of t when Base is zero too); else the A/B comparison of
// opt.Test against opt.Base (compareSides), whose sides colSides finds
// for Col colConfig and /KEY. A side's Table is t unless set (a side read
// from files of its own). Every result is a function of its benchmark's
// runs and of streams keyed by (seed, benchmark), so on the parts of an
// input split by benchmark name (opt.Part, each part holding every run of
// its names on every side) Merge gives the bytes of the unsplit run.
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	base, test := opt.Base, opt.Test
	opt.Base.Table, opt.Test.Table = nil, nil // reports keep options, not tables
	r := &Report{Options: opt}
	r.Options.Progress = nil
	var err error
	switch {
	case opt.AA:
		all := t.Collect(table.Filter{})
		if opt.Part {
			r.part = &part{BaseAll: keys(all)}
			r.aa, err = aaSeries(opt.Filter.selectSeries(all), opt)
		} else if all, err = opt.Filter.keep(all); err == nil {
			r.aa, err = aaSeries(all, opt)
		}
		return r, err
	case opt.Col == colConfig || colKey(opt.Col) != "":
		if base, test, err = colSides(t, opt); err != nil {
			return nil, err
		}
	case test == (Side{}):
		if base.Table == nil {
			base.Table = t
		}
		if opt.Part {
			r.part, err = describePart(base, opt)
		} else {
			r.described, err = describe(base, opt)
		}
		return r, err
	}
	if base.Table == nil {
		base.Table = t
	}
	if test.Table == nil {
		test.Table = t
	}
	r.Base, r.Test = base.Label, test.Label
	if opt.Part {
		if err := r.comparePart(base, test, opt); err != nil {
			return nil, err
		}
		return r, nil
	}
	if err := checkSides(base, test); err != nil {
		return nil, err
	}
	if err := r.compareSides(base, test, opt); err != nil {
		return nil, err
	}
	return r, nil
}

// Merge returns what Run gives on the union of the parts of one input
// split by benchmark name, from Run's reports on the parts (Options.Part
// set, the same options otherwise): the parts' results in Run's order,
// and Run's errors on the whole input (a filter that keeps no benchmark,
// a wanted metric no part holds, a side selector matching no run). A/B
// reports read back from a file (gob keeps exported fields only:
// analysis/trim's partial files) merge their rows without these checks,
// which need the parts as Run returned them.
func Merge(parts []*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("compare: no report to merge")
	}
	opt := parts[0].Options
	opt.Part = false
	out := &Report{Options: opt, Base: parts[0].Base, Test: parts[0].Test}
	ps := make([]*part, len(parts))
	for i, p := range parts {
		if ps[i] = p.part; p.part == nil && (opt.AA || p.described != nil) {
			return nil, fmt.Errorf("compare: report %d is not of a part (Options.Part)", i+1)
		}
	}
	var err error
	switch {
	case opt.AA:
		var all []table.Key
		var aas []*aaReport
		for i, p := range parts {
			all, aas = append(all, ps[i].BaseAll...), append(aas, p.aa)
		}
		sort.Slice(all, func(i, j int) bool { return all[i].Less(all[j]) })
		if _, err := opt.Filter.keep(seriesOf(all)); err != nil {
			return nil, err
		}
		out.aa, err = mergeAA(aas)
	case ps[0] != nil && ps[0].Described != nil:
		out.described, err = mergeDescribed(ps, opt)
	default:
		err = out.mergeRows(parts, !slices.Contains(ps, nil))
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteText writes the report for people (writeAB, setReports.WriteText
// or aaReport.WriteText).
func (r *Report) WriteText(w io.Writer) error {
	switch {
	case r.aa != nil:
		return r.aa.WriteText(w)
	case r.described != nil:
		return r.described.WriteText(w)
	}
	return r.writeAB(w)
}

// Frame returns the data table FrameResults for the shared writer: one
// row per metric and benchmark (A/B, description) or per A/A comparison;
// docs/compare.md and docs/outputs.md list the columns.
func (r *Report) Frame(name string) (*reports.Frame, error) {
	if name != FrameResults {
		return nil, fmt.Errorf("compare: no data table %q", name)
	}
	switch {
	case r.aa != nil:
		return r.aa.frame(), nil
	case r.described != nil:
		return r.described.frame(), nil
	}
	return r.frame(), nil
}

// SplitByName reports whether Run can run on the parts of an input
// split by benchmark name (tablefile.NameGroupOf; Options.Part): not when a
// row (Row) or the sides (Col colConfig, /KEY) relate runs of different
// names or need the whole input's labels.
func (o *Options) SplitByName() bool {
	return o.AA || o.Row == "" && (o.Col == "" || o.Col == colFile)
}

// Inputs sets opt.Base and opt.Test the way a command line names the two
// sides (benchtrim compare --help) and returns the files to read, one list
// per table:
//
//	opt.AA, FILES                    one table, each run split in two
//	Col colConfig or /KEY, FILES     one table; Run finds the sides
//	baseFiles, testFiles             two tables, labelled by filesLabel
//	FILES, with the label selectors  one table; the sides are the runs
//	  opt.Base.Select, opt.Test.Select  each selector chooses
//	OLD NEW                          two tables, labelled by their names
//	FILE                             one table, described
//
// baseFiles and testFiles are the --base and --test files, globs
// expanded; args the positional ones.
func Inputs(opt *Options, args, baseFiles, testFiles []string) ([][]string, error) {
	baseSel, testSel := opt.Base.Select, opt.Test.Select
	anySel := baseSel != (Selector{}) || testSel != (Selector{})
	fileSides := len(baseFiles) > 0 || len(testFiles) > 0
	switch {
	case opt.AA:
		if fileSides || anySel {
			return nil, fmt.Errorf("--aa takes the files of one recording as positional arguments, not --base/--test or label selectors")
		}
		return [][]string{args}, nil
	case opt.Col == colConfig || colKey(opt.Col) != "":
		if len(args) == 0 || fileSides {
			return nil, fmt.Errorf("--col %s takes FILES as positional arguments, not --base/--test", opt.Col)
		}
		if anySel {
			return nil, fmt.Errorf("--col %s: label selectors (--base-version, …) choose the sides of --col .file", opt.Col)
		}
		return [][]string{args}, nil
	case fileSides:
		if len(baseFiles) == 0 || len(testFiles) == 0 {
			return nil, fmt.Errorf("--base and --test must both be given")
		}
		if len(args) > 0 {
			return nil, fmt.Errorf("positional file %s given with --base/--test: repeat the flag for every file (--base a --base b) or quote a glob (--base 'dir/*.json')", args[0])
		}
		opt.Base.Label, opt.Test.Label = filesLabel(baseFiles, baseSel), filesLabel(testFiles, testSel)
		return [][]string{baseFiles, testFiles}, nil
	case anySel:
		if baseSel == (Selector{}) || testSel == (Selector{}) {
			return nil, fmt.Errorf("label selection needs a selector for each side (e.g. --base-version V1 --test-version V2)")
		}
		opt.Base.Label, opt.Test.Label = baseSel.String(), testSel.String()
		return [][]string{args}, nil
	case len(args) == 2:
		opt.Base.Label, opt.Test.Label = args[0], args[1]
		return [][]string{args[:1], args[1:]}, nil
	case len(args) == 1:
		opt.Base.Label = args[0]
		return [][]string{args}, nil
	}
	return nil, fmt.Errorf("name the two result sets: OLD NEW, --base FILE --test FILE, FILES with --base-version V1 --test-version V2, or --aa FILES; or one FILE to summarise it (see benchtrim compare --help)")
}
