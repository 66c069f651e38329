package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/table"
)

// labeler shortens benchmark names for the text tables: it drops the
// longest common dotted or slashed prefix of all names (JMH package names),
// shows the mode only when the rows have several, and project@version only
// when they have several.
type labeler struct {
	prefix       string
	showMode     bool
	showVersions bool
}

func newLabeler(ks []table.Key) labeler {
	var lb labeler
	if len(ks) == 0 {
		return lb
	}
	modes, versions := map[string]bool{}, map[[2]string]bool{}
	prefix := ks[0].Benchmark
	for _, k := range ks {
		modes[k.Mode] = true
		versions[[2]string{k.Project, k.Version}] = true
		for !strings.HasPrefix(k.Benchmark, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	// Cut after the last separator, and never swallow a whole name.
	if i := strings.LastIndexAny(prefix, "./"); i >= 0 {
		prefix = prefix[:i+1]
	} else {
		prefix = ""
	}
	for _, k := range ks {
		if len(k.Benchmark) == len(prefix) {
			prefix = ""
		}
	}
	lb.prefix = prefix
	lb.showMode = len(modes) > 1
	lb.showVersions = len(versions) > 1
	return lb
}

func (lb labeler) label(k table.Key) string {
	s := strings.TrimPrefix(k.Benchmark, lb.prefix)
	if k.Params != "" {
		s += "[" + k.Params + "]"
	}
	if lb.showMode {
		s += " (" + k.Mode + ")"
	}
	if lb.showVersions {
		run := k.Project
		if k.Version != "" {
			run += "@" + k.Version
		}
		s = run + " " + s
	}
	return s
}

func nameKey(n Name) table.Key {
	return table.Key{Benchmark: n.Benchmark, Params: n.Params, Mode: n.Mode}
}

// formatNs formats a time in ns with 4 significant digits and a unit:
// "12.11ns", "1.718µs", "3.066ms", "1.234s".
func formatNs(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return fmt.Sprint(ns)
	}
	units := []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if math.Abs(ns) >= u.scale || u.scale == 1 {
			return strconv.FormatFloat(roundSig(ns/u.scale, 4), 'f', -1, 64) + u.name
		}
	}
	return ""
}

// roundSig rounds x to sig significant digits.
func roundSig(x float64, sig int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', sig, 64), 64)
	return v
}

// formatSpread formats the half-width of an interval relative to its
// estimate, as benchstat does: the larger distance from the estimate to a
// bound, "±0.4%" below 1 % and "±12%" above.
func formatSpread(est, lo, hi float64) string {
	h := 100 * math.Max(est-lo, hi-est) / est
	if math.IsNaN(h) {
		return ""
	}
	if h < 0.95 {
		return "±" + strconv.FormatFloat(h, 'f', 1, 64) + "%"
	}
	return "±" + strconv.FormatFloat(h, 'f', 0, 64) + "%"
}

// ratioDigits returns the decimals that show an interval's width with at
// least two significant digits (3 to 5).
func ratioDigits(lo, hi float64) int {
	d := 3
	for d < 5 && (hi-lo) < 10*math.Pow(10, -float64(d)) {
		d++
	}
	return d
}

func formatCI(lo, hi float64, d int) string {
	return "[" + strconv.FormatFloat(lo, 'f', d, 64) + ", " + strconv.FormatFloat(hi, 'f', d, 64) + "]"
}

func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

func formatDelta(d float64) string {
	return strconv.FormatFloat(d, 'f', 2, 64)
}

func confidenceLabel(c float64) string {
	return strconv.FormatFloat(100*c, 'f', -1, 64) + " %"
}

// textTable aligns columns: text left, numbers right.
type textTable struct {
	header []string
	right  []bool
	rows   [][]string
}

func (t *textTable) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *textTable) write(w io.Writer) error {
	width := make([]int, len(t.header))
	for _, r := range append([][]string{t.header}, t.rows...) {
		for j, c := range r {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{t.header}, t.rows...) {
		line := make([]string, len(r))
		for j, c := range r {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if t.right[j] {
				line[j] = pad + c
			} else {
				line[j] = c + pad
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (o *Options) methodLine() string {
	is := "iteration means"
	switch n := o.Bootstrap.InvocationSamples; {
	case n < 0:
		is = "all invocations"
	case n > 0:
		is = fmt.Sprintf("%d invocation samples per iteration", n)
	}
	s := fmt.Sprintf("hierarchical bootstrap: %d resamples, %s percentile intervals, %s, seed %d; U test: two-sided Mann-Whitney on iteration means, α = %v",
		o.Bootstrap.Resamples, confidenceLabel(o.Bootstrap.Confidence), is, o.Seed, o.Alpha)
	if o.DiscardWarmup > 0 {
		s += fmt.Sprintf("; first %d iterations of every fork discarded as warmup", o.DiscardWarmup)
	}
	return s
}

// WriteText writes the report as a benchstat-like table: per benchmark the
// base and test mean time per operation ± the half-width of its interval,
// the ratio test/base with its interval, the U test's p, Cliff's δ, the
// iteration counts and the verdict; then the geomean row, the benchmarks
// that could not be compared, the unmatched ones and a summary line.
func (r *Report) WriteText(w io.Writer) error {
	var ks []table.Key
	for i := range r.Results {
		ks = append(ks, nameKey(r.Results[i].Name))
	}
	for _, u := range r.Unmatched {
		ks = append(ks, nameKey(u.Name))
	}
	lb := newLabeler(ks)
	var b strings.Builder
	fmt.Fprintf(&b, "base: %s\ntest: %s\n", r.Base, r.Test)
	fmt.Fprintln(&b, r.Options.methodLine())
	levels := map[string]bool{}
	for i := range r.Results {
		for _, l := range r.Results[i].Resampled {
			levels[l] = true
		}
	}
	var lv []string
	for _, l := range idNames {
		if levels[l] {
			lv = append(lv, l)
		}
	}
	if len(lv) > 0 {
		fmt.Fprintf(&b, "levels resampled: %s", strings.Join(lv, " > "))
		if levels["run"] {
			fmt.Fprint(&b, " (a run is one input run of a benchmark, pooled when a side has several)")
		}
		b.WriteByte('\n')
	}
	if lb.prefix != "" {
		fmt.Fprintf(&b, "benchmarks: %s…\n", lb.prefix)
	}
	b.WriteByte('\n')
	ci := confidenceLabel(r.Options.Bootstrap.Confidence) + " CI"
	t := &textTable{
		header: []string{"benchmark", "base time/op", "test time/op", "ratio", ci, "p", "Cliff's δ", "", "n", "verdict"},
		right:  []bool{false, true, true, true, false, true, true, false, true, false},
	}
	var failed []string
	for i := range r.Results {
		res := &r.Results[i]
		name := lb.label(nameKey(res.Name))
		if res.Err != nil {
			failed = append(failed, fmt.Sprintf("  %s: %v", name, res.Err))
			continue
		}
		d := ratioDigits(res.Ratio.Lower, res.Ratio.Upper)
		t.add(name,
			formatNs(res.Base.Mean.Estimate)+" "+formatSpread(res.Base.Mean.Estimate, res.Base.Mean.Lower, res.Base.Mean.Upper),
			formatNs(res.Test.Mean.Estimate)+" "+formatSpread(res.Test.Mean.Estimate, res.Test.Mean.Lower, res.Test.Mean.Upper),
			strconv.FormatFloat(res.Ratio.Estimate, 'f', d, 64),
			formatCI(res.Ratio.Lower, res.Ratio.Upper, d),
			formatP(res.P),
			formatDelta(res.CliffsDelta), res.Magnitude.String(),
			fmt.Sprintf("%d+%d", res.Base.Iterations, res.Test.Iterations),
			res.Verdict.String())
	}
	if gb, gt, gr, n := r.Geomean(); n > 0 {
		t.add("geomean", formatNs(gb), formatNs(gt), strconv.FormatFloat(gr, 'f', 3, 64), "", "", "", "", "", formatPercent(100*(gr-1)))
	}
	if err := writeString(w, b.String()); err != nil {
		return err
	}
	b.Reset()
	if err := t.write(w); err != nil {
		return err
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\nnot compared (%d):\n%s\n", len(failed), strings.Join(failed, "\n"))
	}
	for _, side := range []string{"base", "test"} {
		var names []string
		for _, u := range r.Unmatched {
			if u.Side == side {
				names = append(names, lb.label(nameKey(u.Name)))
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, "\nonly in %s (%d, not compared): %s\n", side, len(names), strings.Join(names, ", "))
		}
	}
	few := 0
	for i := range r.Results {
		if res := &r.Results[i]; res.Err == nil && min(res.Base.TopUnits(), res.Test.TopUnits()) < FewUnits {
			few++
		}
	}
	if few > 0 {
		fmt.Fprintf(&b, "\nnote: for %d benchmarks a side has fewer than %d units at its outermost varying level (instances, trials or forks);\n"+
			"their intervals are narrower than true %s intervals, so unchanged benchmarks are flagged more often than %s of the time\n"+
			"(an A/A test measures how often: benchtrim compare --aa)\n",
			few, FewUnits, confidenceLabel(r.Options.Bootstrap.Confidence), formatRate(1-r.Options.Bootstrap.Confidence))
	}
	s := r.Summary()
	fmt.Fprintf(&b, "\n%d compared: %d slower, %d faster, %d no change (ratio %s excludes 1 for %d); U test p < %v for %d",
		s.Compared, s.Slower, s.Faster, s.NoChange, ci, s.Slower+s.Faster, r.Options.Alpha, s.PBelowAlpha)
	if s.Failed > 0 {
		fmt.Fprintf(&b, "; %d not compared", s.Failed)
	}
	if s.OnlyBase+s.OnlyTest > 0 {
		fmt.Fprintf(&b, "; unmatched: %d only in base, %d only in test", s.OnlyBase, s.OnlyTest)
	}
	b.WriteByte('\n')
	return writeString(w, b.String())
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// WriteText writes the A/A report, one table per project@version: with one
// split per run, every comparison; with several, per run the number of
// splits whose interval excludes 1 and whose U test rejects. Then the runs
// that could not be split (counted per reason), a note when halves hold a
// single unit, and the false-positive rates against their nominal values.
func (r *AAReport) WriteText(w io.Writer) error {
	o := &r.Options
	var b strings.Builder
	fmt.Fprintf(&b, "A/A test: every run split by %s into two random halves A and B (%d split(s) per run); B compared with A as in compare\n",
		o.Split, o.Repeats)
	fmt.Fprintln(&b, o.methodLine())
	ci := confidenceLabel(o.Bootstrap.Confidence) + " CI"
	var failed []string
	single := 0
	groups := groupByRun(len(r.Results), func(i int) table.Key { return r.Results[i].Key })
	for _, g := range groups {
		res0 := r.Results[g[0]].Key
		var ks []table.Key
		for i := g[0]; i < g[1]; i++ {
			ks = append(ks, r.Results[i].Key)
		}
		lb := newLabeler(ks)
		b.WriteByte('\n')
		if len(groups) > 1 || runLabel(res0) != "" {
			fmt.Fprintf(&b, "%s\n", runLabel(res0))
		}
		if lb.prefix != "" {
			fmt.Fprintf(&b, "benchmarks: %s…\n", lb.prefix)
		}
		var t *textTable
		if o.Repeats == 1 {
			t = &textTable{
				header: []string{"benchmark", o.Split.String() + "s A+B", "ratio B/A", ci, "p", "Cliff's δ", "", "verdict"},
				right:  []bool{false, true, true, false, true, true, false, false},
			}
		} else {
			t = &textTable{
				header: []string{"benchmark", o.Split.String() + "s A+B", "splits", "CI excludes 1", fmt.Sprintf("p < %v", o.Alpha), "median |ratio − 1|"},
				right:  []bool{false, true, true, true, true, true},
			}
		}
		for i := g[0]; i < g[1]; {
			j := i
			for j < g[1] && r.Results[j].Key == r.Results[i].Key {
				j++
			}
			name := lb.label(r.Results[i].Key)
			var dev []float64
			var excl, rej int
			for k := i; k < j; k++ {
				res := &r.Results[k]
				if res.Err != nil {
					failed = append(failed, fmt.Sprintf("  %s (split %d): %v", res.Key, res.Repeat, res.Err))
					continue
				}
				if min(res.UnitsA, res.UnitsB) == 1 {
					single++
				}
				dev = append(dev, math.Abs(res.Ratio.Estimate-1))
				if res.ExcludesOne() {
					excl++
				}
				if res.P < o.Alpha {
					rej++
				}
				if o.Repeats == 1 {
					d := ratioDigits(res.Ratio.Lower, res.Ratio.Upper)
					t.add(name, fmt.Sprintf("%d+%d", res.UnitsA, res.UnitsB),
						strconv.FormatFloat(res.Ratio.Estimate, 'f', d, 64), formatCI(res.Ratio.Lower, res.Ratio.Upper, d),
						formatP(res.P), formatDelta(res.CliffsDelta), res.Magnitude.String(), res.Verdict.String())
				}
			}
			if o.Repeats > 1 && len(dev) > 0 {
				sort.Float64s(dev)
				med := dev[len(dev)/2]
				if len(dev)%2 == 0 {
					med = (dev[len(dev)/2-1] + med) / 2
				}
				res := &r.Results[i]
				t.add(name, fmt.Sprintf("%d+%d", res.UnitsA, res.UnitsB), strconv.Itoa(len(dev)),
					strconv.Itoa(excl), strconv.Itoa(rej), strconv.FormatFloat(roundSig(100*med, 2), 'f', -1, 64)+" %")
			}
			i = j
		}
		if err := writeString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		if len(t.rows) > 0 {
			if err := t.write(w); err != nil {
				return err
			}
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\nnot compared (%d):\n%s\n", len(failed), strings.Join(failed, "\n"))
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "\nskipped (%d runs with fewer than 2 %ss to split):\n", len(r.Skipped), o.Split)
		sg := groupByRun(len(r.Skipped), func(i int) table.Key { return r.Skipped[i].Key })
		for _, g := range sg {
			reasons := map[string]int{}
			var order []string
			for i := g[0]; i < g[1]; i++ {
				why := r.Skipped[i].Reason
				if reasons[why] == 0 {
					order = append(order, why)
				}
				reasons[why]++
			}
			var parts []string
			for _, why := range order {
				parts = append(parts, fmt.Sprintf("%d with %s", reasons[why], why))
			}
			label := runLabel(r.Skipped[g[0]].Key)
			if label == "" {
				label = "runs"
			}
			fmt.Fprintf(&b, "  %s: %s\n", label, strings.Join(parts, "; "))
		}
	}
	a := r.Rates()
	if single > 0 {
		fmt.Fprintf(&b, "\nnote: %d of %d comparisons have a half with a single %s; the bootstrap cannot resample that level there, so their intervals miss the variation between %ss and tend to exclude 1 more often than nominal\n",
			single, a.Comparisons, o.Split, o.Split)
	}
	l1, l2 := fmt.Sprintf("ratio %s excludes 1:", ci), fmt.Sprintf("U test p < %v:", o.Alpha)
	wd := max(utf8.RuneCountInString(l1), utf8.RuneCountInString(l2))
	pad := func(s string) string { return s + strings.Repeat(" ", wd-utf8.RuneCountInString(s)) }
	fmt.Fprintf(&b, "\nfalse-positive rate over %d comparisons of %d runs:\n", a.Comparisons, a.Benchmarks)
	fmt.Fprintf(&b, "  %s %d (%s; nominal %s = 1 − confidence)\n", pad(l1), a.CIExcludesOne,
		formatRate(a.CIRate), formatRate(1-o.Bootstrap.Confidence))
	fmt.Fprintf(&b, "  %s %d (%s; nominal %s = α)\n", pad(l2), a.PBelowAlpha, formatRate(a.URate), formatRate(o.Alpha))
	return writeString(w, b.String())
}

// runLabel is "project@version", "project" or "" for a run key.
func runLabel(k table.Key) string {
	s := k.Project
	if k.Version != "" {
		s += "@" + k.Version
	}
	return s
}

// groupByRun splits [0, n) into ranges of equal project and version (the
// items are sorted by key).
func groupByRun(n int, key func(int) table.Key) [][2]int {
	var out [][2]int
	for i := 0; i < n; {
		j := i + 1
		for j < n && key(j).Project == key(i).Project && key(j).Version == key(i).Version {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func formatRate(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return strconv.FormatFloat(roundSig(100*x, 3), 'f', -1, 64) + " %"
}
