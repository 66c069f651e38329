package trim

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
)

// criteriaRows returns the summary rows of the reconfiguration that cover
// every replayed benchmark, one per criterion in Options order: the
// overall rows when several projects were replayed, else the project's.
func criteriaRows(r *reconfigure.Report) []reconfigure.SummaryRow {
	n := len(r.Options.Criteria)
	if n == 0 || len(r.Summary) < n {
		return nil
	}
	return r.Summary[len(r.Summary)-n:]
}

// writeCriteriaText prints, when dynamic reconfiguration ran, one line
// per suite: the time each criterion saves against the static baseline
// and the share of its A/A tests that find no difference, naming the
// criterion whose stop points give the warmup.
func (r *Report) writeCriteriaText(w io.Writer) {
	if r.Reconfigure == nil {
		return
	}
	rows := criteriaRows(r.Reconfigure)
	if len(rows) == 0 {
		return
	}
	saved := make([]string, len(rows))
	var aa []string
	for i, row := range rows {
		saved[i] = fmt.Sprintf("%s saves %s", row.Criterion.Label(), pct1(row.Saved))
		if !math.IsNaN(row.NotDifferent) {
			aa = append(aa, row.Criterion.Label()+" "+pct1(row.NotDifferent))
		}
	}
	tail := ""
	if len(aa) > 0 { // the A/A tests need the forks' static baseline
		tail = "; A/A not different: " + strings.Join(aa, ", ")
	}
	fmt.Fprintf(w, "dynamic reconfiguration (%d short-fork runs, W from %s's stop points): %s%s\n",
		rows[0].Benchmarks, rows[0].Criterion.Label(), strings.Join(saved, ", "), tail)
}

// pct1 is a share as a percentage with one decimal, "-" for NaN.
func pct1(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*x)
}
