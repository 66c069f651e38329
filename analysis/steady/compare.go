package steady

import (
	"fmt"
	"math"

	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/internal/stats"
)

// score names a per-fork error of a configuration.
type score int

const (
	// scoreWEE is the warmup estimation error |wt − st| in seconds.
	scoreWEE score = iota
	// scoreRPD is the relative performance deviation.
	scoreRPD
)

// String returns "WEE" or "RPD".
func (s score) String() string {
	if s == scoreWEE {
		return "WEE"
	}
	return "RPD"
}

// value returns the score of fe and its Â12 pre-transformation (Traini et
// al.'s rq5.py: WEE below 5 s and RPD below 5 % count as 0).
func (s score) value(fe *ForkEvaluation) (raw, transformed float64) {
	switch s {
	case scoreWEE:
		raw = fe.WEE
		if raw < estimationTolerance {
			return raw, 0
		}
	default:
		raw = fe.RPD
		if raw < rpdTolerance {
			return raw, 0
		}
	}
	return raw, raw
}

// comparison contrasts one score of two configuration sets over the steady
// forks that both run.
type comparison struct {
	score score
	// a and b name the sets; N is the number of forks compared.
	a, b string
	n    int
	// medianA and medianB are the medians of the raw scores.
	medianA, medianB float64
	// p is the two-sided p-value of the Wilcoxon rank-sum (Mann-Whitney U)
	// test on the raw scores.
	p float64
	// a12 is Vargha and Delaney's Â12 = P(a > b) + ½·P(a = b) on the
	// pre-transformed scores: above 0.5 set A tends to larger errors.
	a12 float64
	// magnitude labels A12 (negligible, small, medium, large).
	magnitude string
}

// compare contrasts configuration sets a and b (indices into
// Options.Configs) on the WEE and RPD of every steady fork that both sets
// run and score (NaN scores are left out), as Traini et al. compare
// developers' configurations with dynamic reconfiguration (RQ5): a
// two-sided Wilcoxon rank-sum test (nonparam.MannWhitneyU, scipy's
// defaults) on the raw scores, and Vargha-Delaney Â12 on scores where
// errors within tolerance (WEE < 5 s, RPD < 0.05) count as 0. Traini's
// script used the paired signed-rank test (scipy.stats.wilcoxon) on the same
// fork pairs; the rank-sum test ignores the pairing. Comparisons with no
// fork have N 0 and NaN statistics.
func compare(res *Report, a, b int) ([]comparison, error) {
	if a < 0 || b < 0 || a >= len(res.Options.Configs) || b >= len(res.Options.Configs) {
		return nil, fmt.Errorf("steady: Compare: configuration sets %d and %d, have %d", a, b, len(res.Options.Configs))
	}
	var out []comparison
	for _, score := range []score{scoreWEE, scoreRPD} {
		c := comparison{score: score, a: res.Options.Configs[a].Name, b: res.Options.Configs[b].Name,
			medianA: nan, medianB: nan, p: nan, a12: nan, magnitude: "-"}
		var rawA, rawB, trA, trB []float64
		for i := range res.Benchmarks {
			br := &res.Benchmarks[i]
			if len(br.Evaluations) <= max(a, b) {
				continue
			}
			ea, eb := &br.Evaluations[a], &br.Evaluations[b]
			if !ea.Configured || !eb.Configured {
				continue
			}
			for f := range br.Forks {
				if f >= len(ea.Forks) || f >= len(eb.Forks) {
					continue
				}
				fa, fb := &ea.Forks[f], &eb.Forks[f]
				if !fa.Run || !fb.Run || fa.Class != ForkSteady {
					continue
				}
				ra, ta := score.value(fa)
				rb, tb := score.value(fb)
				if math.IsNaN(ra) || math.IsNaN(rb) {
					continue
				}
				rawA, rawB = append(rawA, ra), append(rawB, rb)
				trA, trB = append(trA, ta), append(trB, tb)
			}
		}
		c.n = len(rawA)
		if c.n > 0 {
			c.medianA, c.medianB = stats.Median(rawA, nil), stats.Median(rawB, nil)
			mw, err := nonparam.MannWhitneyU(rawA, rawB)
			if err != nil {
				return nil, err
			}
			c.p = mw.P
			if c.a12, err = nonparam.VarghaDelaneyA12(trA, trB); err != nil {
				return nil, err
			}
			c.magnitude = nonparam.A12Magnitude(c.a12).String()
		}
		out = append(out, c)
	}
	return out, nil
}
