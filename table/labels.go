package table

import "strings"

// Labels lists the (project, version) labels of t's primary rows in the
// order they first appear in t: the order of the files as they were read.
// Analyses that order versions by their labels do not need it; compare's
// --col .config orders the two sides by it, as benchstat orders its
// columns by the order of its inputs.
func (t *Table) Labels() [][2]string {
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, rec := range t.Records {
		c := columnsOf(rec)
		for i := 0; i < int(rec.NumRows()); i++ {
			if c.metric.Value(i) != Primary {
				continue
			}
			l := [2]string{c.project.Value(i), c.version.Value(i)}
			if !seen[l] {
				l = [2]string{strings.Clone(l[0]), strings.Clone(l[1])} // not the record's buffers
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}
