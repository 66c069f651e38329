package reconfigure

import (
	"math"

	"github.com/benchtrim/benchtrim/reports"
)

// goodShare is the share of A/A-tested benchmarks that must be "not
// different" for Best to rank a criterion by time saved.
const goodShare = 0.9

// overallRows returns the rows of summaryRows that cover every benchmark: the
// Overall rows when there are several projects, else the project's rows.
func overallRows(rows []SummaryRow, criteria []Criterion) []SummaryRow {
	if criteria == nil {
		criteria = AllCriteria
	}
	if len(rows) < len(criteria) {
		return rows
	}
	return rows[len(rows)-len(criteria):]
}

// best picks the criterion to recommend among rows of one project (or
// overall): the largest time saving among those whose A/A tests found at
// least goodShare of the tested benchmarks not different; when none does
// (or nothing was A/A-tested), the largest share not different, ties by
// time saved. It returns −1 for no rows.
func best(rows []SummaryRow) int {
	best := -1
	for i, r := range rows {
		if r.AATested > 0 && r.NotDifferent >= goodShare && (best < 0 || r.Saved > rows[best].Saved) {
			best = i
		}
	}
	if best >= 0 {
		return best
	}
	nd := func(r SummaryRow) float64 { // NaN (nothing tested) ranks last
		if r.AATested == 0 || math.IsNaN(r.NotDifferent) {
			return -1
		}
		return r.NotDifferent
	}
	for i, r := range rows {
		if best < 0 || nd(r) > nd(rows[best]) || nd(r) == nd(rows[best]) && r.Saved > rows[best].Saved {
			best = i
		}
	}
	return best
}

// shortTable is the terminal summary's table: one row per criterion with
// the time saved and the A/A result quality, within 100 columns.
func shortTable(rows []SummaryRow) *reports.Table {
	t := &reports.Table{Columns: []string{"criterion", "saved", "static", "dynamic", "A/A tested", "not different", "mean change", "< 3 %"}}
	for _, r := range rows {
		t.AddRow(r.Criterion.Label(), reports.Percent(r.Saved), reports.Seconds(r.StaticHours*3600),
			reports.Seconds(r.DynamicHours*3600), r.AATested, reports.Percent(r.NotDifferent),
			reports.Percent(r.ChangeMean), reports.Percent(r.Below3))
	}
	return t
}
