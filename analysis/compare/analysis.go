package compare

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Analysis is Run's answer for a table: one of the A/B comparison
// (one report per metric), the description of one side, or the A/A test.
type Analysis struct {
	options Options
	// ab holds the A/B comparison, the primary metric first (RunSides' answer).
	ab Reports
	// described holds the description of one side, per metric.
	described setReports
	// aa holds the A/A test.
	aa *aaReport
	// part is the bookkeeping of a run on a part of the input
	// (Options.Part), for MergeAnalyses.
	part *part
}

// Unanswered is the error of an A/B comparison that compared no benchmark
// (the sides share none, or every comparison failed), nil otherwise and
// for a description or an A/A test: benchtrim compare prints the report,
// then fails with it (exit status 1).
func (a *Analysis) Unanswered() error {
	if len(a.ab) == 0 {
		return nil
	}
	failed := 0
	for _, r := range a.ab {
		s := r.summary()
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

// Run is the package's entry point for a table, the one benchtrim
// compare calls: with opt.AA the A/A test of t's runs that opt.Filter
// keeps; with a zero opt.Test the description of opt.Base (every run of t
// when Base is zero too); else the A/B comparison of opt.Test against
// opt.Base (RunSides), whose sides colSides finds for Col colConfig and /KEY.
// A side's Table is t unless set. Every result is a function of its
// benchmark's runs and of streams keyed by (seed, benchmark), so on the
// parts of an input split by benchmark name (opt.Part, each part holding
// every run of its names on every side) MergeAnalyses gives the bytes of
// the unsplit run.
func Run(t *table.Table, opt Options) (*Analysis, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	base, test := opt.Base, opt.Test
	opt.Base.Table, opt.Test.Table = nil, nil // reports keep options, not tables
	a := &Analysis{options: opt}
	a.options.Progress = nil
	var err error
	switch {
	case opt.AA:
		all := t.Collect(table.Filter{})
		if opt.Part {
			a.part = &part{BaseAll: keys(all)}
			a.aa, err = aaSeries(opt.Filter.selectSeries(all), opt)
		} else if all, err = opt.Filter.keep(all); err == nil {
			a.aa, err = aaSeries(all, opt)
		}
		return a, err
	case opt.Col == colConfig || colKey(opt.Col) != "":
		if base, test, err = colSides(t, opt); err != nil {
			return nil, err
		}
	case test == (Side{}):
		if base.Table == nil {
			base.Table = t
		}
		if opt.Part {
			a.part, err = describePart(base, opt)
		} else {
			a.described, err = describe(base, opt)
		}
		return a, err
	}
	if base.Table == nil {
		base.Table = t
	}
	if test.Table == nil {
		test.Table = t
	}
	if opt.Part {
		if a.part, err = runPart(base, test, opt); err != nil {
			return nil, err
		}
		a.part.sameTable = base.Table == test.Table
		return a, nil
	}
	if err := checkSides(base, test); err != nil {
		return nil, err
	}
	a.ab, err = RunSides(base, test, opt)
	return a, err
}

// MergeAnalyses returns what Run gives on the union of the parts of
// one input split by benchmark name (Run with Options.Part on each,
// the same options otherwise): Run's errors on the whole input (a
// filter that keeps no benchmark, a wanted metric no part holds, a side
// selector matching no run), and the parts' results in Run's order.
func MergeAnalyses(parts []*Analysis) (*Analysis, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("compare: no analysis to merge")
	}
	opt := parts[0].options
	opt.Part = false
	out := &Analysis{options: opt}
	ps := make([]*part, len(parts))
	for i, p := range parts {
		if p.part == nil {
			return nil, fmt.Errorf("compare: analysis %d is not of a part (Options.Part)", i+1)
		}
		ps[i] = p.part
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
	case ps[0].Described != nil:
		out.described, err = mergeDescribed(ps, opt)
	default:
		out.ab, err = mergeParts(ps, opt.Base.Select, opt.Test.Select, ps[0].sameTable, opt)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteText writes the analysis for people (Reports.WriteText,
// setReports.WriteText or aaReport.WriteText).
func (a *Analysis) WriteText(w io.Writer) error {
	switch {
	case a.aa != nil:
		return a.aa.WriteText(w)
	case a.described != nil:
		return a.described.WriteText(w)
	}
	return a.ab.WriteText(w)
}

// Frame returns the data table FrameResults for the shared writer: one
// row per metric and benchmark (A/B, description) or per A/A comparison;
// docs/compare.md and docs/outputs.md list the columns.
func (a *Analysis) Frame(name string) (*reports.Frame, error) {
	if name != FrameResults {
		return nil, fmt.Errorf("compare: no data table %q", name)
	}
	switch {
	case a.aa != nil:
		return a.aa.frame(), nil
	case a.described != nil:
		return a.described.frame(), nil
	}
	return a.ab.frame(), nil
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
