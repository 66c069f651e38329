package steady

import (
	"math"
	"slices"
	"sort"

	"github.com/benchtrim/benchtrim/internal/stats"
)

// trainiSkip is the number of leading points of a fork that Traini et al.'s
// filter_outliers.py never tests for outliers:
//
//	skip = ceil(window / log(1 + ops))
//
// where ops is the number of operations in one iteration (their script:
// ceil(0.1 s / mean iteration value), the 100 ms iteration time of their
// runs). Iterations of long operations warm up over fewer points in value
// but more in count, so the untested prefix grows as ops shrinks: 18 points
// for 10⁵ operations per iteration, 289 for one. ops below 1 counts as 1.
func trainiSkip(window int, ops float64) int {
	if !(ops >= 1) {
		ops = 1
	}
	return int(math.Ceil(float64(window) / math.Log1p(math.Ceil(ops))))
}

// findOutliers returns, in ascending order, the indices of the points of x
// that lie outside the band
//
//	median_w ± width·(Q_w(high) − Q_w(low))
//
// of at least one sliding window w of opt.Window consecutive points that
// contains them; the first skip points belong to no window and are never
// outliers. Quantiles and medians are type 7 (numpy's default). This is the
// outlier rule of Traini et al.'s filter_outliers.py (every window over
// x[skip:], a point flagged by any window), a variant of Barrett et al.'s
// (OOPSLA 2017) Tukey rule, which centres one window on each point. With
// fewer than opt.Window points after skip nothing is flagged (where the
// script's sliding_window_view would fail): a band from so few points is
// wider than their range.
//
// It runs in O(n·Window) time: one sorted window is updated point by
// point, and each point's tightest band comes from a monotone deque over the
// windows' bands. x is not modified; NaN values must have been removed.
// skip < 0 counts as 0; opt.Skip is not read (resolve it with trainiSkip).
func findOutliers(x []float64, opt OutlierOptions, skip int) []int {
	if opt.Disabled {
		return nil
	}
	w := opt.Window
	skip = max(skip, 0)
	n := len(x)
	if w < 1 || n-skip < w {
		return nil
	}
	nw := n - skip - w + 1
	lo := make([]float64, nw)
	hi := make([]float64, nw)
	win := slices.Clone(x[skip : skip+w])
	slices.Sort(win)
	for k := 0; ; k++ {
		med := stats.QuantileSorted(win, 0.5, nil)
		band := opt.Width * (stats.QuantileSorted(win, opt.HighQuantile, nil) - stats.QuantileSorted(win, opt.LowQuantile, nil))
		lo[k], hi[k] = med-band, med+band
		if k+1 == nw {
			break
		}
		// Slide: drop x[skip+k], add x[skip+k+w].
		out, in := x[skip+k], x[skip+k+w]
		i := sort.SearchFloat64s(win, out)
		j := sort.SearchFloat64s(win, in)
		switch {
		case j <= i:
			copy(win[j+1:i+1], win[j:i])
			win[j] = in
		default:
			// in goes after the removed slot: shift left.
			copy(win[i:j-1], win[i+1:j])
			win[j-1] = in
		}
	}
	// Point i (>= skip) lies in windows k = i-skip-w+1 … i-skip, clipped to
	// [0, nw-1]; it is an outlier when it exceeds the smallest upper bound or
	// falls below the largest lower bound among them.
	var outliers []int
	var minHi, maxLo []int // deques of window indices
	next := 0              // next window to push
	for i := skip; i < n; i++ {
		a, b := max(0, i-skip-w+1), min(i-skip, nw-1)
		for ; next <= b; next++ {
			for len(minHi) > 0 && hi[minHi[len(minHi)-1]] >= hi[next] {
				minHi = minHi[:len(minHi)-1]
			}
			minHi = append(minHi, next)
			for len(maxLo) > 0 && lo[maxLo[len(maxLo)-1]] <= lo[next] {
				maxLo = maxLo[:len(maxLo)-1]
			}
			maxLo = append(maxLo, next)
		}
		for minHi[0] < a {
			minHi = minHi[1:]
		}
		for maxLo[0] < a {
			maxLo = maxLo[1:]
		}
		if x[i] > hi[minHi[0]] || x[i] < lo[maxLo[0]] {
			outliers = append(outliers, i)
		}
	}
	return outliers
}
