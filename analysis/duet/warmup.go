package duet

import "slices"

// filterWarmup returns the records of one benchmark-env key of the given
// suite that survive the warm-up rule (SPEC §3, D1); recs must be sorted as
// in group. The result is a new slice in the same order; recs is not
// modified.
//
// warmupCode (the author's process.py::preprocess_java), per run with
// iter_max the largest recorded iteration index over both pairs:
//
//	keep iff iteration ≥ iter_max / 2   (real-valued division)
//
// warmupHalf (the thesis text), per run and pair with n iterations: drop
// the first ⌊n/2⌋ in iteration order. Both apply to jvmSuites only; other
// suites (SPEC CPU) and warmupNone keep every record.
func filterWarmup(recs []Record, suite string, rule WarmupRule) []Record {
	out := make([]Record, 0, len(recs))
	if rule == warmupNone || !slices.Contains(jvmSuites, suite) {
		return append(out, recs...)
	}
	for _, r := range runs(recs) {
		switch rule {
		case warmupCode:
			var iterMax int32
			for _, p := range [][]Record{r.A, r.B} {
				for _, x := range p {
					iterMax = max(iterMax, x.Iteration)
				}
			}
			for _, p := range [][]Record{r.A, r.B} {
				for _, x := range p {
					if 2*int64(x.Iteration) >= int64(iterMax) {
						out = append(out, x)
					}
				}
			}
		case warmupHalf:
			out = append(out, r.A[len(r.A)/2:]...)
			out = append(out, r.B[len(r.B)/2:]...)
		}
	}
	return out
}
