package compare

import (
	"github.com/benchtrim/benchtrim/table"
)

// valuesAsTimes returns shallow copies of ss whose NsPerOp column is their
// Value column, so a secondary metric is compared on its recorded values by
// the code that compares times. ss is not modified.
func valuesAsTimes(ss []*table.Series) []*table.Series {
	out := make([]*table.Series, len(ss))
	for i, s := range ss {
		c := *s
		c.NsPerOp = s.Value
		out[i] = &c
	}
	return out
}

// isTime reports whether the report compares times per operation (the
// primary metric), whose changes read "slower" and "faster"; other metrics
// read "higher" and "lower".
func (r *metricRows) isTime() bool { return r.Metric == "" || r.Metric == table.Primary }

// verdictText is a verdict as a report words it: "no change",
// "+4.2 % slower" / "-3.1 % faster" for times (time true), "+4.2 % higher"
// / "-3.1 % lower" for other metrics.
func verdictText(v Verdict, time bool) string {
	if time || v.Change == NoChange {
		return v.String()
	}
	word := "higher"
	if v.Change == Faster {
		word = "lower"
	}
	return formatPercent(v.Percent) + " " + word
}
