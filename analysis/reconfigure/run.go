package reconfigure

import (
	"fmt"
	"io"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// Names of the tables Report.Frame and Report.Table return.
const (
	FrameBenchmarks = "benchmarks" // one row per benchmark and criterion
	FrameQuality    = "table2"     // the paper's Table 2: result quality per project and criterion
	FrameTime       = "table3"     // the paper's Table 3: time saved per project and criterion
	FrameConfigs    = "configs"    // dynamic configurations per fork, for steady --configs (data only)
)

// Report is the outcome of Run.
type Report struct {
	// Options as used.
	Options Options
	// Results has one entry per benchmark run, in key order.
	Results []Result
	// Summary has one row per (project, criterion) and the overall rows.
	Summary []SummaryRow
}

// Run replays dynamic reconfiguration on every primary series of t that
// opt.Select keeps (replayAll) and summarises the outcome per project and
// criterion (summaryRows). It is the package's entry point.
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	series, err := t.Select(opt.Select)
	if err != nil {
		return nil, err
	}
	results, err := replayAll(series, opt)
	if err != nil {
		return nil, err
	}
	return &Report{Options: opt, Results: results, Summary: summaryRows(results, opt.Criteria)}, nil
}

// WriteText prints the short answer: the time each criterion saves and how
// many benchmarks keep their result.
func (r *Report) WriteText(w io.Writer) error { return writeText(w, r.Results, r.Summary, &r.Options) }

// WriteDetails prints the setup, skipped benchmarks, the per-benchmark
// table (for up to 40 benchmarks) and Tables 2 and 3.
func (r *Report) WriteDetails(w io.Writer) error { return writeDetails(w, w, r.Results, &r.Options) }

// Frame returns a data table by name (FrameBenchmarks, FrameQuality,
// FrameTime or FrameConfigs) for the shared writer.
func (r *Report) Frame(name string) (*reports.Frame, error) {
	switch name {
	case FrameBenchmarks:
		return benchmarksFrame(r.Results), nil
	case FrameQuality, FrameTime:
		return summaryFrame(r.Summary), nil
	case FrameConfigs:
		return configsFrame(configs(r.Results)), nil
	}
	return nil, fmt.Errorf("reconfigure: no data table %q", name)
}

// Table returns a table for documents (Markdown, LaTeX, HTML) by name
// (FrameBenchmarks, FrameQuality or FrameTime).
func (r *Report) Table(name string) (*reports.Table, error) {
	switch name {
	case FrameBenchmarks:
		return benchmarkTable(r.Results), nil
	case FrameQuality:
		return qualityTable(r.Summary), nil
	case FrameTime:
		return timeTable(r.Summary), nil
	}
	return nil, fmt.Errorf("reconfigure: no document table %q; write it as .csv, .arrow or .parquet", name)
}
