package compare

import (
	"fmt"
	"sort"
)

// Merge combines A/B reports of one metric over disjoint sets of
// benchmarks (the parts of a split run, equal sides, metric and options)
// into the report compareSets gives on their union: results and unmatched
// benchmarks sorted by name, as match sorts them, each with its input
// position (the same in every part of a spooled input: tablefile.Spool.Read),
// by which the text and the data table order them. Every result is a
// function of its own benchmark's runs and of the seed (its resamples
// draw from the stream named by the benchmark), so the merged report
// equals the unsplit one. nil parts are skipped; a benchmark in two parts
// is an error.
func Merge(parts []*Report) (*Report, error) {
	var out *Report
	seen := map[Name]bool{}
	for i, p := range parts {
		if p == nil {
			continue
		}
		if out == nil {
			c := *p
			c.Results, c.Unmatched = nil, nil
			c.Options.Progress = nil
			out = &c
		} else if p.Base != out.Base || p.Test != out.Test || p.Metric != out.Metric || p.Unit != out.Unit {
			return nil, fmt.Errorf("compare: part %d compares %s %s → %s, part 1 %s %s → %s", i+1, p.Metric, p.Base, p.Test, out.Metric, out.Base, out.Test)
		} else {
			out.Config = mergeConfig(out.Config, p.Config)
		}
		for _, r := range p.Results {
			if seen[r.Name] {
				return nil, fmt.Errorf("compare: benchmark %s is in two parts", fullName(r.Name))
			}
			seen[r.Name] = true
			out.Results = append(out.Results, r)
		}
		for _, u := range p.Unmatched {
			if seen[u.Name] {
				return nil, fmt.Errorf("compare: benchmark %s is in two parts", fullName(u.Name))
			}
			seen[u.Name] = true
			out.Unmatched = append(out.Unmatched, u)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("compare: no report to merge")
	}
	sort.SliceStable(out.Results, func(i, j int) bool { return out.Results[i].Name.less(out.Results[j].Name) })
	sort.SliceStable(out.Unmatched, func(i, j int) bool { return out.Unmatched[i].Name.less(out.Unmatched[j].Name) })
	return out, nil
}
