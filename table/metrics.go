package table

import (
	"sort"

	"github.com/apache/arrow/go/v15/arrow/array"
)

// Metrics lists the metrics the table holds (the distinct values of the
// metric column), Primary first when present, the others sorted by name.
// Analyzers and writers use it to Collect each metric in turn.
func Metrics(t *Table) []string {
	seen := map[string]bool{}
	for _, rec := range t.Records {
		col := rec.Column(idxMetric).(*array.String)
		for i := 0; i < col.Len(); i++ {
			if m := col.Value(i); !seen[m] {
				seen[m] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		if m != Primary {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	if seen[Primary] {
		out = append([]string{Primary}, out...)
	}
	return out
}
