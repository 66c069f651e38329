// Package merge holds what the analyzers' Merge functions share:
// checking that reports come from one run split into parts (shards, or
// chunks of a spooled input) and putting per-benchmark rows back together.
package merge

import (
	"fmt"
	"sort"

	"github.com/benchtrim/benchtrim/table"
)

// optionsDiff returns the first option in which a and b differ (Diff)
// once norm has cleared, in copies, the fields that may differ between
// parts and both selections are unsharded; nil when they are the options
// of one run.
func optionsDiff[O any](a, b O, sel func(*O) *table.Filter, norm func(*O)) *difference {
	*sel(&a), *sel(&b) = sel(&a).Unsharded(), sel(&b).Unsharded()
	norm(&a)
	norm(&b)
	return diffAny(a, b)
}

// Rows concatenates the per-benchmark rows of the parts and sorts them by
// key (stably, so rows of one key keep their order within a part); a key
// in two parts is an error, as parts must hold disjoint benchmark runs.
func Rows[T any](parts [][]T, key func(*T) table.Key) ([]T, error) {
	var out []T
	owner := map[table.Key]int{}
	for pi, p := range parts {
		for i := range p {
			k := key(&p[i])
			if o, ok := owner[k]; ok && o != pi {
				return nil, fmt.Errorf("benchmark run %s is in parts %d and %d: the parts of a merge must hold disjoint benchmark runs", k, o+1, pi+1)
			}
			owner[k] = pi
		}
		out = append(out, p...)
	}
	sort.SliceStable(out, func(i, j int) bool { return key(&out[i]).Less(key(&out[j])) })
	return out, nil
}

// Options returns the options of the merge of parts: those of the first
// part that is not nil, with the selection unsharded and reset applied
// (clearing the fields that belong to one part's run, such as its
// Progress callback), after checking with optionsDiff (sel, norm) that
// every other part was run with the options of the same run. what names
// the analyzer in the errors: a part with other options, and no part at
// all (every part nil).
func Options[R, O any](what string, parts []*R, opts func(*R) O, sel func(*O) *table.Filter, norm, reset func(*O)) (O, error) {
	var out O
	found, first := false, 0
	for i, p := range parts {
		if p == nil {
			continue
		}
		o := opts(p)
		if found {
			if d := optionsDiff(out, o, sel, norm); d != nil {
				return out, fmt.Errorf("%s: part %d was run with other options than part %d: %s is %s in part %d, %s in part %d",
					what, i+1, first+1, d.field, d.b, i+1, d.a, first+1)
			}
			continue
		}
		out, found, first = o, true, i
	}
	if !found {
		return out, fmt.Errorf("%s: no report to merge", what)
	}
	*sel(&out) = sel(&out).Unsharded()
	reset(&out)
	return out, nil
}
