package reconfigure

import (
	"fmt"
	"io"

	"github.com/benchtrim/benchtrim/reports"
)

// writeText prints the short answer: the time the recommended
// criterion (best) cuts and how many benchmarks' results its
// A/A tests found not different, a row per criterion, and what was skipped.
// With no benchmark replayed it returns an error naming the reason.
func writeText(w io.Writer, results []Result, rows []SummaryRow, opt *Options) error {
	skipped, short := 0, 0
	var firstSkip string
	for _, r := range results {
		if r.Skipped != "" {
			if skipped++; skipped == 1 {
				firstSkip = fmt.Sprintf("%s: %s", r.Key, r.Skipped)
			}
		} else if r.Short {
			short++
		}
	}
	if skipped == len(results) {
		return fmt.Errorf("no result: all %d benchmarks were skipped (first: %s)", skipped, firstSkip)
	}
	overall := overallRows(rows, opt.Criteria)
	b := overall[best(overall)]
	fmt.Fprintf(w, "dynamic reconfiguration: %s cuts %s of the suite's time (%s → %s);\n", b.Criterion.Label(),
		reports.Human(reports.Percent(b.Saved)), reports.Human(reports.Seconds(b.StaticHours*3600)),
		reports.Human(reports.Seconds(b.DynamicHours*3600)))
	if b.AATested > 0 {
		fmt.Fprintf(w, "A/A tests find %s of %d tested benchmarks not different from the static configuration.\n",
			reports.Human(reports.Percent(b.NotDifferent)), b.AATested)
	} else {
		fmt.Fprintf(w, "no A/A test was possible: every benchmark has fewer iterations than the configuration\n"+
			"and the baseline ask for (lower --wi-max, --mi, --baseline-wi and --baseline-mi to test).\n")
	}
	fmt.Fprintln(w)
	if err := shortTable(overall).WriteMarkdown(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d benchmarks replayed", len(results)-skipped)
	if short > 0 {
		fmt.Fprintf(w, ", %d with less data than configuration or baseline ask for", short)
	}
	fmt.Fprintln(w)
	if skipped > 0 {
		fmt.Fprintf(w, "skipped %d (first: %s)\n", skipped, firstSkip)
	}
	fmt.Fprintln(w, "--details prints the per-benchmark table and Tables 2 and 3; -o, --table2, --table3 write them.")
	return nil
}

// writeDetails prints the setup, skipped benchmarks, the
// per-benchmark table (for up to 40 benchmarks) and Tables 2 and 3.
func writeDetails(w, errw io.Writer, results []Result, opt *Options) error {
	fmt.Fprintf(w, "dynamic reconfiguration replay: %s\n", describe(opt))
	skipped, short := 0, 0
	for _, r := range results {
		if r.Skipped != "" {
			skipped++
			fmt.Fprintf(errw, "skipped %s: %s\n", r.Key, r.Skipped)
			continue
		}
		if r.Short {
			short++
		}
	}
	fmt.Fprintf(w, "benchmarks: %d replayed, %d skipped; %d with less data than the configuration or the baseline asks for (short)\n",
		len(results)-skipped, skipped, short)
	if len(results) <= 40 {
		fmt.Fprintln(w)
		if err := benchmarkTable(results).WriteMarkdown(w); err != nil {
			return err
		}
	}
	rows := summaryRows(results, opt.Criteria)
	fmt.Fprintln(w)
	if err := qualityTable(rows).WriteMarkdown(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return timeTable(rows).WriteMarkdown(w)
}
