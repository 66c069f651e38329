package duet

// runMean is the mean paired difference of one run.
type runMean struct {
	instance, run int32
	// pairs is the number of pairs; Mean is the mean of time_A − time_B
	// over them, in ns.
	pairs int
	mean  float64
}

// pairByIndex returns the differences time_A − time_B of one seqn or
// syncduet run, pairing the iterations with the same index (SPEC §5,
// process.py::pair_iterations_sequentially: an inner join on iteration).
// Indices missing on one side (timeouts) give no pair; duplicate (pair,
// iteration) records are averaged first, as the reference's pivot_table.
// a and b must be sorted by iteration. dst is reused.
func pairByIndex(dst []float64, a, b []Record) []float64 {
	dst = dst[:0]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Iteration < b[j].Iteration:
			i++
		case a[i].Iteration > b[j].Iteration:
			j++
		default:
			it := a[i].Iteration
			ta, na := 0.0, 0
			for ; i < len(a) && a[i].Iteration == it; i++ {
				ta += a[i].TimeNs
				na++
			}
			tb, nb := 0.0, 0
			for ; j < len(b) && b[j].Iteration == it; j++ {
				tb += b[j].TimeNs
				nb++
			}
			dst = append(dst, ta/float64(na)-tb/float64(nb))
		}
	}
	return dst
}

// pairByOverlap returns the differences time_A − time_B of the pairs in ov
// (SPEC §5: an async duet run's O_m). Pairs are not weighted by overlap
// length, and one iteration may be in several pairs (D12). dst is reused.
func pairByOverlap(dst []float64, ov []Overlap, a, b []Record) []float64 {
	dst = dst[:0]
	for _, o := range ov {
		dst = append(dst, a[o.A].TimeNs-b[o.B].TimeNs)
	}
	return dst
}

// meanOf is the arithmetic mean of x (NaN when empty).
func meanOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// pairedRunMeans pairs each run of one key's warm-up-filtered records (sorted as
// in group) and returns the mean difference A − B of every run with at
// least one pair (SPEC §6 step 3, "run means" sampling): for duet the pairs
// are O_m of the overlaps found by e, otherwise iterations of equal index.
func pairedRunMeans(recs []Record, typ string, m float64, e Enumeration) []runMean {
	var out []runMean
	var d []float64
	for _, r := range runs(recs) {
		if typ == TypeDuet {
			d = pairByOverlap(d, filterOverlaps(overlaps(r.A, r.B, e), r.A, r.B, m), r.A, r.B)
		} else {
			d = pairByIndex(d, r.A, r.B)
		}
		if len(d) > 0 {
			out = append(out, runMean{instance: r.Instance, run: r.Run, pairs: len(d), mean: meanOf(d)})
		}
	}
	return out
}
