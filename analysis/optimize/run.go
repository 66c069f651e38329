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
func Run(t *table.Table, opt Options) (*Report, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	series, err := table.Select(t, opt.Select)
	if err != nil {
		return nil, err
	}
	rep, err := optimize(series, opt)
	if err != nil {
		return nil, err
	}
	if multipleVersions(series) {
		if rep.Versions, err = compareVersions(series, rep, opt.Versions); err != nil {
			return nil, err
		}
	} else if opt.Versions.Base != "" {
		return nil, fmt.Errorf("base version %s: the input holds one version per project; nothing to compare", opt.Versions.Base)
	}
	if len(rep.Results) == 0 {
		return nil, rep.NoResult()
	}
	return rep, nil
}

// multipleVersions reports whether some project has more than one version.
func multipleVersions(series []*table.Series) bool {
	seen := map[string]string{}
	for _, s := range series {
		if v, ok := seen[s.Project]; ok && v != s.Version {
			return true
		}
		seen[s.Project] = s.Version
	}
	return false
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
