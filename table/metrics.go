package table

import (
	"sort"
)

// Metrics lists the metrics the table holds (the distinct values of the
// metric column), Primary first when present, the others sorted by name.
// Analyzers and writers use it to Collect each metric in turn.
func (t *Table) Metrics() []string {
	seen := map[string]bool{}
	var used []bool
	for _, rec := range t.Records {
		col := strColOf(rec.Column(idxMetric))
		used = append(used[:0], make([]bool, col.dict.Len())...)
		for _, j := range col.idx {
			used[j] = true
		}
		for j, u := range used {
			if u {
				seen[col.dict.Value(j)] = true
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
