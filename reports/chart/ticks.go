package chart

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// NiceTicks returns at most n+1 round tick values covering [lo, hi]: the
// multiples in [lo, hi] of the smallest step m·10^k, m ∈ {1, 2, 2.5, 5,
// 10}, that is at least (hi − lo)/n (Heckbert, "Nice numbers for graph
// labels", Graphics Gems, 1990, with 2.5 added). It always ends and
// always returns at least one finite tick, whatever the range: the range
// is first made drawable by TickRange (an empty, reversed, NaN, infinite
// or narrower than float64 can label range becomes a finite one), n is
// taken within [2, 100], and every tick lies in TickRange(lo, hi).
func NiceTicks(lo, hi float64, n int) []float64 {
	lo, hi = TickRange(lo, hi)
	n = min(max(n, 2), 100)
	// Half the width never overflows, nor does a step of at most that
	// (n >= 2), however far apart ±MaxFloat64 are.
	raw := (hi/2 - lo/2) * (2 / float64(n))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := raw
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if s := m * mag; s >= raw && !math.IsInf(s, 0) {
			step = s
			break
		}
	}
	// Each tick is a multiple of the step, not a running sum of steps
	// (which drifts in its last bits), counted by an integer: the range is
	// at least minRelWidth of its magnitude wide, so the multiples are far
	// below 2⁵³ and every tick differs from the one before. A tick off the
	// range by rounding (3 × 0.1 against 0.3) is moved onto its end.
	c0 := math.Ceil(lo/step - 1e-9)
	count := int(math.Min(math.Floor(hi/step+1e-9)-c0+1, float64(n+1)))
	out := make([]float64, 0, max(count, 1))
	for i := 0; i < count; i++ {
		v := math.Min(math.Max((c0+float64(i))*step, lo), hi)
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, lo)
	}
	return out
}

// minRelWidth is the narrowest range, relative to its largest magnitude,
// that TickRange keeps: about 4,500 float64 steps, so that ticks 1/5 of
// it apart have distinct values and labels of at most 13 digits.
const minRelWidth = 1e-12

// minWidth is the narrowest range TickRange keeps near 0, far above the
// subnormal numbers, whose powers of ten underflow.
const minWidth = 1e-300

// TickRange returns the range NiceTicks puts its ticks in: [lo, hi] when it
// is finite and at least max(minRelWidth·max(|lo|, |hi|), minWidth) wide;
// otherwise a finite one near it. NaN takes the other end's value ([0, 1]
// when both are NaN), ±Inf becomes ±MaxFloat64, a reversed range is
// turned round, and a range narrower than that minimum widens upwards from
// lo to it (to max(1, minimum) when empty, [lo, lo+1] as a rule),
// downwards from hi where that would overflow.
func TickRange(lo, hi float64) (float64, float64) {
	switch {
	case math.IsNaN(lo) && math.IsNaN(hi):
		return 0, 1
	case math.IsNaN(lo):
		lo = hi
	case math.IsNaN(hi):
		hi = lo
	}
	lo = math.Max(math.Min(lo, math.MaxFloat64), -math.MaxFloat64)
	hi = math.Max(math.Min(hi, math.MaxFloat64), -math.MaxFloat64)
	if lo > hi {
		lo, hi = hi, lo
	}
	w := math.Max(minRelWidth*math.Max(math.Abs(lo), math.Abs(hi)), minWidth)
	if hi-lo >= w {
		return lo, hi
	}
	if hi == lo {
		w = math.Max(w, 1)
	}
	if lo+w <= math.MaxFloat64 {
		return lo, lo + w
	}
	return hi - w, hi
}

// TickLabel formats a tick value: an integer without decimals, anything
// else with 4 significant digits.
func TickLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// LogLabels formats the ticks vs of one log axis in one notation: plain
// when every tick lies from 0.001 to 99999 (0.002, 20, 5000), otherwise
// every one with a short exponent (1e3, 1e4, 1e5, 2e-4), so that an axis
// never reads 10000 beside 1e5.
func LogLabels(vs []float64) []string {
	plain := true
	for _, v := range vs {
		plain = plain && v >= 1e-3 && v < 1e5
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		if plain {
			out[i] = strconv.FormatFloat(v, 'f', -1, 64)
			continue
		}
		s := strconv.FormatFloat(v, 'e', -1, 64)
		for _, r := range [][2]string{{"e+0", "e"}, {"e+", "e"}, {"e-0", "e-"}} {
			s = strings.Replace(s, r[0], r[1], 1)
		}
		out[i] = s
	}
	return out
}

// Spread reports which of the tick labels centred at pos (increasing),
// each width[i] wide, to keep so that no two kept ones come closer than
// gap: the labels are taken in order of rank (lower first; ties left to
// right), each kept unless it would overlap one kept before, so that an
// axis keeps its round ticks (1, 10, 100) and drops the crowded ones
// between (1.1 beside 1 and 1.25).
func Spread(pos, width []float64, rank []int, gap float64) []bool {
	order := make([]int, len(pos))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rank[order[a]] < rank[order[b]] })
	keep := make([]bool, len(pos))
	for _, i := range order {
		ok := true
		for j := range pos {
			if keep[j] && math.Abs(pos[i]-pos[j]) < (width[i]+width[j])/2+gap {
				ok = false
				break
			}
		}
		keep[i] = ok
	}
	return keep
}

// tick is one tick of an axis; minor ticks have no label and no grid
// line.
type tick struct {
	v     float64
	label string
	minor bool
}

// ticks returns the ticks of axis a over [lo, hi]:
//   - nominal: one per name at 0, 1, …;
//   - log: the powers of ten, with minor ticks at 2…9 times them, and
//     labelled 2× and 5× ticks too when fewer than two powers fall in the
//     range;
//   - linear: NiceTicks(lo, hi, 5), with a step of at least 1 for an
//     Integer axis.
func (a *Axis) ticks(lo, hi float64) []tick {
	var out []tick
	switch {
	case len(a.Names) > 0:
		for i, name := range a.Names {
			if v := float64(i); v >= lo && v <= hi {
				out = append(out, tick{v: v, label: name})
			}
		}
	case a.Log:
		k0, k1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
		powers := 0
		for k := k0; k <= k1; k++ {
			if p := math.Pow(10, k); p >= lo*(1-1e-12) && p <= hi*(1+1e-12) && !math.IsInf(p, 0) {
				powers++
			}
		}
		for k := k0; k <= k1; k++ {
			p := math.Pow(10, k)
			for m := 1.0; m <= 9; m++ {
				v := m * p
				if v < lo*(1-1e-12) || v > hi*(1+1e-12) || math.IsInf(v, 0) {
					continue
				}
				labelled := m == 1 || powers < 2 && (m == 2 || m == 5)
				out = append(out, tick{v: v, minor: !labelled})
			}
		}
		var vs []float64
		for _, t := range out {
			if !t.minor {
				vs = append(vs, t.v)
			}
		}
		labels := LogLabels(vs)
		for i, j := 0, 0; i < len(out); i++ {
			if !out[i].minor {
				out[i].label, j = labels[j], j+1
			}
		}
	default:
		vs := NiceTicks(lo, hi, 5)
		if a.Integer && len(vs) > 1 && vs[1]-vs[0] < 1 {
			vs = nil
			for v := math.Ceil(lo); v <= hi; v++ {
				vs = append(vs, v)
			}
		}
		for i, v := range vs {
			if math.Abs(v) < 2e-12*(hi/2-lo/2) {
				vs[i] = 0 // not -1.2e-17 from the step arithmetic
			}
		}
		for i, l := range linearLabels(vs, a.Integer) {
			out = append(out, tick{v: vs[i], label: l})
		}
	}
	return out
}

// linearLabels labels the evenly spaced ticks vs: without decimals when
// they are all integers (or integer is set), otherwise with the fewest
// significant digits (%g) that read back within a thousandth of a step
// of every tick, so that ticks close together on a large value (1e9 + 0.2,
// 1e9 + 0.4) get distinct labels.
func linearLabels(vs []float64, integer bool) []string {
	out := make([]string, len(vs))
	whole := true
	for _, v := range vs {
		whole = whole && v == math.Trunc(v) && math.Abs(v) < 1e15
	}
	if whole || integer {
		for i, v := range vs {
			out[i] = strconv.FormatFloat(v, 'f', 0, 64)
		}
		return out
	}
	step := math.Inf(1)
	for i := 1; i < len(vs); i++ {
		step = math.Min(step, vs[i]-vs[i-1])
	}
	for prec := 1; prec <= 17; prec++ {
		ok := true
		for i, v := range vs {
			out[i] = strconv.FormatFloat(v, 'g', prec, 64)
			back, _ := strconv.ParseFloat(out[i], 64)
			if !(math.Abs(back-v) <= 1e-3*step) {
				ok = false
			}
		}
		if ok {
			break
		}
	}
	return out
}

// scale maps data coordinates of one axis onto [p0, p1] in points.
type scale struct {
	lo, hi, p0, p1 float64
	log            bool
}

// at returns the position of v: p0 + (p1 − p0)·(f(v) − f(lo))/(f(hi) −
// f(lo)) with f the identity or log10.
func (s scale) at(v float64) float64 {
	lo, hi := s.lo, s.hi
	if s.log {
		v, lo, hi = math.Log10(v), math.Log10(lo), math.Log10(hi)
	}
	p := s.p0 + (s.p1-s.p0)*(v-lo)/(hi-lo)
	if math.IsInf(p, 0) || math.IsNaN(p) && !math.IsNaN(v) {
		// A range or a value near ±MaxFloat64: the same in halves, the
		// share before the points.
		p = s.p0 + (s.p1-s.p0)*((v/2-lo/2)/(hi/2-lo/2))
	}
	// A value far off the page (clipped away) stays a finite coordinate.
	return math.Max(math.Min(p, farOff), -farOff)
}

// minNormal is the smallest normal float64, the lowest end of a log axis
// (math.Log10 is not exact on subnormal numbers).
const minNormal = 0x1p-1022

// farOff bounds a position in points: 10⁷, far beyond any page, so that
// the visible part of a line towards such a point moves by less than
// 0.01 point.
const farOff = 1e7

// margin is the share of the data range added at either end of an axis
// that is not fixed, so that marks at the extremes are not cut in half.
const margin = 0.04

// axisRange returns the range to draw axis a over, given the data's
// [lo, hi] (lo > hi when there is no data): a fixed range when set,
// the nominal positions' range for names, and otherwise the data's,
// widened when it is a single value (or narrower than TickRange keeps:
// values that differ in their last bits), then by margin at either end
// (in log10 on a log axis), within ±MaxFloat64 (from minNormal up on a
// log axis).
func (a *Axis) axisRange(lo, hi float64) (float64, float64) {
	if a.Log && lo <= hi {
		lo, hi = math.Max(lo, minNormal), math.Max(hi, minNormal)
	}
	narrow := hi-lo < math.Max(minRelWidth*math.Max(math.Abs(lo), math.Abs(hi)), minWidth)
	switch {
	case a.Min < a.Max:
		return a.Min, a.Max
	case len(a.Names) > 0:
		return math.Min(-0.5, lo), math.Max(float64(len(a.Names))-0.5, hi)
	case lo > hi:
		if a.Log {
			return 1, 10
		}
		return 0, 1
	case narrow && a.Log:
		lo, hi = math.Max(lo/10, minNormal), math.Min(hi*10, math.MaxFloat64)
	case narrow:
		mid := lo/2 + hi/2
		d := math.Max(math.Abs(mid)/10, 1)
		lo, hi = math.Max(mid-d, -math.MaxFloat64), math.Min(mid+d, math.MaxFloat64)
	}
	if a.Log {
		d := margin * (math.Log10(hi) - math.Log10(lo))
		return math.Max(lo/math.Pow(10, d), minNormal), math.Min(hi*math.Pow(10, d), math.MaxFloat64)
	}
	d := margin*hi - margin*lo
	return math.Max(lo-d, -math.MaxFloat64), math.Min(hi+d, math.MaxFloat64)
}
