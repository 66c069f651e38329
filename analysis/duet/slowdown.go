package duet

import "math"

// slowdownB returns a copy of one key's records with B emulated s slower
// (SPEC §12.1, process.py::alter_score; the factor is 1 + s, D8). Apply it
// after the warm-up filter; A records are copied unchanged and recs must be
// sorted as in group.
//
// For duet, per run with B's durations t_1 … t_n in iteration order and
// D_k = s·Σ_{j≤k} t_j (D_0 = 0):
//
//	start'_k = start_k + D_{k−1},  end'_k = end_k + D_k,  time'_k = (1 + s)·t_k,
//
// so the gaps start_{k+1} − end_k are kept and the shift starts at the
// first retained iteration. Shifts are rounded to whole ns. For seqn and
// syncduet time' = (1 + s)·t and end' = start + time' (timestamps do not
// matter for their pairing). dst is reused.
func slowdownB(dst, recs []Record, typ string, s float64) []Record {
	dst = append(dst[:0], recs...)
	if s == 0 {
		return dst
	}
	var d float64
	for i := range dst {
		r := &dst[i]
		if r.Pair != 'B' {
			continue
		}
		if i == 0 || !dst[i-1].sameRun(r) || dst[i-1].Pair != 'B' {
			d = 0 // first B record of a run
		}
		t := r.TimeNs
		r.TimeNs = (1 + s) * t
		if typ == TypeDuet {
			r.StartNs += int64(math.Round(d))
			d += s * t
			r.EndNs += int64(math.Round(d))
		} else {
			r.EndNs = r.StartNs + int64(math.Round(r.TimeNs))
		}
	}
	return dst
}

// relativeOverlapTime is the share of iteration time covered by the pairs
// of O_m (SPEC §11, eq. 5.2):
//
//	Σ_{(a,b) ∈ O_m, all runs} overlap_time(a, b) / ( ½ · Σ_{all A and B iterations} time )
//
// overlapNs is the numerator and totalNs the sum of all iteration times.
// NaN when there is no pair (the key is absent from Fig 5.2, not 0).
func relativeOverlapTime(overlapNs, totalNs float64, pairs int) float64 {
	if pairs == 0 {
		return math.NaN()
	}
	return overlapNs / (totalNs / 2)
}
