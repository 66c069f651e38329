// Package page renders benchtrim trim's outcome as one self-contained
// HTML page: inline SVG plots and CSS, a little vanilla JavaScript to sort
// and filter tables, no network requests, so it opens from disk.
//
// It sits at the end of benchtrim's flow, after analysis/trim: it reads
// only the data files trim writes (trim.Frames: the plan and the analyses'
// frames, as CSV, Arrow or Parquet), either from a directory (loadDir, what
// `benchtrim report DIR` does) or from the frames in memory (fromFrames,
// what `benchtrim trim --out-dir` does, with the cells of their CSV form
// and no CSV in between), so a page rebuilt from saved files is the page
// trim wrote. Each section of the page declares the columns it reads from
// each frame (sections, in columns.go): a frame without one is an error
// naming the frame and the column, never a blank cell.
//
// The page starts with the answer (the suite's time before and after, the
// share of trimmed benchmarks whose estimate stays within 1, 3 and 5 %),
// then one section per analysis that ran: trim/optimize (time per
// benchmark, change rate per benchmark, the plan), steady (worst forks with
// segments, st and the recommended warmup; steady-state starts against the
// recorded warmup; classes), reconfigure (stop points, time per criterion),
// the versions compared and, when the Source has the trim.FrameDistributions
// table, per benchmark a violin of the iteration values per version and
// configuration (folded for suites of more than three benchmarks). Every
// table scrolls inside its own wrapper, so the page never grows wider than
// the window (.ci/report/check.sh checks it at 1400 and 390 px).
package page

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/reports/chart"
)

// The optional frames: a Source without one (Frame returns an error for
// the name) gives a page without what it draws.
//
//	trim.FrameDistributions  per run and configuration the quantiles of the
//	                         iteration values (reports.DistributionFrame), drawn as violins
//	trim.FrameConsidered     the configurations trim considered per run, drawn
//	                         as detectable slowdown against time
//	trim.FrameSeries         each run's observations in recorded order
//	                         (reports.SeriesFrame), drawn per fork
func optional(name string) bool {
	return name == trim.FrameDistributions || name == trim.FrameConsidered || name == trim.FrameSeries
}

// sourceFrame is src.Frame(name), or nil without an error for an optional
// frame src does not have.
func sourceFrame(src Source, name string) (*reports.Frame, error) {
	fr, err := src.Frame(name)
	if err != nil && optional(name) {
		return nil, nil
	}
	return fr, err
}

// pageData is what the page is built from: the rows of each frame by name,
// the frames the page read (frame), and the section being written, which
// declares the columns it reads (sections).
type pageData struct {
	frames map[string]*reports.Rows
	made   map[string]*frame
	// strict requires the columns sections read where a frame has them
	// (columns.opt) too, and every declared column of the frames that
	// have no rows: the test of the page on trim's own frames.
	strict bool
	// section is the section being written; undeclared are the columns
	// a section read without declaring them.
	section    *section
	undeclared map[string]bool
}

// loadDir reads the files of dir (trim.Frames), once verify found the
// folder a complete set (its manifest lists every file with its content;
// the page report.html is not checked, being what is rebuilt from the
// rest).
func loadDir(dir string) (*pageData, error) {
	plan := trim.Frames[0].File
	if _, err := os.Stat(filepath.Join(dir, plan)); os.IsNotExist(err) {
		return nil, fmt.Errorf("%s: no plan (write it with benchtrim trim --out-dir %s)", dir, dir)
	}
	if err := verify(dir, "report.html"); err != nil {
		return nil, err
	}
	d := &pageData{frames: map[string]*reports.Rows{}}
	for _, f := range trim.Frames {
		p := filepath.Join(dir, f.File)
		if _, err := os.Stat(p); err != nil {
			if f.Name == trim.FramePlan {
				return nil, fmt.Errorf("%s: no plan (write it with benchtrim trim --out-dir %s)", dir, dir)
			}
			continue
		}
		rows, err := reports.ReadRows(p)
		if err != nil {
			return nil, err
		}
		d.frames[f.Name] = rows
	}
	return d, nil
}

// fromFrames builds pageData from frames in memory, with the cells
// loadDir reads from their CSV files (reports.Frame.TextRows), so both
// give the same page.
func fromFrames(frames map[string]*reports.Frame) (*pageData, error) {
	d := &pageData{frames: map[string]*reports.Rows{}}
	for _, f := range trim.Frames {
		if fr := frames[f.Name]; fr != nil {
			d.frames[f.Name] = fr.TextRows(f.File)
		}
	}
	if d.frames[trim.FramePlan] == nil {
		return nil, fmt.Errorf("report: no plan frame")
	}
	return d, nil
}

// frame is a Rows with cells looked up by column name, for the section
// being written.
type frame struct {
	*reports.Rows
	frame string // its name in trim.Frames
	d     *pageData
	col   map[string]int
	multi int // 0 unknown, 1 one version per project, 2 several
	// reads are the columns of this frame that readsFor declares.
	reads    map[string]bool
	readsFor *section
}

func (d *pageData) frame(name string) *frame {
	if f, ok := d.made[name]; ok {
		return f
	}
	r := d.frames[name]
	if r == nil || len(r.Cells) == 0 {
		return nil
	}
	f := &frame{Rows: r, frame: name, d: d, col: map[string]int{}}
	for i, h := range r.Header {
		f.col[h] = i
	}
	if d.made == nil {
		d.made = map[string]*frame{}
	}
	d.made[name] = f
	return f
}

// s is the text of column c in row i ("" where the frame has no such
// column, which only a column the section reads where the frame has it
// may be: checkColumns fails on the others before the page is written).
func (f *frame) s(i int, c string) string {
	if f.readsFor != f.d.section {
		f.reads, f.readsFor = f.d.section.columns(f.frame), f.d.section
	}
	if !f.reads[c] {
		f.d.undeclare(f.frame, c)
	}
	j, ok := f.col[c]
	if !ok || j >= len(f.Cells[i]) {
		return ""
	}
	return f.Cells[i][j]
}

// opt is s for a column the section reads where the frame has it (the
// key columns a frame of one project or one version leaves out).
func (f *frame) opt(i int, c string) string { return f.s(i, c) }

// keyCell is opt for a key column, "" without reading it where the frame
// has no such column (the compare frame names its versions base and test).
func (f *frame) keyCell(i int, c string) string {
	if _, ok := f.col[c]; !ok {
		return ""
	}
	return f.s(i, c)
}

func (f *frame) n(i int, c string) float64 {
	v, err := strconv.ParseFloat(f.s(i, c), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

func (f *frame) name(i int) string {
	n := f.s(i, "benchmark")
	if p := f.keyCell(i, "params"); p != "" {
		n += "[" + p + "]"
	}
	if f.multiVersion() {
		n += " @" + f.keyCell(i, "version")
	}
	return n
}

// multiVersion reports whether the frame holds several versions of a
// project (names then carry "@version").
func (f *frame) multiVersion() bool {
	if f.multi == 0 {
		f.multi = 1
		seen := map[string]string{}
		for i := range f.Cells {
			p, v := f.keyCell(i, "project"), f.keyCell(i, "version")
			if w, ok := seen[p]; ok && w != v {
				f.multi = 2
				break
			}
			seen[p] = v
		}
	}
	return f.multi == 2
}

func (f *frame) key(i int) string {
	return strings.Join([]string{f.keyCell(i, "project"), f.keyCell(i, "version"), f.s(i, "benchmark"), f.keyCell(i, "params"), f.keyCell(i, "mode")}, "\x00")
}

// writeData renders the page: each section in turn, reading the columns
// it declares (sections); checkColumns first fails on a frame without one.
func writeData(w io.Writer, d *pageData) error {
	plan := d.frame(trim.FramePlan)
	if plan == nil {
		return fmt.Errorf("report: the plan is empty")
	}
	if err := d.checkColumns(); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>benchtrim trim report</title>\n<style>")
	b.WriteString(css)
	b.WriteString("</style></head><body>\n<h1>benchtrim trim report</h1>\n")
	d.in(secNav)
	writeNav(&b, d)
	d.in(secAnswer)
	writeAnswer(&b, plan)
	d.in(secRuns)
	runs := runsOf(d, plan)
	d.in(secTradeoff)
	writeSuiteTradeoff(&b, plan)
	d.in(secIndex)
	writeIndex(&b, plan, d.frame(trim.FrameCompare), runs)
	d.in(secRuns)
	if err := writeRunSections(&b, d, plan, runs); err != nil {
		return err
	}
	d.in(secTrim)
	writeTrim(&b, plan)
	d.in(secParams)
	writeParams(&b, plan, runs)
	d.in(secSteady)
	if sf := d.frame(trim.FrameSteadyForks); sf != nil {
		writeSteady(&b, plan, sf, d.frame(trim.FrameForkSeries), d.frame(trim.FrameForkSegments))
	}
	d.in(secChangepoint)
	if cf := d.frame(trim.FrameForkCROPS); cf != nil {
		writeCROPS(&b, cf)
	}
	d.in(secReconfigure)
	if rf := d.frame(trim.FrameReconfigure); rf != nil {
		writeReconfigure(&b, rf)
	}
	d.in(secCompare)
	if cf := d.frame(trim.FrameCompare); cf != nil {
		writeCompare(&b, cf)
	}
	d.in(secDuet)
	if df := d.frame(trim.FrameDuetBenchmarks); df != nil {
		writeDuet(&b, df, d.frame(trim.FrameDuetMatch), d.frame(trim.FrameDuetTimeline), d.frame(trim.FrameDuetPairs), d.frame(trim.FrameDuetSpeedup))
	}
	d.in(nil)
	b.WriteString("<script>")
	b.WriteString(js)
	b.WriteString("</script>\n</body></html>\n")
	if err := d.undeclaredError(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pct formats a share as a percentage with one decimal: "–" for NaN
// (nothing to show), "∞" where a test cannot report a change.
// runChunk is how many run sections one compressed chunk holds: a chunk
// is decompressed whole when one of its sections is first opened.
const runChunk = 64

// runSplit separates the sections of a chunk (escaped text never holds
// "<").
const runSplit = "\n<!--run-->\n"

// writeRunSections writes an empty <section> per run (the index links to
// it; data-chunk and data-part say where its content is, data-plots which
// plots it has) and the sections' content in chunks of runChunk: each the
// gzip (compress/gzip, no header fields: the same bytes for the same
// page) of the sections joined by runSplit, base64 in an inert <script
// type="application/gzip">.
func writeRunSections(b *strings.Builder, d *pageData, plan *frame, runs []*run) error {
	b.WriteString(`<div id="run-sections">`)
	var chunks [][]string
	for n, r := range runs {
		var sb strings.Builder
		plots := writeRunSection(&sb, d, plan, r)
		if n%runChunk == 0 {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], sb.String())
		fmt.Fprintf(b, `<section class="run" id="%s" hidden data-chunk="%d" data-part="%d" data-plots="%s"></section>`, r.id, n/runChunk, n%runChunk, plots)
	}
	b.WriteString("</div>\n")
	for k, parts := range chunks {
		var z bytes.Buffer
		zw, err := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(zw, strings.Join(parts, runSplit)); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		fmt.Fprintf(b, `<script type="application/gzip" id="runs-%d">%s</script>`+"\n", k, base64.StdEncoding.EncodeToString(z.Bytes()))
	}
	return nil
}

func pct(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + " %"
}

func human(sec float64) string { return reports.Human(reports.Seconds(sec)) }

// reduced reports whether plan row i recommends a cheaper configuration
// (status "trimmed" or "trimmed: target out of reach").
func reduced(plan *frame, i int) bool { return strings.HasPrefix(plan.s(i, "status"), "trimmed") }

// writeAnswer is the first screen: what to run and what it saves, in one
// paragraph, and a summary: trim against the fixed minimal configuration
// in and out of sample, and how many runs got which status. Every cell
// says what was found: "none trimmed", "no split ran", never an empty
// value.
func writeAnswer(b *strings.Builder, plan *frame) {
	var before, after, minimum float64
	trimmed, unreliable, total := 0, 0, 0
	var within [3]int
	inCI := 0
	var precRec, prec, detRec, det, splitErr, minSplitErr []float64
	var agree, minAgree, splits float64
	statuses := map[string]int{}
	for i := range plan.Cells {
		if strings.HasPrefix(plan.s(i, "status"), "duet") {
			continue
		}
		total++
		statuses[plan.s(i, "status")]++
		before += plan.n(i, "recorded_time_s")
		after += plan.n(i, "time_s")
		if m := plan.n(i, "minimum_time_s"); !math.IsNaN(m) {
			minimum += m
		} else {
			minimum += plan.n(i, "recorded_time_s")
		}
		if n := plan.n(i, "splits"); n > 0 {
			splitErr = append(splitErr, plan.n(i, "split_error_median"))
			minSplitErr = append(minSplitErr, plan.n(i, "minimum_split_error_median"))
			agree += n * plan.n(i, "split_agreement")
			minAgree += n * plan.n(i, "minimum_split_agreement")
			splits += n
		}
		switch {
		case reduced(plan, i):
			trimmed++
			c := plan.n(i, "change_rate")
			for j, lim := range []float64{0.01, 0.03, 0.05} {
				if c <= lim {
					within[j]++
				}
			}
			if plan.s(i, "in_ci") == "true" {
				inCI++
			}
			precRec, prec = append(precRec, plan.n(i, "recorded_precision")), append(prec, plan.n(i, "precision"))
			detRec, det = append(detRec, plan.n(i, "recorded_detectable_slowdown")), append(det, plan.n(i, "detectable_slowdown"))
		case plan.s(i, "unreliable") == "true":
			unreliable++
		}
	}
	if total == 0 {
		b.WriteString(`<section id="answer"><h2>Answer</h2><p class="answer">The input holds only duet runs: there is no configuration to recommend; ` +
			`the duet section compares A and B.</p></section>` + "\n")
		return
	}
	saved, minSaved := 0.0, 0.0
	if before > 0 {
		saved, minSaved = 1-after/before, 1-minimum/before
	}
	rule := fmt.Sprintf("each the cheapest whose detectable slowdown under the %s test at α = %g is at most %g× the recorded one",
		plan.s(0, "rule"), plan.n(0, "alpha"), plan.n(0, "keep"))
	if math.IsNaN(plan.n(0, "keep")) {
		rule = fmt.Sprintf("each the cheapest that detects %s with the %s test at α = %g", pct(plan.n(0, "target_detectable_slowdown")), plan.s(0, "rule"), plan.n(0, "alpha"))
	}
	if trimmed == 0 {
		fmt.Fprintf(b, `<section id="answer"><h2>Answer</h2><p class="answer">Run the recorded configurations: no cheaper configuration keeps the verdicts of the %s test `+
			`(at α = %g) for any of the %d benchmark runs, so the suite keeps its %s. Each run's section in the index says why.</p>`,
			esc(plan.s(0, "rule")), plan.n(0, "alpha"), total, human(before))
	} else {
		fmt.Fprintf(b, `<section id="answer"><h2>Answer</h2><p class="answer">Run the recommended configurations: the suite takes <b>%s instead of %s</b> (<b>%s</b> saved). `+
			`%d of %d benchmark runs get a cheaper configuration (%s); `+
			`their median detectable slowdown goes from %s to %s, and the CI of the mean from ±%s to ±%s.</p>`,
			human(after), human(before), pct(saved), trimmed, total, esc(rule),
			pct(median(detRec)), pct(median(det)), pct(median(precRec)), pct(median(prec)))
	}
	var parts []string
	for _, k := range sortedKeys(statuses) {
		parts = append(parts, fmt.Sprintf("%d %s", statuses[k], k))
	}
	fmt.Fprintf(b, `<p class="counts">%d benchmark runs: %s.</p>`, total, esc(strings.Join(parts, ", ")))
	noSplit := "no split ran (too few forks or lines to halve)"
	splitCell := func(errs []float64) string {
		if len(errs) == 0 {
			return noSplit
		}
		return pct(median(errs))
	}
	agreeCell := func(a float64) string {
		if splits == 0 {
			return noSplit
		}
		return pct(a / splits)
	}
	inSample := "none trimmed"
	if trimmed > 0 {
		share := func(n int) string { return pct(float64(n) / float64(trimmed)) }
		inSample = fmt.Sprintf("%s / %s / %s, %s", share(within[0]), share(within[1]), share(within[2]), share(inCI))
	}
	fmt.Fprintf(b, `<div class="wide"><table class="kv"><tr><th></th><th>trim</th><th>fixed minimum</th></tr>`+
		`<tr><th>suite time</th><td>%s (recorded %s)</td><td>%s</td></tr><tr><th>saved</th><td>%s</td><td>%s</td></tr>`+
		`<tr><th>out of sample: median error (chosen on one half, run on the other)</th><td>%s</td><td>%s</td></tr>`+
		`<tr><th>out of sample: verdicts agreeing with the full halves</th><td>%s</td><td>%s</td></tr>`+
		`<tr><th>in-sample: trimmed runs within 1 / 3 / 5 %%, inside the full run's CI</th><td>%s</td><td>not measured</td></tr>`+
		`<tr><th>unreliable (no steady state: iterations per fork kept)</th><td>%d</td><td>not judged</td></tr></table></div>`,
		human(after), human(before), human(minimum), pct(saved), pct(minSaved), esc(splitCell(splitErr)), esc(splitCell(minSplitErr)),
		esc(agreeCell(agree)), esc(agreeCell(minAgree)), esc(inSample), unreliable)
	b.WriteString("</section>\n")
}

// median is the middle of the finite values of x (NaN when none).
func median(x []float64) float64 {
	var y []float64
	for _, v := range x {
		if !math.IsNaN(v) {
			y = append(y, v)
		}
	}
	if len(y) == 0 {
		return math.NaN()
	}
	sort.Float64s(y)
	if n := len(y); n%2 == 0 {
		return (y[n/2-1] + y[n/2]) / 2
	}
	return y[len(y)/2]
}

// writeNav is the page's table of contents: the answer, the index and
// every section the page has.
func writeNav(b *strings.Builder, d *pageData) {
	links := [][2]string{{"answer", "Answer"}, {"tradeoff", "Trade-off"}, {"index", "Benchmarks"}, {"trim", "Configurations and time"}}
	plan := d.frame(trim.FramePlan)
	for _, s := range []struct{ frame, id, name string }{{"", "params", "Scores by @Param"}, {trim.FrameSteadyForks, "steady", "Steady state"},
		{trim.FrameForkCROPS, "changepoint", "Change points"}, {trim.FrameReconfigure, "reconfigure", "Dynamic reconfiguration"},
		{trim.FrameCompare, "compare", "Versions compared"}, {trim.FrameDuetBenchmarks, "duet", "Duet"}} {
		if s.frame == "" {
			hasParams := false
			for i := range plan.Cells {
				hasParams = hasParams || plan.opt(i, "params") != ""
			}
			if !hasParams {
				continue
			}
		} else if d.frame(s.frame) == nil {
			continue
		}
		links = append(links, [2]string{s.id, s.name})
	}
	b.WriteString(`<nav>`)
	for i, l := range links {
		if i > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(b, `<a href="#%s">%s</a>`, l[0], l[1])
	}
	b.WriteString("</nav>\n")
}

// writeSuiteTradeoff draws the suite's trade-off on the user's data: the
// suite's time (share of the recorded) against the median detectable
// slowdown of its runs under the user's test, for the recorded
// configurations, trim's and the fixed minimal ones (the one uniform
// reduction the plan evaluates on every run), and points to the published
// evaluation on real recordings of several versions.
func writeSuiteTradeoff(b *strings.Builder, plan *frame) {
	var rec, rcm, minT float64
	var dRec, dRcm, dMin []float64
	for i := range plan.Cells {
		if plan.s(i, "path") == "duet" {
			continue
		}
		rec += plan.n(i, "recorded_time_s")
		rcm += plan.n(i, "time_s")
		dRec, dRcm = append(dRec, plan.n(i, "recorded_detectable_slowdown")), append(dRcm, plan.n(i, "detectable_slowdown"))
		if m := plan.n(i, "minimum_time_s"); !math.IsNaN(m) {
			minT += m
			dMin = append(dMin, plan.n(i, "minimum_detectable_slowdown"))
		} else {
			minT += plan.n(i, "recorded_time_s")
			dMin = append(dMin, plan.n(i, "recorded_detectable_slowdown"))
		}
	}
	if rec <= 0 {
		return
	}
	b.WriteString(`<section id="tradeoff"><h2>Trade-off: time against what your test still finds</h2>`)
	pts := []tradePoint{
		{x: 100, y: median(dRec), label: "recorded", kind: "recorded"},
		{x: 100 * rcm / rec, y: median(dRcm), label: "trim", kind: "chosen"},
		{x: 100 * minT / rec, y: median(dMin), label: "fixed minimum", kind: "minimum"},
	}
	b.WriteString(`<figure>` + tradeoffPlot(fmt.Sprintf("Your suite: time against the median detectable slowdown of its %d runs (%s test at α = %g)", len(dRec), plan.s(0, "rule"), plan.n(0, "alpha")),
		"suite time (% of the recorded)", pts, math.NaN(), map[string]string{"chosen": "trim"}) + `</figure>`)
	fmt.Fprintf(b, `<p>On your data: the recorded configurations take 100 %% of the time and detect a median %s slowdown in 80 %% of A/B runs; `+
		`trim's take %s and detect %s; the fixed minimum (JMH: 1 fork × 5 iterations, go test -count 3) takes %s and detects %s. `+
		`A run's own section draws the same for every configuration trim tried. `+
		`How trim compares with every uniform reduction (go test -count, JMH forks × iterations), µOpTime and dynamic reconfiguration on real recordings of consecutive versions, `+
		`as the share of clear changes the next version's test still finds against time: benchtrim's docs/trim.md, section “Is it better?” (its frontier plot docs/trim-frontier.svg, `+
		`rerun by go test ./analysis/trim -run TestEvaluationVersions).</p></section>`+"\n",
		pct(median(dRec)), pct(rcm/rec), pct(median(dRcm)), pct(minT/rec), pct(median(dMin)))
}

// maxBars bounds the bars of one chart (the rest are in the table).
const maxBars = 40

// writeTrim is the trim/optimize section.
func writeTrim(b *strings.Builder, plan *frame) {
	b.WriteString(`<section id="trim"><h2>Configurations and time</h2>`)
	idx := make([]int, len(plan.Cells))
	for i := range idx {
		idx[i] = i
	}
	// Largest saving first.
	saved := func(i int) float64 { return plan.n(i, "recorded_time_s") - plan.n(i, "time_s") }
	sortIdx(idx, func(a, c int) bool { return saved(a) > saved(c) })
	// Duet runs get no configuration (their section has the A/B result).
	var timed []int
	for _, i := range idx {
		if plan.s(i, "path") != "duet" {
			timed = append(timed, i)
		}
	}
	nReduced := 0
	statuses := map[string]int{}
	for _, i := range timed {
		if reduced(plan, i) {
			nReduced++
		}
		statuses[plan.s(i, "status")]++
	}
	if len(timed) > 0 && nReduced == 0 {
		// Nothing to compare: one sentence, not a chart of equal bar pairs.
		keys := make([]string, 0, len(statuses))
		for k := range statuses {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%d %s", statuses[k], k))
		}
		fmt.Fprintf(b, `<p class="answer">No benchmark run gets a cheaper configuration (%s): each keeps its recorded configuration; the plan below gives each one's reason.</p>`,
			esc(strings.Join(parts, ", ")))
	} else if shown := timed[:min(len(timed), maxBars)]; len(shown) > 0 {
		var labels []string
		var rec, rcm []float64
		unit, div := minutesOrSeconds(plan, shown)
		for _, i := range shown {
			labels = append(labels, plan.name(i))
			rec = append(rec, plan.n(i, "recorded_time_s")/div)
			rcm = append(rcm, plan.n(i, "time_s")/div)
		}
		title := fmt.Sprintf("Time per benchmark run, recorded vs recommended (%d largest savings of %d)", len(shown), len(timed))
		b.WriteString(fold(title, `<figure>`+hbars(title, "execution time ("+unit+")", labels,
			[]hbarSeries{{"recorded", colorRec, rec}, {"recommended", colorRcm, rcm}}, nil)+`</figure>`))
	}

	// Evidence: change rate of the trimmed runs, worst first.
	var tl []string
	var ch []float64
	var tidx []int
	for _, i := range idx {
		if reduced(plan, i) {
			tidx = append(tidx, i)
		}
	}
	sortIdx(tidx, func(a, c int) bool { return plan.n(a, "change_rate") > plan.n(c, "change_rate") })
	for _, i := range tidx[:min(len(tidx), maxBars)] {
		tl = append(tl, plan.name(i))
		ch = append(ch, 100*plan.n(i, "change_rate"))
	}
	if len(tl) > 0 {
		title := fmt.Sprintf("Estimate change in-sample, recommended vs full data after the warmup (%d worst of %d trimmed)", len(tl), len(tidx))
		b.WriteString(fold(title, `<figure>`+hbars(title, "change rate |estimate − reference| / reference (%); dashed: 1, 3, 5 %", tl,
			[]hbarSeries{{"change rate", colorRcm, ch}}, []float64{1, 3, 5})+`</figure>`))
	}
	// Saving per path.
	type agg struct {
		n, trimmed    int
		before, after float64
	}
	paths := map[string]*agg{}
	var order []string
	for i := range plan.Cells {
		p := plan.s(i, "path")
		if paths[p] == nil {
			paths[p] = &agg{}
			order = append(order, p)
		}
		a := paths[p]
		a.n++
		if reduced(plan, i) {
			a.trimmed++
		}
		a.before += plan.n(i, "recorded_time_s")
		a.after += plan.n(i, "time_s")
	}
	writeMethods(b, plan)
	duetRuns := 0
	if a := paths["duet"]; a != nil {
		duetRuns = a.n
	}
	if len(order) > 0 && duetRuns < len(plan.Cells) {
		b.WriteString(`<h3>Saving per path</h3><div class="wide"><table class="sortable" id="paths"><thead><tr><th>path</th><th>benchmark runs</th><th>trimmed</th><th>time before</th><th>time after</th><th>saved</th></tr></thead><tbody>`)
		for _, p := range order {
			if p == "duet" {
				continue
			}
			a := paths[p]
			fmt.Fprintf(b, `<tr><td>%s</td><td data-v="%d">%d</td><td data-v="%d">%d</td><td data-v="%g">%s</td><td data-v="%g">%s</td><td data-v="%g">%s</td></tr>`,
				esc(p), a.n, a.n, a.trimmed, a.trimmed, a.before, human(a.before), a.after, human(a.after), 1-a.after/a.before, pct(1-a.after/a.before))
		}
		b.WriteString(`</tbody></table></div>`)
	}
	if duetRuns > 0 {
		fmt.Fprintf(b, `<p>%d duet runs get no configuration: their A/B result is in the duet section.</p>`, duetRuns)
	}
	// The plan.
	fmt.Fprintf(b, `<details class="fold"><summary>The plan: recommended configuration per benchmark run (%d rows, as plan.csv)</summary><input class="filter" data-table="plan" placeholder="filter rows (e.g. trimmed, steady, a benchmark name)">`, len(idx))
	b.WriteString(`<div class="wide"><table class="sortable" id="plan"><thead><tr><th>benchmark</th><th>path</th><th>status</th><th>forks</th><th>warmup it.</th><th>iterations</th><th>time</th><th>recorded</th><th>saved</th><th>estimate</th><th>reference [CI]</th><th>change</th><th>command</th></tr></thead><tbody>`)
	for _, i := range idx {
		unitS, d := timeUnit(plan.n(i, "reference_ns"))
		est, ref := "", ""
		if reduced(plan, i) {
			est = chart.TickLabel(round3(plan.n(i, "estimate_ns")/d)) + " " + unitS
			ref = fmt.Sprintf("%s [%s, %s] %s", chart.TickLabel(round3(plan.n(i, "reference_ns")/d)), chart.TickLabel(round3(plan.n(i, "reference_lower_ns")/d)), chart.TickLabel(round3(plan.n(i, "reference_upper_ns")/d)), unitS)
		}
		cls := ""
		if plan.s(i, "unreliable") == "true" {
			cls = ` class="unreliable"`
		}
		status, name := plan.s(i, "status"), plan.name(i)
		if plan.s(i, "path") == "duet" {
			name += " (" + plan.s(i, "mode") + ")"
		}
		if v := plan.s(i, "duet_verdict"); v != "" {
			// "B 5.0 % slower (A faster; 95 % CI …)" → "B 5.0 % slower".
			short, _, _ := strings.Cut(v, " (")
			status += ": " + short
		}
		// Duet runs have no configuration: their numeric cells stay empty.
		num := func(c string) float64 {
			if plan.s(i, "path") == "duet" {
				return math.NaN()
			}
			return plan.n(i, c)
		}
		fmt.Fprintf(b, `<tr%s><td title="%s">%s</td><td>%s</td><td class="status">%s</td>%s%s%s%s%s%s<td>%s</td><td>%s</td>%s<td><code dir="ltr">%s</code></td></tr>`,
			cls, esc(plan.s(i, "reason")+" "+plan.s(i, "warnings")+" "+plan.s(i, "duet_verdict")), bdi(name), esc(plan.s(i, "path")), esc(status),
			numCell(num("forks"), ""), numCell(num("warmup_iterations"), ""), numCell(num("iterations"), ""),
			numCell(num("time_s"), human(num("time_s"))), numCell(num("recorded_time_s"), human(num("recorded_time_s"))),
			numCell(num("time_saved"), pct(num("time_saved"))), esc(est), esc(ref),
			numCell(plan.n(i, "change_rate"), pct(plan.n(i, "change_rate"))), esc(plan.s(i, "command")))
	}
	b.WriteString("</tbody></table></div></details></section>\n")
}

// fold is content in a folded <details> with summary (the page's height
// does not grow with what is folded).
func fold(summary, content string) string {
	return `<details class="fold"><summary>` + esc(summary) + `</summary>` + content + `</details>`
}

func numCell(v float64, shown string) string {
	if math.IsNaN(v) {
		return `<td data-v="">` + "</td>"
	}
	if shown == "" {
		shown = chart.TickLabel(round3(v))
	}
	return fmt.Sprintf(`<td data-v="%g">%s</td>`, v, esc(shown))
}

func minutesOrSeconds(plan *frame, idx []int) (string, float64) {
	hi := 0.0
	for _, i := range idx {
		hi = math.Max(hi, plan.n(i, "recorded_time_s"))
	}
	switch {
	case hi >= 3*3600:
		return "h", 3600
	case hi >= 180:
		return "min", 60
	}
	return "s", 1
}

func sortIdx(idx []int, less func(a, b int) bool) {
	// insertion-free: use sort.SliceStable semantics
	stableSort(idx, less)
}

// Source hands out data tables by name, as analysis/trim's Report does.
type Source interface {
	Frame(name string) (*reports.Frame, error)
}

// fromSource builds pageData from src's frames (trim.Frames), as fromFrames.
func fromSource(src Source) (*pageData, error) {
	frames := map[string]*reports.Frame{}
	for _, f := range trim.Frames {
		fr, err := sourceFrame(src, f.Name)
		if err != nil {
			return nil, err
		}
		if fr != nil {
			frames[f.Name] = fr
		}
	}
	return fromFrames(frames)
}

// Write writes the HTML page of src's frames.
func Write(w io.Writer, src Source) error {
	d, err := fromSource(src)
	if err != nil {
		return err
	}
	return writeData(w, d)
}

// DirFiles names the files WriteDir writes into a directory with these
// extra files: the data files (trim.Frames), the extras, report.html and the
// manifest.
func DirFiles(extra ...string) []string {
	var out []string
	for _, f := range trim.Frames {
		out = append(out, f.File)
	}
	return append(append(out, extra...), "report.html", manifestName)
}

// WriteDir writes src's frames as the CSV files loadDir reads (trim.Frames), each
// extra text file (file name → writer), report.html and, last, the
// manifest of them all into dir; benchtrim report DIR rebuilds the page
// from them. dir is meant to be a new folder that is then put in place as
// a whole (atomicfile.Set.Dir), so a reader never sees it half-written.
func WriteDir(dir string, src Source, extra map[string]func(io.Writer) error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var written []string
	for _, f := range trim.Frames {
		fr, err := sourceFrame(src, f.Name)
		if err != nil {
			return err
		}
		if fr == nil {
			continue
		}
		// Only the tables that apply: a frame without rows (the duet
		// tables of an input without duet data) is left out, the plan
		// never; loadDir reads what is there.
		if fr.Rows() == 0 && f.Name != "plan" {
			continue
		}
		if err := fr.WriteFile(filepath.Join(dir, f.File)); err != nil {
			return err
		}
		written = append(written, f.File)
	}
	names := make([]string, 0, len(extra))
	for name := range extra {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := atomicfile.Write(filepath.Join(dir, name), extra[name]); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, "report.html"), func(w io.Writer) error { return Write(w, src) }); err != nil {
		return err
	}
	return writeManifest(dir, append(append(written, names...), "report.html"))
}
