package optimize

import (
	"math"
	"sort"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
)

// changeLimits are the change-rate limits of the per-project summary:
// the paper's Fig. 3 reports the fractions of benchmarks whose change rate
// is at most 1 %, 3 % and 5 % (and 10 % in the replication package).
var changeLimits = [4]float64{0.01, 0.03, 0.05, 0.10}

// methodSummary totals one method over the benchmarks of a project.
type methodSummary struct {
	// timeNs is the execution time of the method's configurations, summed.
	timeNs int64
	// saved is the fraction of the full execution time saved,
	// 1 − TimeNs / FullTimeNs.
	saved float64
	// within[i] is the fraction of benchmarks whose change rate is
	// ≤ changeLimits[i] (≤, as the replication package's analyze_quality.py).
	within [len(changeLimits)]float64
	// medianChange and maxChange summarise the change rates.
	medianChange, maxChange float64
	// worstCILower and worstCIUpper are the largest absolute relative
	// differences of the CI bounds against the full configuration.
	worstCILower, worstCIUpper float64
}

// summary is the per-project summary of one metric: the paper's time
// savings (Table 3) and change-rate fractions (Fig. 3) in numbers.
type summary struct {
	project, version string
	metric           Metric
	// benchmarks counts the benchmark runs; reduced, notReduced and
	// tooFewRepetitions split them by status.
	benchmarks, reduced, notReduced, tooFewRepetitions int
	// fullTimeNs is the execution time of all full configurations.
	fullTimeNs int64
	// methods is indexed by method.
	methods [numMethods]methodSummary
}

// summarize groups results by (project, version, metric) and totals each
// group: execution time of the full configurations and of each method's,
// the fraction saved, and the fractions of benchmarks whose change rate
// c = |r_m − r_full| / r_full is within 1 %, 3 %, 5 % and 10 %. A NaN change
// rate (full average 0) counts as outside every limit. Groups are ordered by
// project, version (natural order, see versionLess) and metric.
func summarize(results []Result) []summary {
	type gkey struct {
		project, version string
		metric           Metric
	}
	groups := map[gkey][]int{}
	var keys []gkey
	for i := range results {
		r := &results[i]
		k := gkey{r.Key.Project, r.Key.Version, r.Metric}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.project != b.project {
			return a.project < b.project
		}
		if a.version != b.version {
			return versionLess(a.version, b.version)
		}
		return a.metric < b.metric
	})
	out := make([]summary, 0, len(keys))
	for _, k := range keys {
		idx := groups[k]
		s := summary{project: k.project, version: k.version, metric: k.metric, benchmarks: len(idx)}
		for _, i := range idx {
			r := &results[i]
			s.fullTimeNs += r.Full.TimeNs
			switch r.Status {
			case StatusReduced:
				s.reduced++
			case StatusNotReduced:
				s.notReduced++
			default:
				s.tooFewRepetitions++
			}
		}
		for m := Method(0); m < numMethods; m++ {
			ms := &s.methods[m]
			changes := make([]float64, 0, len(idx))
			for _, i := range idx {
				r := &results[i]
				ms.timeNs += r.eval(m).TimeNs
				c := r.changeRate(m)
				for j, lim := range changeLimits {
					if c <= lim {
						ms.within[j]++
					}
				}
				if !math.IsNaN(c) {
					changes = append(changes, c)
				}
				lo, up := r.ciDiff(m)
				ms.worstCILower = nanMax(ms.worstCILower, math.Abs(lo))
				ms.worstCIUpper = nanMax(ms.worstCIUpper, math.Abs(up))
			}
			for j := range ms.within {
				ms.within[j] /= float64(len(idx))
			}
			ms.saved = 1 - float64(ms.timeNs)/float64(s.fullTimeNs)
			ms.medianChange, ms.maxChange = math.NaN(), math.NaN()
			if len(changes) > 0 {
				sort.Float64s(changes)
				ms.medianChange = changes[len(changes)/2]
				if len(changes)%2 == 0 {
					ms.medianChange = (changes[len(changes)/2-1] + changes[len(changes)/2]) / 2
				}
				ms.maxChange = changes[len(changes)-1]
			}
		}
		out = append(out, s)
	}
	return out
}

// nanMax is max(a, b) ignoring a NaN b.
func nanMax(a, b float64) float64 {
	if math.IsNaN(b) || b <= a {
		return a
	}
	return b
}

// metricPair compares the change rates of two metrics (the paper's RQ2).
type metricPair struct {
	a, b Metric
	// dunn is dunn's post-hoc test of the pair (Bonferroni-adjusted).
	dunn estimate.DunnPair
	// delta is Cliff's δ of A's change rates against B's: positive when A
	// tends to change the result more (is less accurate).
	delta     float64
	magnitude estimate.Magnitude
}

// metricComparison is the RQ2 comparison of the metrics on one project
// version: Kruskal-Wallis H over the change-rate distributions of the
// metrics, then Dunn's test and Cliff's δ for every pair.
type metricComparison struct {
	project, version string
	metrics          []Metric
	// sizes[i] is the number of finite change rates of Metrics[i].
	sizes   []int
	kruskal estimate.KruskalWallisResult
	pairs   []metricPair
}

// compareMetrics compares the metrics' change-rate distributions of µOpTime's
// choices per (project, version), as the paper's RQ2: a Kruskal-Wallis H test
// over the groups, Dunn's post-hoc test with Bonferroni correction at level
// alpha (0 means nonparam.DefaultDunnAlpha, 0.01) and Cliff's δ with the
// magnitude labels of Romano et al. (negligible < 0.147 ≤ small < 0.33 ≤
// medium < 0.474 ≤ large). Groups with fewer than two metrics are left out;
// NaN change rates are dropped (Sizes counts what is left).
//
// The replication package compared the signed average differences; this
// compares the change rates c = |r_m − r_full| / r_full, as issue 3 asks.
func compareMetrics(results []Result, alpha float64) ([]metricComparison, error) {
	type gkey struct{ project, version string }
	groups := map[gkey]map[Metric][]float64{}
	var keys []gkey
	for i := range results {
		r := &results[i]
		k := gkey{r.Key.Project, r.Key.Version}
		g, ok := groups[k]
		if !ok {
			g = map[Metric][]float64{}
			groups[k] = g
			keys = append(keys, k)
		}
		if c := r.changeRate(MethodUOpTime); !math.IsNaN(c) {
			g[r.Metric] = append(g[r.Metric], c)
		} else if _, ok := g[r.Metric]; !ok {
			g[r.Metric] = nil
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].project != keys[j].project {
			return keys[i].project < keys[j].project
		}
		return versionLess(keys[i].version, keys[j].version)
	})
	var out []metricComparison
	for _, k := range keys {
		g := groups[k]
		mc := metricComparison{project: k.project, version: k.version}
		var data [][]float64
		for m := Metric(0); m < numMetrics; m++ {
			if x, ok := g[m]; ok && len(x) > 0 {
				mc.metrics = append(mc.metrics, m)
				mc.sizes = append(mc.sizes, len(x))
				data = append(data, x)
			}
		}
		if len(data) < 2 {
			continue
		}
		kw, err := nonparam.KruskalWallis(data)
		if err != nil {
			return nil, err
		}
		mc.kruskal = kw
		dunn, err := nonparam.Dunn(data, nonparam.DunnOptions{Alpha: alpha})
		if err != nil {
			return nil, err
		}
		for _, d := range dunn {
			delta, err := nonparam.CliffsDelta(data[d.I], data[d.J])
			if err != nil {
				return nil, err
			}
			mc.pairs = append(mc.pairs, metricPair{a: mc.metrics[d.I], b: mc.metrics[d.J], dunn: d,
				delta: delta, magnitude: nonparam.CliffMagnitude(delta)})
		}
		out = append(out, mc)
	}
	return out, nil
}

// versionLess orders version labels naturally: runs of digits compare as
// numbers, everything else byte-wise, so v0.9.0 < v0.10.0 and v1.2 < v1.10.
// Equal labels up to leading zeros compare byte-wise.
func versionLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := trimZeros(a[si:i]), trimZeros(b[sj:j])
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	if len(a)-i != len(b)-j {
		return len(a)-i < len(b)-j
	}
	return a < b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
