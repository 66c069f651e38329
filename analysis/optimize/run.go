package optimize

import (
	"fmt"
	"io"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Frame names accepted by Report.Frame.
const (
	FrameResults  = "results"  // one row per (benchmark run, metric, method), columns in the package documentation
	FrameSummary  = "summary"  // one row per (project, version, metric, method), columns in the package documentation
	FrameVersions = "versions" // the change detection across versions, columns in the package documentation
)

// Run is µOpTime on a table: optimize on the primary series that
// opt.Select keeps and then, when some project holds more than one
// version, compareVersions with opt.Versions. It is the package's entry
// point; the report's WriteText, WriteDetails, Frame and WriteScript give
// its answer to people, notebooks and shells.
//
// The versions compared are those of the benchmark runs of the whole
// input that opt.Select keeps without its shard (opt.AllRuns when t holds
// a part of the input; runs with primary rows): a shard, or a run on a
// chunk of the input, compares the versions the unsplit run compares, and
// Merge of the parts gives the unsplit run's report. A run on such a part
// (opt.Select.Shards > 1 or opt.AllRuns set) returns its report even when
// none of its benchmark runs gives a result (its Skipped count in the
// merged report); the whole run fails with NoResult's error instead, and
// a shard holding no benchmark run with table.Table.Select's
// *table.EmptyShardError. opt.NoReportedCIs has no effect when versions
// are compared, which needs those CIs.
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	series, err := t.Select(opt.Select)
	if err != nil {
		return nil, err
	}
	present := presentVersions(inputRuns(t, &opt))
	if multipleVersions(present) {
		opt.NoReportedCIs = false // the comparison reads them
	}
	rep, err := optimize(series, opt)
	if err != nil {
		return nil, err
	}
	rep.dropNonFinite(series)
	if multipleVersions(present) {
		if opt.Versions.Order == nil {
			opt.Versions.Order = inputOrder(t) // the order of the files, as given
		}
		if rep.Versions, err = compareVersionsOf(series, present, rep, opt.Versions); err != nil {
			return nil, err
		}
	} else if opt.Versions.Base != "" {
		return nil, fmt.Errorf("base version %s: the input holds one version per project; nothing to compare", opt.Versions.Base)
	}
	if len(rep.Results) == 0 && !opt.isPart() {
		return nil, rep.NoResult()
	}
	return rep, nil
}

// isPart reports whether the options select a part of a split run: a
// shard, or a chunk of an input with AllRuns naming the whole.
func (o *Options) isPart() bool { return o.Select.Shards > 1 || o.AllRuns != nil }

// inputRuns lists the benchmark runs of the whole input that opt.Select
// keeps without its shard: opt.AllRuns when set, else the runs with
// primary rows in t (table.Table.Runs).
func inputRuns(t *table.Table, opt *Options) []table.Key {
	runs := opt.AllRuns
	if runs == nil {
		runs = t.Runs()
	}
	sel := opt.Select.Unsharded()
	out := make([]table.Key, 0, len(runs))
	for _, k := range runs {
		if sel.Matches(k) {
			out = append(out, k)
		}
	}
	return out
}

// WriteText prints the short answer (see WriteText).
func (r *Report) WriteText(w io.Writer) error {
	writeText(w, r, r.Versions)
	return nil
}

// WriteDetails prints the per-version tables (see WriteDetails).
func (r *Report) WriteDetails(w io.Writer) error { return writeDetails(w, r, r.Versions) }

// Frame returns the data table name (FrameResults, FrameSummary or
// FrameVersions) for the shared writer.
func (r *Report) Frame(name string) (*reports.Frame, error) {
	switch name {
	case FrameResults:
		return resultFrame(r).columns(), nil
	case FrameSummary:
		return summaryFrame(summarize(r.Results)).columns(), nil
	case FrameVersions:
		if r.Versions == nil {
			return nil, fmt.Errorf("the input holds one version per project; nothing to compare")
		}
		return versionFrame(r.Versions).columns(), nil
	}
	return nil, fmt.Errorf("optimize: no data table %q", name)
}

// WriteScript writes the shell script that runs the configurations chosen
// for every benchmark (the latest version's, see toRun).
func (r *Report) WriteScript(w io.Writer) error {
	return writeScript(w, toRun(r, r.Versions), r.Options.Metrics)
}

// inputOrder lists t's version labels in the order the input first gives
// them (table.Table.Labels: the order of the files on the command line), the
// default release order; versions the labels do not name follow in their
// natural order.
func inputOrder(t *table.Table) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range t.Labels() {
		if !seen[l[1]] {
			seen[l[1]] = true
			out = append(out, l[1])
		}
	}
	return out
}
