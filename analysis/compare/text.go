package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/internal/nonparam"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/table"
)

func (o *Options) methodLine() string {
	is := "iteration means"
	switch n := o.Bootstrap.InvocationSamples; {
	case n < 0:
		is = "all invocations"
	case n > 0:
		is = fmt.Sprintf("%d invocation samples per iteration", n)
	}
	method := "hierarchical bootstrap"
	if o.Bootstrap.PAIndices {
		method = "pa v0.1.0's resampling (--pa: normal-index draws, sorted replicates divided; its intervals, not the bootstrap's)"
	}
	s := fmt.Sprintf("%s: %d resamples, %s percentile intervals, %s, seed %d; U test: two-sided Mann-Whitney on iteration means, α = %v",
		method, o.Bootstrap.Resamples, confidenceLabel(o.Bootstrap.Confidence), is, o.Seed, o.Alpha)
	if o.DiscardWarmup > 0 {
		s += fmt.Sprintf("; first %d iterations of every fork discarded as warmup", o.DiscardWarmup)
	}
	return s
}

// statisticLine names what the table shows and the verdict rests on.
func (o *Options) statisticLine() string {
	s := "statistic: mean (times are means; verdict: the ratio's interval excludes 1)"
	if o.median() {
		rule := "as benchstat's"
		if o.Alpha != benchstatAlpha {
			rule = fmt.Sprintf("benchstat's rule, which it applies at α = %v", benchstatAlpha)
		}
		s = fmt.Sprintf("statistic: median (times are medians of iteration values; verdict: U test p ≤ %v, %s)", o.Alpha, rule)
	}
	if o.MinEffect > 0 {
		s += fmt.Sprintf("; changes under %v %% count as ~ (--min-effect)", o.MinEffect)
	}
	return s
}

// benchstatAlpha is the significance level benchstat's verdicts use.
const benchstatAlpha = 0.05

// unchangedWhy says why a benchmark counts as unchanged: the interval (ci,
// e.g. "99 % CI") contains 1 or, for medians, the U test does not reject;
// or the change is under MinEffect.
func (o *Options) unchangedWhy(ci string) string {
	s := ci + " contains 1"
	if o.median() {
		s = fmt.Sprintf("U test p > %v", o.Alpha)
	}
	if o.MinEffect > 0 {
		s += fmt.Sprintf(" or |Δ| < %v %%", o.MinEffect)
	}
	return s
}

// headline is the one-line answer of the report, the first line WriteText
// prints: "3 of 12 benchmarks changed: 2 slower (up to +25.3 %), 1 faster
// (up to -5.6 %); 9 unchanged (99 % CI contains 1)", then the counts of
// benchmarks not compared and unmatched. Secondary metrics start with the
// metric and say higher and lower. Parts in parentheses are dropped (the
// CI note first) when the line would be wider than width.
func (r *metricRows) headline() string {
	s := r.summary()
	up, down := "slower", "faster"
	if !r.isTime() {
		up, down = "higher", "lower"
	}
	// The largest slowdown and speedup (of time per operation), each as
	// its row shows it (a throughput's score change: shownPercent).
	var maxUp, maxDown, shownUp, shownDown float64
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err != nil {
			continue
		}
		switch p := res.Verdict.Percent; res.Verdict.Change {
		case Slower:
			if p > maxUp {
				maxUp, shownUp = p, res.shownPercent()
			}
		case Faster:
			if p < maxDown {
				maxDown, shownDown = p, res.shownPercent()
			}
		}
	}
	ci := confidenceLabel(r.Options.Bootstrap.Confidence) + " CI"
	lead := ""
	if !r.isTime() {
		lead = r.Metric + ": "
	}
	tail := ""
	if s.failed > 0 {
		tail += fmt.Sprintf("; %d not compared", s.failed)
	}
	if s.onlyBase > 0 {
		tail += fmt.Sprintf("; %d only in base", s.onlyBase)
	}
	if s.onlyTest > 0 {
		tail += fmt.Sprintf("; %d only in test", s.onlyTest)
	}
	// detail 3 says everything; 2 drops the CI note, 1 the largest speedup,
	// 0 the largest slowdown.
	build := func(detail int) string {
		changed := s.slower + s.faster
		switch {
		case s.compared == 0:
			return lead + "no benchmark compared" + tail
		case changed == 0:
			if detail > 2 {
				return lead + fmt.Sprintf("no change in %s (%s for every one)", plural(s.compared, "benchmark"), r.Options.unchangedWhy(ci+" of the ratio")) + tail
			}
			return lead + "no change in " + plural(s.compared, "benchmark") + tail
		}
		var parts []string
		if s.slower > 0 {
			p := fmt.Sprintf("%d %s", s.slower, up)
			if detail > 0 {
				p += " (up to " + formatPercent(shownUp) + ")"
			}
			parts = append(parts, p)
		}
		if s.faster > 0 {
			p := fmt.Sprintf("%d %s", s.faster, down)
			if detail > 1 {
				p += " (up to " + formatPercent(shownDown) + ")"
			}
			parts = append(parts, p)
		}
		line := fmt.Sprintf("%s%d of %d benchmarks changed: %s; %d unchanged", lead, changed, s.compared, strings.Join(parts, ", "), s.noChange)
		if detail > 2 {
			line += " (" + r.Options.unchangedWhy(ci) + ")"
		}
		return line + tail
	}
	for detail := 3; detail >= 0; detail-- {
		if l := build(detail); runeLen(l) <= width {
			return l
		}
	}
	return build(0) // wider than width only with a very long metric name
}

// writeAB writes the A/B report for people, within width columns: the
// headline of the first metric (the one-line answer), the two sets, the
// method, then per metric a benchstat-like table (the primary metric
// first, each secondary metric in its own section with its headline): per
// benchmark the base and test mean ± the half-width of its interval, the
// change test/base in percent with its interval, the U test's p, the
// iteration counts and the verdict, then a geomean row. Then the
// benchmarks that could not be compared, the unmatched ones (the first
// listNames of each side and a count), notes and a summary line.
func (a *Report) writeAB(w io.Writer) error {
	rs := a.byMetric()
	if len(rs) == 0 {
		return writeString(w, "nothing compared\n")
	}
	r := rs[0]
	var ks []table.Key
	for _, rep := range rs {
		for i := range rep.Results {
			ks = append(ks, nameKey(rep.Results[i].Name))
		}
		for _, u := range rep.Unmatched {
			ks = append(ks, nameKey(u.Name))
		}
	}
	lb := newLabeler(ks)
	var b strings.Builder
	b.WriteString(r.headline() + "\n")
	fmt.Fprintf(&b, "base: %s\ntest: %s\n", abbreviate(r.Base, width-6), abbreviate(r.Test, width-6))
	for _, l := range r.Config {
		b.WriteString(abbreviate(l.text(), width) + "\n")
	}
	b.WriteString(reports.Wrap(r.Options.methodLine(), width, "  ") + "\n")
	b.WriteString(reports.Wrap(r.Options.statisticLine(), width, "  ") + "\n")
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
		line := "levels resampled: " + strings.Join(lv, " > ")
		if levels["run"] {
			line += " (a run is one input run of a benchmark, pooled when a side has several)"
		}
		b.WriteString(reports.Wrap(line, width, "  ") + "\n")
	}
	if lb.prefix != "" {
		b.WriteString(strings.Join(breakName("benchmarks: "+lb.prefix+"…", width), "\n") + "\n")
	}
	for i, rep := range rs {
		b.WriteByte('\n')
		if i > 0 {
			b.WriteString(rep.headline() + "\n")
		}
		if err := writeString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		t, footnotes := rep.table(lb)
		if !rep.Options.Wide {
			t.fit(width)
		}
		if err := t.write(w); err != nil {
			return err
		}
		for _, f := range footnotes {
			b.WriteString(reports.Wrap(f, width, "  ") + "\n")
		}
	}
	var failed []string
	for _, rep := range rs {
		for _, i := range rep.inputOrder() {
			if res := &rep.Results[i]; res.Err != nil {
				what := lb.label(nameKey(res.Name), res.procs)
				if !rep.isTime() {
					what += " (" + rep.Metric + ")"
				}
				failed = append(failed, abbreviate("  "+what+": "+res.Err.Error(), width))
			}
		}
	}
	writeFailed(&b, "not compared", failed)
	for _, side := range []string{"base", "test"} {
		var names []string
		for _, i := range r.unmatchedOrder() {
			if u := &r.Unmatched[i]; u.only() == side {
				names = append(names, lb.label(nameKey(u.Name), u.procs))
			}
		}
		if len(names) > 0 {
			b.WriteString("\n" + reports.Wrap(fmt.Sprintf("only in %s (%d, not compared): %s", side, len(names), reports.ListSummary(names, listNames)), width, "  ") + "\n")
		}
	}
	var notes []string
	if thrpt := r.throughputRows(); thrpt > 0 {
		n := fmt.Sprintf("%s in thrpt mode: scores in the file's unit (ops per time, higher is faster), Δ the score's change, "+
			"1/(1 + Δ) − 1 of the time per operation's Δ; -o keeps times per operation (ns), the mode beside them",
			plural(thrpt, "benchmark"))
		if !r.Options.median() {
			n += "; their means are harmonic means of the iteration scores (the mean time per operation as a score), not JMH's score, the scores' arithmetic mean"
		}
		notes = append(notes, n+".")
	}
	if n := r.pooledRows(); n > 0 {
		notes = append(notes, fmt.Sprintf("%s runs of different benchmarks, which the row (--row %s) does not tell apart "+
			"(benchstat: “benchmarks vary in .fullname”); each run is a top-level unit of the bootstrap.", rowsPool(n), r.Options.Row))
	}
	few, nested := 0, 0
	for i := range r.Results {
		res := &r.Results[i]
		if res.Err == nil && min(res.Base.topUnits(), res.Test.topUnits()) < fewUnits {
			few++
		}
		if res.Err == nil && len(res.Resampled) > 0 && res.Resampled[0] != idNames[idIteration] {
			nested++
		}
	}
	if r.Options.median() {
		if nested > 0 {
			notes = append(notes, fmt.Sprintf("for %s the iteration values come from several runs, instances, trials or forks; "+
				"the U test counts them as independent, so unchanged benchmarks are flagged more often than α = %v "+
				"(an A/A test measures how often: benchtrim compare --aa; --rule ratio decides by the hierarchical interval instead)",
				plural(nested, "benchmark"), r.Options.Alpha))
		}
	} else if few > 0 {
		notes = append(notes, fmt.Sprintf("for %s a side has fewer than %d units at its outermost varying level (instances, trials or forks); "+
			"their intervals are narrower than true %s intervals, so unchanged benchmarks are flagged more often than %s of the time "+
			"(an A/A test measures how often: benchtrim compare --aa)",
			plural(few, "benchmark"), fewUnits, confidenceLabel(r.Options.Bootstrap.Confidence), formatRate(1-r.Options.Bootstrap.Confidence)))
	}
	for _, n := range notes {
		b.WriteString("\n" + reports.Wrap("note: "+n, width, "") + "\n")
	}
	s := r.summary()
	ci := confidenceLabel(r.Options.Bootstrap.Confidence) + " CI"
	foot := fmt.Sprintf("%d compared: %d slower, %d faster, %d no change (%s excludes 1 for %d); U test p ≤ %v for %d",
		s.compared, s.slower, s.faster, s.noChange, ci, s.ciExcludesOne, r.Options.Alpha, s.pBelowAlpha)
	if r.Options.median() {
		foot = fmt.Sprintf("%d compared: %d slower, %d faster, %d no change (U test p ≤ %v for %d); %s excludes 1 for %d",
			s.compared, s.slower, s.faster, s.noChange, r.Options.Alpha, s.pBelowAlpha, ci, s.ciExcludesOne)
	}
	if s.failed > 0 {
		foot += fmt.Sprintf("; %d not compared", s.failed)
	}
	if s.onlyBase+s.onlyTest > 0 {
		foot += fmt.Sprintf("; unmatched: %d only in base, %d only in test", s.onlyBase, s.onlyTest)
	}
	b.WriteString("\n" + reports.Wrap(foot, width, "  ") + "\n")
	return writeString(w, b.String())
}

// table returns the report's rows in input order (inputOrder), and the
// footnotes its cells refer to: benchmark, base, test, change with its
// interval, p, n and verdict, and the geomean row. Under the U test
// (benchstat's statistic) base and test are the medians, each followed by
// "± P%", benchstat's half-width of its interval (MedianCI: the larger
// relative distance to a bound, "± ∞" when too few values leave a bound
// open), and the change is that of the medians; footnote marks (¹, ²)
// after ± and p carry benchstat's warnings ("need >= 6 samples for
// confidence interval at level 0.95", "all samples are equal", …),
// numbered in the order they first occur.
//
// A JMH row shows its scores in the unit its file recorded (scoreUnit):
// the header names the unit when every row has it, else each cell does.
// A throughput's Δ is the score's change, 1/(1 + Δ) − 1 of the time's,
// and its interval's bounds swap.
func (r *metricRows) table(lb labeler) (*textTable, []string) {
	ci := confidenceLabel(r.Options.Bootstrap.Confidence) + " CI"
	unit, format := "time/op", formatNs
	if !r.isTime() {
		unit, format = r.Unit, formatValue
	}
	order := r.inputOrder()
	common, mixed := r.scoreUnits(order)
	if common.unit != "" {
		unit = common.unit
	} else if mixed {
		unit = ""
	}
	// show formats a time (ns per operation) of a row as its text shows it.
	show := func(res *Row, ns float64) string {
		if res.score.unit == "" {
			return format(ns)
		}
		v := formatValue(res.score.score(ns))
		if mixed {
			v += " " + res.score.unit
		}
		return v
	}
	median := r.Options.median()
	t := &textTable{
		header: []string{"benchmark", strings.TrimSpace("base " + unit), strings.TrimSpace("test " + unit), "Δ % [" + ci + "]", "p", "n", "verdict"},
		right:  []bool{false, true, true, false, true, true, false},
	}
	if median {
		t.header[3] = "Δ %"
	}
	var notes []string
	mark := func(warning string) string {
		if warning == "" {
			return ""
		}
		i := slices.Index(notes, warning)
		if i < 0 {
			i = len(notes)
			notes = append(notes, warning)
		}
		return superscript(i + 1)
	}
	short := map[Change]string{NoChange: "~", Slower: "slower", Faster: "faster"}
	if !r.isTime() {
		short[Slower], short[Faster] = "higher", "lower"
	}
	// Under the U test a side's cell is "median ± range" and p's is
	// "p mark", each part aligned over the rows (joinAligned).
	var parts [5][]string // base median, base ±, test median, test ±, p
	var marks []string
	for _, i := range order {
		res := &r.Results[i]
		if res.Err != nil {
			continue
		}
		su := res.score
		change := formatChange(su.ratio(res.Ratio))
		if b, t := res.Base.Mean, res.Test.Mean; b.Lower == b.Upper && t.Lower == t.Upper && b.Estimate == t.Estimate {
			change = "all equal" // benchstat: "all samples are equal"
		}
		name := lb.label(nameKey(res.Name), res.procs)
		n := fmt.Sprintf("%d+%d", res.Base.Iterations, res.Test.Iterations)
		if !median {
			cell := func(s *SideStats) string {
				iv := s.Mean
				if su.unit != "" {
					iv = su.interval(iv)
				}
				return show(res, s.Mean.Estimate) + " " + formatSpread(iv.Estimate, iv.Lower, iv.Upper)
			}
			t.add(name, cell(&res.Base), cell(&res.Test), change, formatP(res.P), n, short[res.Verdict.Change])
			continue
		}
		if change != "all equal" {
			change = formatPercent(res.shownPercent())
		}
		pm := func(s *SideStats) string {
			iv := s.MedianCI
			if su.unit != "" {
				iv = su.interval(iv)
			}
			m := "± " + medianRange(iv)
			if math.IsInf(s.MedianCI.Lower, 0) || math.IsInf(s.MedianCI.Upper, 0) {
				m += " " + mark(nonparam.MedianCIWarning(MedianConfidence))
			}
			return m
		}
		parts[0], parts[1] = append(parts[0], show(res, res.Base.Median)), append(parts[1], pm(&res.Base))
		parts[2], parts[3] = append(parts[2], show(res, res.Test.Median)), append(parts[3], pm(&res.Test))
		parts[4], marks = append(parts[4], formatP(res.P)), append(marks, mark(res.UWarning))
		t.add(name, "", "", change, "", n, short[res.Verdict.Change])
	}
	gb, gt, gr, gn := r.geomean(median, func(res *Row, ns float64) float64 { return ns })
	gformat := format
	if common.unit != "" { // the geomean of the scores
		gb, gt, gr, gn = r.geomean(median, func(res *Row, ns float64) float64 { return res.score.score(ns) })
		gformat = formatValue
	}
	if gn > 0 && !median {
		t.add("geomean", gformat(gb), gformat(gt), formatPercent(100*(gr-1)), "", "", "")
	}
	if median {
		if gn > 0 {
			t.add("geomean", "", "", formatPercent(100*(gr-1)), "", "", "")
			parts[0], parts[1] = append(parts[0], gformat(gb)), append(parts[1], "")
			parts[2], parts[3] = append(parts[2], gformat(gt)), append(parts[3], "")
			parts[4], marks = append(parts[4], ""), append(marks, "")
		}
		base, test, p := joinAligned(parts[0], parts[1], " "), joinAligned(parts[2], parts[3], " "), joinAligned(parts[4], marks, "")
		for i := range base {
			row := t.rows[len(t.rows)-len(base)+i]
			row[1], row[2], row[4] = base[i], test[i], p[i]
		}
	}
	for i, w := range notes {
		notes[i] = superscript(i+1) + " " + w
	}
	return t, notes
}

// scoreUnits returns the score unit every compared row of order shares
// (zero when they share none, or show time per operation), and whether
// the rows' units differ, so that each cell names its own.
func (r *metricRows) scoreUnits(order []int) (common scoreUnit, mixed bool) {
	first := true
	for _, i := range order {
		res := &r.Results[i]
		if res.Err != nil {
			continue
		}
		if first {
			common, first = res.score, false
		} else if res.score.unit != common.unit {
			return scoreUnit{}, true
		}
	}
	return common, false
}

// throughputRows counts the compared rows shown as throughput scores.
func (r *metricRows) throughputRows() int {
	n := 0
	for i := range r.Results {
		if res := &r.Results[i]; res.Err == nil && res.score.thrpt {
			n++
		}
	}
	return n
}

// shownPercent is the change the text shows for a result: the verdict's
// Δ, and for a throughput the score's change 100·(1/(1 + Δ/100) − 1).
func (res *Row) shownPercent() float64 {
	if res.score.thrpt {
		return 100 * (1/(1+res.Verdict.Percent/100) - 1)
	}
	return res.Verdict.Percent
}

// medianRange is benchstat's range of a median with its interval, the
// "P%" it prints after ± (benchmath's Summary.PctRangeString):
// 100·max(hi/median − 1, 1 − lo/median) rounded to a whole percent, "∞"
// for an open bound, "?" when a bound's sign differs from the median's,
// "0%" for a median of 0.
func medianRange(ci estimate.Interval) string {
	c, lo, hi := ci.Estimate, ci.Lower, ci.Upper
	switch {
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return "∞"
	case math.IsNaN(c) || math.IsNaN(lo) || math.IsNaN(hi):
		return "?"
	case sign(c) != sign(lo) || sign(c) != sign(hi):
		return "?"
	case c == 0:
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*math.Max(hi/c-1, 1-lo/c))
}

// joinAligned joins heads[i] and tails[i] with sep, the heads
// right-aligned and the tails left-aligned over all i, so that a column of
// "median ± range" cells lines up at the ±. An empty tail adds no sep.
func joinAligned(heads, tails []string, sep string) []string {
	hw, tw := 0, 0
	for i := range heads {
		hw, tw = max(hw, runeLen(heads[i])), max(tw, runeLen(tails[i]))
	}
	out := make([]string, len(heads))
	for i := range heads {
		tail := strings.Repeat(" ", tw-runeLen(tails[i]))
		if tw > 0 {
			tail = sep + tails[i] + tail
			if tails[i] == "" {
				tail = strings.Repeat(" ", runeLen(sep)) + strings.Repeat(" ", tw)
			}
		}
		out[i] = strings.Repeat(" ", hw-runeLen(heads[i])) + heads[i] + tail
	}
	return out
}

// sign is −1, 0 or 1 (go-moremath's mathx.Sign).
func sign(x float64) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// superscript writes n ≥ 1 in superscript digits, as benchstat numbers
// its footnotes: ¹, ², …, ¹⁰.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	d := []rune(digits)
	var out []rune
	for ; n > 0; n /= 10 {
		out = append([]rune{d[n%10]}, out...)
	}
	return string(out)
}

// aaHeadline is the one-line answer of an A/A report: how often the setup
// claims a difference where there is none, against the nominal rates.
func (r *aaReport) aaHeadline() string {
	a := r.rates()
	o := &r.options
	ci := confidenceLabel(o.Bootstrap.Confidence) + " CI"
	if a.comparisons == 0 {
		return fmt.Sprintf("A/A split by %s: nothing compared", o.Split)
	}
	return fmt.Sprintf("A/A split by %s: %s excludes 1 in %d of %d comparisons (%s, nominal %s); p ≤ %v in %d (%s)",
		o.Split, ci, a.ciExcludesOne, a.comparisons, formatRate(a.ciRate), formatRate(1-o.Bootstrap.Confidence), o.Alpha, a.pBelowAlpha, formatRate(a.uRate))
}

// WriteText writes the A/A report within width columns: its headline, then
// one table per project@version: with one split per run, every
// comparison; with several, per run the number of splits whose interval
// excludes 1 and whose U test rejects. Then the runs that could not be
// split (counted per reason), a note when halves hold a single unit, and
// the false-positive rates against their nominal values.
func (r *aaReport) WriteText(w io.Writer) error {
	o := &r.options
	var b strings.Builder
	b.WriteString(r.aaHeadline() + "\n")
	b.WriteString(reports.Wrap(fmt.Sprintf("A/A test: every run split by %s into two random halves A and B (%d split(s) per run); B compared with A as in compare",
		o.Split, o.Repeats), width, "  ") + "\n")
	b.WriteString(reports.Wrap(o.methodLine(), width, "  ") + "\n")
	ci := confidenceLabel(o.Bootstrap.Confidence) + " CI"
	var failed []string
	single := 0
	groups := groupByRun(len(r.results), func(i int) table.Key { return r.results[i].key })
	for _, g := range groups {
		res0 := r.results[g[0]].key
		var ks []table.Key
		for i := g[0]; i < g[1]; i++ {
			ks = append(ks, r.results[i].key)
		}
		lb := newLabeler(ks)
		b.WriteByte('\n')
		if len(groups) > 1 || runLabel(res0) != "" {
			fmt.Fprintf(&b, "%s\n", runLabel(res0))
		}
		if lb.prefix != "" {
			b.WriteString(strings.Join(breakName("benchmarks: "+lb.prefix+"…", width), "\n") + "\n")
		}
		t, f, n := r.groupTable(g, lb, ci)
		failed, single = append(failed, f...), single+n
		if err := writeString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		if len(t.rows) > 0 {
			t.fit(width)
			if err := t.write(w); err != nil {
				return err
			}
		}
	}
	writeFailed(&b, "not compared", failed)
	r.writeSkipped(&b)
	r.writeRates(&b, single, ci)
	return writeString(w, b.String())
}

// groupTable is the table of one run group's A/A comparisons (results
// g[0] to g[1]): one row per comparison with one split per run, else one
// row per benchmark summarising its splits. It also returns the failed
// comparisons' lines and how many comparisons had a half with one unit.
func (r *aaReport) groupTable(g [2]int, lb labeler, ci string) (t *textTable, failed []string, single int) {
	o := &r.options
	if o.Repeats == 1 {
		t = &textTable{
			header: []string{"benchmark", o.Split.String() + "s A+B", "Δ % B vs A [" + ci + "]", "p", "Cliff's δ", "verdict"},
			right:  []bool{false, true, false, true, true, false},
		}
	} else {
		t = &textTable{
			header: []string{"benchmark", o.Split.String() + "s A+B", "splits", "CI excludes 1", fmt.Sprintf("p ≤ %v", o.Alpha), "median |ratio − 1|"},
			right:  []bool{false, true, true, true, true, true},
		}
	}
	for i := g[0]; i < g[1]; {
		j := i
		for j < g[1] && r.results[j].key == r.results[i].key {
			j++
		}
		name := lb.label(r.results[i].key, "")
		var dev []float64
		var excl, rej int
		for k := i; k < j; k++ {
			res := &r.results[k]
			if res.err != nil {
				failed = append(failed, abbreviate(fmt.Sprintf("  %s (split %d): %v", res.key, res.repeat, res.err), width))
				continue
			}
			if min(res.unitsA, res.unitsB) == 1 {
				single++
			}
			dev = append(dev, math.Abs(res.Ratio.Estimate-1))
			if res.excludesOne() {
				excl++
			}
			if res.P <= o.Alpha {
				rej++
			}
			if o.Repeats == 1 {
				verdict := "~"
				if res.Verdict.Change != NoChange {
					verdict = res.Verdict.Change.String()
				}
				t.add(name, fmt.Sprintf("%d+%d", res.unitsA, res.unitsB), formatChange(res.Ratio),
					formatP(res.P), formatDelta(res.CliffsDelta), verdict)
			}
		}
		if o.Repeats > 1 && len(dev) > 0 {
			sort.Float64s(dev)
			med := dev[len(dev)/2]
			if len(dev)%2 == 0 {
				med = (dev[len(dev)/2-1] + med) / 2
			}
			res := &r.results[i]
			t.add(name, fmt.Sprintf("%d+%d", res.unitsA, res.unitsB), strconv.Itoa(len(dev)),
				strconv.Itoa(excl), strconv.Itoa(rej), strconv.FormatFloat(roundSig(100*med, 2), 'f', -1, 64)+" %")
		}
		i = j
	}
	return t, failed, single
}

// writeSkipped lists the runs with too few units to split, per run label
// and reason.
func (r *aaReport) writeSkipped(b *strings.Builder) {
	o := &r.options
	if len(r.skipped) > 0 {
		fmt.Fprintf(b, "\nskipped (%d runs with fewer than 2 %ss to split):\n", len(r.skipped), o.Split)
		sg := groupByRun(len(r.skipped), func(i int) table.Key { return r.skipped[i].key })
		for _, g := range sg {
			reasons := map[string]int{}
			var order []string
			for i := g[0]; i < g[1]; i++ {
				why := r.skipped[i].reason
				if reasons[why] == 0 {
					order = append(order, why)
				}
				reasons[why]++
			}
			var parts []string
			for _, why := range order {
				parts = append(parts, fmt.Sprintf("%d with %s", reasons[why], why))
			}
			label := runLabel(r.skipped[g[0]].key)
			if label == "" {
				label = "runs"
			}
			b.WriteString(reports.Wrap(fmt.Sprintf("  %s: %s", label, strings.Join(parts, "; ")), width, "    ") + "\n")
		}
	}
}

// writeRates writes the single-unit note and the false-positive rates of
// the CI and the U test against their nominal levels.
func (r *aaReport) writeRates(b *strings.Builder, single int, ci string) {
	o := &r.options
	a := r.rates()
	if single > 0 {
		b.WriteString("\n" + reports.Wrap(fmt.Sprintf("note: %d of %d comparisons have a half with a single %s; the bootstrap cannot resample that level there, so their intervals miss the variation between %ss and tend to exclude 1 more often than nominal",
			single, a.comparisons, o.Split, o.Split), width, "") + "\n")
	}
	l1, l2 := fmt.Sprintf("ratio %s excludes 1:", ci), fmt.Sprintf("U test p ≤ %v:", o.Alpha)
	wd := max(runeLen(l1), runeLen(l2))
	pad := func(s string) string { return s + strings.Repeat(" ", wd-runeLen(s)) }
	fmt.Fprintf(b, "\nfalse-positive rate over %d comparisons of %d runs:\n", a.comparisons, a.benchmarks)
	fmt.Fprintf(b, "  %s %d (%s; nominal %s = 1 − confidence)\n", pad(l1), a.ciExcludesOne,
		formatRate(a.ciRate), formatRate(1-o.Bootstrap.Confidence))
	fmt.Fprintf(b, "  %s %d (%s; nominal %s = α)\n", pad(l2), a.pBelowAlpha, formatRate(a.uRate), formatRate(o.Alpha))
	if rate, nominal, what := a.ciRate, 1-o.Bootstrap.Confidence, ci+" excludes 1"; tooNoisy(rate, nominal) || tooNoisy(a.uRate, o.Alpha) {
		if !tooNoisy(rate, nominal) {
			rate, nominal, what = a.uRate, o.Alpha, fmt.Sprintf("p ≤ %v", o.Alpha)
		}
		msg := fmt.Sprintf("too noisy: %s in %s of these A/A comparisons, where nothing changed (nominal %s); "+
			"the measurements are too noisy for A/B verdicts of this setup: record more %ss, or judge changes with --min-effect",
			what, formatRate(rate), formatRate(nominal), o.Split)
		// A number keeps its " %" on its line.
		msg = strings.ReplaceAll(msg, " %", "\ue000%")
		b.WriteString(strings.ReplaceAll(reports.Wrap(msg, width, "  "), "\ue000%", " %") + "\n")
	}
}

// tooNoisy reports whether an A/A false-positive rate is far above its
// nominal level: above twice nominal and 5 points above it.
func tooNoisy(rate, nominal float64) bool {
	return rate > 2*nominal && rate > nominal+0.05
}

// pooledRows counts the rows whose runs are of more than one benchmark
// (name and params, the Col parameter left out): rows of a projection
// (Options.Row) that pools what benchstat calls varying .fullname.
func (r *metricRows) pooledRows() int {
	n := 0
	for i := range r.Results {
		if res := &r.Results[i]; varies(r.Options.Col, res.BaseRuns, res.TestRuns) {
			n++
		}
	}
	return n
}

// varies reports whether the runs differ in benchmark or params, the
// parameter of a "/KEY" col left out.
func varies(col string, runs ...[]table.Key) bool {
	key := colKey(col)
	var first Name
	seen := false
	for _, ks := range runs {
		for _, k := range ks {
			n := Name{Benchmark: k.Benchmark, Params: withoutParam(k.Params, key)}
			if seen && n != first {
				return true
			}
			first, seen = n, true
		}
	}
	return false
}

// rowsPool is "1 row pools" or "N rows pool".
func rowsPool(n int) string {
	if n == 1 {
		return "1 row pools"
	}
	return plural(n, "row") + " pool"
}
