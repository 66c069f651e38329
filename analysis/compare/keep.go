package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

// keep returns the series of all that f selects (all of them for a nil
// Filter). A filter that selects nothing from a non-empty list is an error
// that names the filter and lists the first benchmarks that exist (full
// names, as Filter matches them).
func (f *Filter) keep(all []*table.Series) ([]*table.Series, error) {
	kept := f.selectSeries(all)
	if len(kept) > 0 || f == nil || len(all) == 0 {
		return kept, nil
	}
	seen := map[string]bool{}
	var names []string
	for _, s := range all {
		if n := fullName(nameOf(s.Key)); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return nil, fmt.Errorf("filter %q matches none of the %d benchmarks; some that exist: %s", f, len(seen), reports.ListSummary(names, 5))
}

// Metrics lists the metrics to compare: want, or when want is empty every
// metric of the tables, the primary metric first and the others sorted. A
// wanted metric no table has is an error listing those there are.
func wantedMetrics(want []string, tabs ...*table.Table) ([]string, error) {
	seen := map[string]bool{}
	var all []string
	for _, t := range tabs {
		for _, m := range t.Metrics() {
			if !seen[m] {
				seen[m] = true
				all = append(all, m)
			}
		}
	}
	return pickMetrics(want, all, seen)
}

// pickMetrics is Metrics given the tables' metrics, all (each once), and
// the set of them, seen.
func pickMetrics(want, all []string, seen map[string]bool) ([]string, error) {
	sort.SliceStable(all, func(i, j int) bool {
		if (all[i] == table.Primary) != (all[j] == table.Primary) {
			return all[i] == table.Primary
		}
		return all[i] < all[j]
	})
	if len(want) == 0 {
		return all, nil
	}
	for _, m := range want {
		if !seen[m] {
			return nil, fmt.Errorf("%s: the inputs have no such metric; they have %s", m, strings.Join(all, ", "))
		}
	}
	return want, nil
}
