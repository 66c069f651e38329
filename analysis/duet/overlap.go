package duet

import (
	"cmp"
	"slices"
)

// Overlap is a pair of overlapping iterations of one duet run: indices A
// and B into the run's A and B records (each sorted by iteration), the
// overlap interval and its rate.
type Overlap struct {
	A, B       int
	Start, End int64 // max(start_a, start_b), min(end_a, end_b)
	// Rate is min(overlap/time_a, overlap/time_b) with the recorded times.
	Rate float64
}

// time is the overlap's length End − Start in ns (> 0).
func (o Overlap) time() int64 { return o.End - o.Start }

func overlapOf(a, b []Record, i, j int) (Overlap, bool) {
	s, e := max(a[i].StartNs, b[j].StartNs), min(a[i].EndNs, b[j].EndNs)
	if e-s <= 0 {
		return Overlap{}, false
	}
	t := float64(e - s)
	return Overlap{A: i, B: j, Start: s, End: e, Rate: min(t/a[i].TimeNs, t/b[j].TimeNs)}, true
}

// byStart returns the indices of recs in order of start time (stable, so
// equal starts keep iteration order).
func byStart(recs []Record) []int {
	idx := make([]int, len(recs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(recs[x].StartNs, recs[y].StartNs) })
	return idx
}

// sweepOverlaps returns the overlapping pairs of one duet run found by the
// reference two-pointer sweep (SPEC §4.2, process.py::_compute_overlaps),
// in the order the sweep emits them. With As and Bs sorted by start and
// i = j = 0, while both remain: emit (As[i], Bs[j]) if
// min(end_a, end_b) − max(start_a, start_b) > 0, then advance the pointer
// whose iteration started earlier (on equal starts, i when end_a ≤ end_b,
// else j). It runs in O(n log n) but misses a pair when an iteration of one
// pair overlaps several of the other and is not the earlier-starting one at
// the right moment (D2); allPairsOverlaps finds them.
func sweepOverlaps(a, b []Record) []Overlap {
	as, bs := byStart(a), byStart(b)
	var out []Overlap
	i, j := 0, 0
	for i < len(as) && j < len(bs) {
		x, y := &a[as[i]], &b[bs[j]]
		if o, ok := overlapOf(a, b, as[i], bs[j]); ok {
			out = append(out, o)
		}
		switch {
		case x.StartNs == y.StartNs:
			if x.EndNs <= y.EndNs {
				i++
			} else {
				j++
			}
		case x.StartNs < y.StartNs:
			i++
		default:
			j++
		}
	}
	return out
}

// allPairsOverlaps returns every pair (a, b) of one duet run with
// min(end_a, end_b) − max(start_a, start_b) > 0, the thesis's O_{R^A,R^B},
// ordered by a's start and then b's start. With B sorted by start and the
// running maximum of its ends, each a binary-searches the last b starting
// before end_a and scans back while some earlier b can still end after
// start_a: O(n log n + pairs + skipped) where skipped is bounded by the
// iterations of B nested in others (none in real data, where iterations
// of one pair follow each other).
func allPairsOverlaps(a, b []Record) []Overlap {
	as, bs := byStart(a), byStart(b)
	maxEnd := make([]int64, len(bs))
	for k, j := range bs {
		maxEnd[k] = b[j].EndNs
		if k > 0 {
			maxEnd[k] = max(maxEnd[k], maxEnd[k-1])
		}
	}
	var out []Overlap
	for _, i := range as {
		hi, _ := slices.BinarySearchFunc(bs, a[i].EndNs, func(j int, t int64) int {
			if b[j].StartNs < t {
				return -1
			}
			return 1
		})
		first := len(out)
		for k := hi - 1; k >= 0 && maxEnd[k] > a[i].StartNs; k-- {
			if o, ok := overlapOf(a, b, i, bs[k]); ok {
				out = append(out, o)
			}
		}
		slices.Reverse(out[first:])
	}
	return out
}

// overlaps returns the overlapping pairs of one run by the enumeration e.
func overlaps(a, b []Record, e Enumeration) []Overlap {
	if e == enumerationAll {
		return allPairsOverlaps(a, b)
	}
	return sweepOverlaps(a, b)
}

// filterOverlaps returns the pairs of ov whose overlap is longer than m
// times each iteration's recorded time (SPEC §4.3, eq. 4.1):
//
//	O_m = { (a, b) ∈ O : time_a·m < overlap_time  and  time_b·m < overlap_time },
//
// i.e. overlap rate > m, strictly. A larger m keeps fewer pairs (D3). The
// result is a new slice; ov is not modified.
func filterOverlaps(ov []Overlap, a, b []Record, m float64) []Overlap {
	var out []Overlap
	for _, o := range ov {
		t := float64(o.time())
		if a[o.A].TimeNs*m < t && b[o.B].TimeNs*m < t {
			out = append(out, o)
		}
	}
	return out
}
