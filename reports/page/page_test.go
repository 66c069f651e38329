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
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/estimate"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// duetFile writes the duet preset (synth.DefaultDuetConfig: A/A
// benchmarks chi-square and h2, A/B benchmarks scala-kmeans and fop with
// B 5 % slower; seqn, syncduet and duet runs) and returns its path.
func duetFile(t *testing.T) string {
	t.Helper()
	d, err := synth.GenerateDuet(synth.DefaultDuetConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "duet.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteCSV(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// trimReportOn is trimReportWith on the generated suite and the files extra.
func trimReportOn(t *testing.T, window int, penalty steady.PenaltyRule, extra []string, versions ...string) *trim.Report {
	t.Helper()
	paths := append(suiteFiles(t, versions...), extra...)
	tab, _, _, err := ingest.ReadFiles(paths, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	opt := trim.DefaultOptions
	opt.Optimize.Bootstrap.Resamples = 500
	opt.Steady.Bootstrap.Resamples = 500
	opt.Reconfigure.AA.Resamples = 500
	opt.Steady.SteadyWindow = window
	opt.Steady.Penalty = penalty
	rep, err := trim.Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// suiteFiles writes the generated JMH suite (6 methods, 4 forks × 160
// iterations recorded with -wi 0) once per version (v1 when none) and
// returns the paths.
func suiteFiles(t *testing.T, versions ...string) []string {
	t.Helper()
	cfg := synth.DefaultSuiteConfig()
	cfg.Seed, cfg.Benchmarks, cfg.Params = 5, 6, nil
	cfg.Instances, cfg.Trials, cfg.Forks, cfg.Iterations = 1, 1, 4, 160
	cfg.GC.Enabled = false
	if len(versions) == 0 {
		versions = []string{"v1"}
	}
	var paths []string
	for _, v := range versions {
		cfg.Version = v
		path := filepath.Join(t.TempDir(), "suite-"+v+".json")
		s, err := synth.NewSuite(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.WriteJMH(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, path)
	}
	return paths
}

// page renders rep (a Source) as fromSource does, the
// optional frames it lacks left out.
func page(t *testing.T, rep Source) []byte {
	t.Helper()
	frames := map[string]*reports.Frame{}
	for _, f := range trim.Frames {
		fr, err := rep.Frame(f.Name)
		if err != nil {
			if f.Name == trim.FrameDistributions {
				continue
			}
			t.Fatal(err)
		}
		frames[f.Name] = fr
	}
	d, err := fromFrames(frames)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeData(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// expand returns the page with every run section's content in place, as
// the page's script puts it there when a section is opened: each
// <script type="application/gzip" id="runs-K"> decoded (base64, gunzip)
// and split at runSplit, part J into the section with data-chunk="K"
// data-part="J".
func expand(t *testing.T, raw []byte) []byte {
	t.Helper()
	s := string(raw)
	chunks := map[string][]string{}
	for {
		i := strings.Index(s, `<script type="application/gzip" id="runs-`)
		if i < 0 {
			break
		}
		rest := s[i+len(`<script type="application/gzip" id="runs-`):]
		k, body, _ := strings.Cut(rest, `">`)
		data, _, _ := strings.Cut(body, "</script>")
		z, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			t.Fatalf("chunk %s: %v", k, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("chunk %s: %v", k, err)
		}
		text, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("chunk %s: %v", k, err)
		}
		chunks[k] = strings.Split(string(text), runSplit)
		s = s[:i] + s[i+len(`<script type="application/gzip" id="runs-`)+len(k)+2+len(data)+len("</script>"):]
	}
	var b strings.Builder
	for {
		i := strings.Index(s, ` data-chunk="`)
		if i < 0 {
			b.WriteString(s)
			break
		}
		rest := s[i+len(` data-chunk="`):]
		k, rest, _ := strings.Cut(rest, `" data-part="`)
		j, rest, _ := strings.Cut(rest, `"`)
		end := strings.Index(rest, "></section>")
		n, _ := strconv.Atoi(j)
		if chunks[k] == nil || n >= len(chunks[k]) || end < 0 {
			t.Fatalf("section of chunk %s part %s has no content", k, j)
		}
		b.WriteString(s[:i])
		b.WriteString(rest[:end+1])
		b.WriteString(chunks[k][n])
		s = rest[end+1:]
	}
	return []byte(b.String())
}

// walk calls fn on every element node.
func walk(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, k string) string {
	for _, a := range n.Attr {
		if a.Key == k {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}

// TestPage parses the page of a generated suite and checks every section,
// plot and table: the answer states the suite's times; the index has one
// row per run, linking to the run's section; each run's section (its
// content decompressed as the page's script does) has the density of its
// observations, their series and the trade-off of the configurations trim
// considered; each analysis section that ran has its plots (an SVG with a
// title, axis labels and data marks) and tables; nothing loads from the
// network; every table sits in a horizontal scroll wrapper (div.wide).
// The reconfigure and duet sections are checked further by
// checkReconfigure and checkDuet.
func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		window   int
		penalty  steady.PenaltyRule
		duet     bool
		versions []string
		sections []string
	}{
		{"steady path", 100, steady.PenaltyBarrett, false, nil, []string{"answer", "tradeoff", "index", "trim", "steady"}},
		{"short path", 500, steady.PenaltyBarrett, false, nil, []string{"answer", "tradeoff", "index", "trim", "reconfigure"}},
		{"two versions", 100, steady.PenaltyBarrett, false, []string{"v1", "v2"}, []string{"answer", "tradeoff", "index", "trim", "steady", "compare"}},
		{"CROPS penalty", 100, steady.PenaltyCROPS, false, nil, []string{"answer", "tradeoff", "index", "trim", "steady", "changepoint"}},
		{"duet", 100, steady.PenaltyBarrett, true, nil, []string{"answer", "tradeoff", "index", "trim", "steady", "duet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var extra []string
			if tc.duet {
				extra = append(extra, duetFile(t))
			}
			rep := trimReportOn(t, tc.window, tc.penalty, extra, tc.versions...)
			raw := expand(t, page(t, rep))
			doc, err := html.Parse(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]*html.Node{}
			var order []string
			var runs []*html.Node
			walk(doc, func(n *html.Node) {
				switch n.Data {
				case "section":
					if attr(n, "class") == "run" {
						runs = append(runs, n)
						return
					}
					sections[attr(n, "id")] = n
					order = append(order, attr(n, "id"))
				case "table":
					// A table scrolls inside its wrapper rather than
					// widening the page (.ci/report/check.sh measures it).
					if p := n.Parent; p == nil || p.Data != "div" || !slices.Contains(strings.Fields(attr(p, "class")), "wide") {
						t.Errorf("table %s is not inside a <div class=\"wide\">", attr(n, "id"))
					}
				case "script", "img", "link", "iframe":
					if src := attr(n, "src") + attr(n, "href"); src != "" {
						t.Errorf("<%s> loads %q: the page must be self-contained", n.Data, src)
					}
				}
			})
			if strings.Join(order, " ") != strings.Join(tc.sections, " ") {
				t.Errorf("sections %v, want %v", order, tc.sections)
			}
			checkIndex(t, sections["index"], runs, len(rep.Benchmarks))
			for id, sec := range sections {
				var svgs, tables []*html.Node
				walk(sec, func(n *html.Node) {
					switch n.Data {
					case "svg":
						svgs = append(svgs, n)
					case "table":
						tables = append(tables, n)
					}
				})
				if len(tables) == 0 && id != "tradeoff" {
					t.Errorf("section %s: no table", id)
				}
				for _, tb := range tables {
					rows := 0
					walk(tb, func(n *html.Node) {
						if n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" {
							rows++
						}
					})
					if rows == 0 && attr(tb, "class") != "kv" {
						t.Errorf("section %s: table %s has no rows", id, attr(tb, "id"))
					}
					if (attr(tb, "id") == "plan" || attr(tb, "id") == "runs") && rows != len(rep.Benchmarks) {
						t.Errorf("%s table has %d rows, want %d", attr(tb, "id"), rows, len(rep.Benchmarks))
					}
				}
				if id != "answer" && id != "index" && len(svgs) == 0 {
					t.Errorf("section %s: no plot", id)
				}
				for _, s := range svgs {
					checkPlot(t, id, s)
				}
			}
			for _, sec := range runs {
				var classes []string
				walk(sec, func(n *html.Node) {
					if n.Data == "svg" {
						classes = append(classes, attr(n, "class"))
						checkPlot(t, attr(sec, "id"), n)
					}
				})
				if duet := strings.Contains(text(sec), "Duet run"); !duet && strings.Join(classes, ",") != "plot density,plot series,plot tradeoff" {
					t.Errorf("run section %s: plots %v, want density, series and trade-off", attr(sec, "id"), classes)
				}
			}
			ans := text(sections["answer"])
			if !strings.Contains(ans, "instead of") || !strings.Contains(ans, "within 1 / 3 / 5 %") {
				t.Errorf("answer: %q", ans)
			}
			if tc.window == 100 && rep.Forks == nil {
				t.Error("steady path kept no fork for plots")
			}
			if sec := sections["reconfigure"]; sec != nil {
				checkReconfigure(t, sec)
			}
			if sec := sections["duet"]; sec != nil {
				checkDuet(t, sec, sections["trim"])
			}
		})
	}
}

// checkPlot: an SVG plot of a section has a title, axis labels and data
// marks.
func checkPlot(t *testing.T, id string, s *html.Node) {
	t.Helper()
	var title string
	marks, labels := 0, 0
	walk(s, func(n *html.Node) {
		switch {
		case n.Data == "text" && strings.Contains(attr(n, "class"), "ptitle"):
			title = text(n)
		case n.Data == "text" && attr(n, "class") == "xlab":
			labels++
		case n.Data == "rect" && attr(n, "class") == "bar", n.Data == "polyline", n.Data == "circle",
			n.Data == "line" && attr(n, "class") == "iter", n.Data == "path" && attr(n, "class") == "kde":
			marks++
		}
	})
	if title == "" || labels == 0 || marks == 0 {
		t.Errorf("section %s: plot %q has %d axis labels and %d data marks", id, title, labels, marks)
	}
}

// checkIndex: the index has one row per run, each linking to a run
// section of the page (with its id), and the filters by name, status,
// saving and detectable slowdown.
func checkIndex(t *testing.T, idx *html.Node, runs []*html.Node, n int) {
	t.Helper()
	if idx == nil {
		t.Fatal("no index")
	}
	ids := map[string]bool{}
	for _, r := range runs {
		ids[attr(r, "id")] = true
	}
	if len(runs) != n {
		t.Errorf("%d run sections, want %d", len(runs), n)
	}
	links := 0
	walk(idx, func(x *html.Node) {
		if x.Data == "a" && x.Parent != nil && x.Parent.Data == "td" {
			links++
			if !ids[strings.TrimPrefix(attr(x, "href"), "#")] {
				t.Errorf("index link %s leads to no run section", attr(x, "href"))
			}
		}
	})
	if links != n {
		t.Errorf("%d index links, want %d", links, n)
	}
	for _, id := range []string{"f-name", "f-status", "f-saved", "f-detects", "f-page"} {
		found := false
		walk(idx, func(x *html.Node) { found = found || attr(x, "id") == id })
		if !found {
			t.Errorf("index has no control %s", id)
		}
	}
}

// rowsOf returns the body rows of the table with id in n: per row its
// cells' text and data-v values.
func rowsOf(t *testing.T, n *html.Node, id string) (cells [][]string, vals [][]string) {
	t.Helper()
	var tb *html.Node
	walk(n, func(x *html.Node) {
		if x.Data == "table" && attr(x, "id") == id {
			tb = x
		}
	})
	if tb == nil {
		t.Fatalf("no table %s", id)
	}
	walk(tb, func(x *html.Node) {
		if x.Data != "tr" || x.Parent == nil || x.Parent.Data != "tbody" {
			return
		}
		var c, v []string
		for td := x.FirstChild; td != nil; td = td.NextSibling {
			if td.Type == html.ElementNode && td.Data == "td" {
				c, v = append(c, text(td)), append(v, attr(td, "data-v"))
			}
		}
		cells, vals = append(cells, c), append(vals, v)
	})
	return cells, vals
}

// plotTitles returns the titles of the plots of class in n.
func plotTitles(n *html.Node, class string) []string {
	var out []string
	walk(n, func(x *html.Node) {
		if x.Data == "svg" && strings.Contains(attr(x, "class"), class) {
			walk(x, func(y *html.Node) {
				if y.Data == "text" && attr(y, "class") == "ptitle" {
					out = append(out, text(y))
				}
			})
		}
	})
	return out
}

// checkReconfigure: the section names every criterion trim replays (CV,
// RCIW, KLD, CV first as the warmup's), with the time saved and the A/A
// results of each, the stop points per criterion and the A/A ratios.
func checkReconfigure(t *testing.T, sec *html.Node) {
	t.Helper()
	cells, vals := rowsOf(t, sec, "reconf-criteria")
	var names []string
	for i, r := range cells {
		names = append(names, r[0])
		// static, dynamic, saved, …, A/A tested, not different
		static, _ := strconv.ParseFloat(vals[i][2], 64)
		dyn, _ := strconv.ParseFloat(vals[i][3], 64)
		saved, _ := strconv.ParseFloat(vals[i][4], 64)
		tested, _ := strconv.Atoi(vals[i][6])
		if !(static > 0 && dyn > 0 && dyn < static) || math.Abs(saved-(1-dyn/static)) > 1e-9 || tested == 0 {
			t.Errorf("criterion %s: static %g s, dynamic %g s, saved %g, %d A/A tested", r[0], static, dyn, saved, tested)
		}
	}
	if strings.Join(names, ", ") != "CV (trim's warmup), RCIW, KLD" {
		t.Errorf("criteria rows %q, want CV (trim's warmup), RCIW, KLD", names)
	}
	stops := plotTitles(sec, "bars")
	if len(stops) != 2 || !strings.HasPrefix(stops[1], "Warmup stop point per benchmark run and criterion") {
		t.Errorf("reconfigure bar plots %q", stops)
	}
	var legends []string
	walk(sec, func(x *html.Node) {
		if x.Data == "text" && attr(x, "class") == "legend" {
			legends = append(legends, text(x))
		}
	})
	if !strings.Contains(strings.Join(legends, ","), "CV,RCIW,KLD") {
		t.Errorf("legends %q: want the stop-point plot's CV, RCIW, KLD", legends)
	}
	if aa := plotTitles(sec, "forest"); len(aa) != 1 || !strings.HasPrefix(aa[0], "A/A: mean(dynamic) / mean(static baseline)") {
		t.Errorf("A/A plots %q", aa)
	}
	rows, _ := rowsOf(t, sec, "reconf")
	if len(rows) != 18 {
		t.Errorf("%d per-benchmark rows, want 6 benchmarks × 3 criteria", len(rows))
	}
}

// checkDuet checks the duet section against the generated truth: the
// A/B benchmarks (scala-kmeans, fop, B 5 % slower) read "A faster (B
// slower)" with B against A between +2 and +9 % in every type, the A/A
// ones (chi-square, h2) "no difference" within ±2 %; one MDS panel per
// type with both tests' curves, one timeline per duet-type key, and the
// plan's duet rows name their verdict.
func checkDuet(t *testing.T, sec, trimSec *html.Node) {
	t.Helper()
	cells, vals := rowsOf(t, sec, "duet-keys")
	if len(cells) != 12 {
		t.Fatalf("duet table: %d rows, want 4 benchmarks × 3 types", len(cells))
	}
	for i, r := range cells {
		bench, verdict := r[0], r[8]
		v, err := strconv.ParseFloat(vals[i][7], 64)
		if err != nil {
			t.Errorf("%s %s: B against A %q", bench, r[1], vals[i][7])
			continue
		}
		switch {
		case strings.HasSuffix(bench, "scala-kmeans"), strings.HasSuffix(bench, "fop"):
			if verdict != "A faster (B slower)" || v < 0.02 || v > 0.09 || !strings.HasPrefix(r[7], fmt.Sprintf("+%.1f %% [+", 100*v)) {
				t.Errorf("%s %s (B 5 %% slower in truth): %q, %q, %g", bench, r[1], verdict, r[7], v)
			}
		default:
			if verdict != "no difference" || math.Abs(v) > 0.02 {
				t.Errorf("%s %s (A/A in truth): %q, %g", bench, r[1], verdict, v)
			}
		}
	}
	mds := plotTitles(sec, "mds")
	if len(mds) != 3 || !strings.HasPrefix(mds[0], "seqn: share of 4 keys called equal") || !strings.HasPrefix(mds[2], "duet: ") {
		t.Errorf("MDS panels %q, want seqn, syncduet, duet", mds)
	}
	walk(sec, func(x *html.Node) {
		if x.Data == "svg" && strings.Contains(attr(x, "class"), "mds") {
			lines := 0
			walk(x, func(y *html.Node) {
				if y.Data == "polyline" {
					lines++
				}
			})
			if lines != 2 {
				t.Errorf("MDS panel with %d curves, want the CI and U tests'", lines)
			}
		}
	})
	tl := plotTitles(sec, "timeline")
	if len(tl) != 4 {
		t.Errorf("timelines %q, want one per duet-type benchmark", tl)
	}
	for _, title := range tl {
		if !strings.Contains(title, " duet, run 0: ") || !strings.Contains(title, "pairs") {
			t.Errorf("timeline title %q", title)
		}
	}
	plan, _ := rowsOf(t, trimSec, "plan")
	duetRows := 0
	for _, r := range plan {
		if r[1] != "duet" {
			continue
		}
		duetRows++
		ab := strings.HasPrefix(r[0], "scala-kmeans") || strings.HasPrefix(r[0], "fop")
		if ab && !(strings.HasPrefix(r[2], "duet: B ") && strings.HasSuffix(r[2], " % slower")) || !ab && r[2] != "duet: no difference" {
			t.Errorf("plan row %s: status %q", r[0], r[2])
		}
	}
	if duetRows != 12 {
		t.Errorf("%d duet rows in the plan, want 12", duetRows)
	}
}

// TestDuetOnlyPage: a page of duet runs alone says there is nothing to
// configure, has no time plot, and shows the duet section.
func TestDuetOnlyPage(t *testing.T) {
	tab, _, _, err := ingest.ReadFiles([]string{duetFile(t)}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	opt := trim.DefaultOptions
	opt.Duet.Resamples = 999
	rep, err := trim.Run(tab, opt)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(page(t, rep)))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]*html.Node{}
	walk(doc, func(n *html.Node) {
		if n.Data == "section" {
			sections[attr(n, "id")] = n
		}
	})
	if a := sections["answer"]; a == nil || !strings.Contains(text(a), "only duet runs: there is no configuration to recommend") {
		t.Error("answer does not say the input holds only duet runs")
	}
	if got := plotTitles(sections["trim"], "bars"); len(got) != 0 {
		t.Errorf("time plots %q of duet runs without configuration", got)
	}
	walk(sections["trim"], func(n *html.Node) {
		if n.Data == "table" && attr(n, "id") == "paths" {
			t.Error("a saving-per-path table without a configured path")
		}
	})
	if sections["duet"] == nil || len(plotTitles(sections["duet"], "timeline")) != 4 {
		t.Error("no duet section with 4 timelines")
	}
}

// TestLoadEqualsFromFrames: the page rebuilt from saved files (loadDir) is
// the page written from the frames in memory, duet section included.
func TestLoadEqualsFromFrames(t *testing.T) {
	rep := trimReportOn(t, 100, steady.PenaltyBarrett, []string{duetFile(t)})
	dir := t.TempDir()
	if err := WriteDir(dir, rep, nil); err != nil {
		t.Fatal(err)
	}
	d, err := loadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeData(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), page(t, rep)) {
		t.Error("page from files differs from page from frames")
	}
	if !bytes.Contains(buf.Bytes(), []byte(`<section id="duet">`)) {
		t.Error("page from files has no duet section")
	}
}

// TestSize500: the page of a 500-benchmark suite (every benchmark trimmed
// with a long command, MaxPlotForks forks of MaxPlotPoints points, each
// with 5 segments; every benchmark also replayed by dynamic
// reconfiguration with 3 criteria of 10 forks and an A/A test; and 500
// duet benchmark-env keys, 16 slowdowns and 9 overlap ratios each, the
// duet ones with timelines of 250 iterations per pair; and per benchmark
// the violins of two configurations) stays under 5 MB.
func TestSize500(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions}
	for i := 0; i < 500; i++ {
		b := trim.Benchmark{Key: table.Key{Project: "p", Version: "v1", Benchmark: fmt.Sprintf("org.example.bench.Class%03d.method%03d", i/5, i), Params: "size=1000", Mode: "avgt"},
			Tool: "jmh", Path: trim.PathSteady, Analyses: []string{"steady", "optimize"}, Status: trim.StatusTrimmed, Reason: strings.Repeat("why ", 20),
			Forks: 10, SteadyForks: 10, WarmupEnds: []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
			Recorded:    trim.Config{Instances: 1, Trials: 1, Forks: 10, Iterations: 3000, Slices: 1, IterationTimeNs: 1e9, WarmupTimeNs: 1e9, TimeNs: 30000e9},
			Recommended: trim.Config{Instances: 1, Trials: 1, Forks: 2, WarmupIterations: 100, Iterations: 80, Slices: 1, IterationTimeNs: 1e9, WarmupTimeNs: 1e9, TimeNs: 360e9},
			Estimate:    1234.5, Reference: 1230.1, RefLower: 1220, RefUpper: 1240, ChangeRate: 0.0036, InCI: true, Precision: 0.009, RecommendedPrecision: 0.01, Detectable: 0.02, DetectableRecorded: 0.015}
		b.Command.Args = strings.Fields("java -jar benchmarks.jar ^org\\.example\\.bench\\.Class\\.method$ -f 2 -wi 100 -i 80 -w 1s -r 1s -bm avgt -p size=1000")
		rep.Benchmarks = append(rep.Benchmarks, b)
	}
	for i := 0; i < trim.MaxPlotForks; i++ {
		fs := trim.ForkSeries{Key: rep.Benchmarks[i].Key, Fork: steady.ForkID{Instance: 1, Trial: 1, Fork: 1}, Step: 5, Class: "steady state", SteadyStart: 100, Warmup: 100}
		for k := 0; k < trim.MaxPlotPoints; k++ {
			fs.Values = append(fs.Values, 1000+float64(k%17))
		}
		for k := 0; k < 5; k++ {
			fs.Segments = append(fs.Segments, steady.Segment{Start: k * 600, End: (k + 1) * 600, Mean: 1005})
		}
		rep.Forks = append(rep.Forks, fs)
	}
	rep.Reconfigure = &reconfigure.Report{Options: reconfigure.DefaultOptions}
	for i := 0; i < 500; i++ {
		r := reconfigure.Result{Key: rep.Benchmarks[i].Key, ForksInData: 10, IterationsInData: slices.Repeat([]int{3000}, 10), StaticSeconds: 500}
		for _, c := range reconfigure.AllCriteria {
			cr := reconfigure.CriterionResult{Criterion: c, DynamicSeconds: 120, ForksStable: true,
				AA: reconfigure.AAResult{Available: true, NotDifferent: true, ChangeRate: 0.012}}
			cr.AA.Ratio.Ratio = estimate.Interval{Estimate: 1.012, Lower: 0.99, Upper: 1.03}
			for f := 0; f < 10; f++ {
				cr.Forks = append(cr.Forks, reconfigure.ForkResult{Fork: int32(f + 1), Iterations: 3000, WarmupIterations: 20 + f, MeasurementIterations: 10, WarmupStable: true})
			}
			r.Criteria = append(r.Criteria, cr)
		}
		rep.Reconfigure.Results = append(rep.Reconfigure.Results, r)
	}
	rep.Duet = &duet.Report{Options: duet.DefaultOptions()}
	duetTypes := []string{"seqn", "syncduet", duet.TypeDuet} // in report order
	for i := 0; i < 500; i++ {
		k := duet.Key{Env: "bare-metal", Suite: "renaissance", Benchmark: fmt.Sprintf("benchmark-%03d", i/3), Type: duetTypes[i%3]}
		b := duet.Benchmark{Key: k, Runs: 10, Iterations: 400, Pairs: 200, MeanA: 1e9, MeanB: 1.05e9, GrandMean: 1.025e9, HasCI: true, HasU: true,
			CI: duet.CI{Runs: 10, Mean: -5e7, Lower: -6e7, Upper: -4e7, RelWidth: 0.02}, Relative: -0.0476, RelLower: -0.057, RelUpper: -0.038,
			Verdict: duet.VerdictAFaster, MDSCI: 0, MDSU: 0}
		if k.Type == duet.TypeDuet {
			tl := &duet.Timeline{Run: 0}
			for it := 0; it < 250; it++ {
				start := int64(it) * 1e9
				tl.A = append(tl.A, duet.Record{Iteration: int32(it), Pair: 'A', StartNs: start, EndNs: start + 1e9, TimeNs: 1e9})
				tl.B = append(tl.B, duet.Record{Iteration: int32(it), Pair: 'B', StartNs: start + 1e8, EndNs: start + 11e8, TimeNs: 1e9})
				tl.Pairs = append(tl.Pairs, duet.Overlap{A: it, B: it, Start: start + 1e8, End: start + 1e9, Rate: 0.9})
			}
			b.Timeline = tl
			for _, m := range rep.Duet.Options.OverlapRatios {
				rep.Duet.Overlaps = append(rep.Duet.Overlaps, duet.OverlapRow{Key: k, M: m, Pairs: 200, RelOverlapTime: 0.9, HasCI: true, CI: b.CI})
			}
		}
		rep.Duet.Benchmarks = append(rep.Duet.Benchmarks, b)
		for _, s := range rep.Duet.Options.Slowdowns {
			rep.Duet.MDS = append(rep.Duet.MDS, duet.MDSRow{Key: k, Slowdown: s, HasCI: true, CI: b.CI, HasU: true})
		}
	}
	for _, typ := range duetTypes {
		for _, s := range rep.Duet.Options.Slowdowns {
			rep.Duet.Match = append(rep.Duet.Match, duet.MatchRow{Env: "bare-metal", Suite: "renaissance", Type: typ, Slowdown: s, Benchmarks: 167, MatchCI: 80, MatchU: 70,
				CIRatio: 80.0 / 167, URatio: 70.0 / 167})
		}
	}
	// Every benchmark's recorded and recommended iteration values, as violins.
	var ds []reports.Distribution
	for i, b := range rep.Benchmarks {
		var rec []float64
		for k := 0; k < 3000; k++ {
			rec = append(rec, 1000+float64((k*7+i)%101))
		}
		ds = append(ds, reports.Distribution{Key: b.Key, Configuration: "recorded", Values: rec},
			reports.Distribution{Key: b.Key, Configuration: "recommended", Values: rec[:160]})
	}
	raw := page(t, withFrames{rep, map[string]*reports.Frame{trim.FrameDistributions: reports.DistributionFrame(ds)}})
	if n := bytes.Count(expand(t, raw), []byte(`<svg class="plot density"`)); n != 500 {
		t.Errorf("%d density plots, want one per run", n)
	}
	if len(raw) >= 5<<20 {
		t.Errorf("page of 500 benchmarks is %d bytes, want < 5 MB", len(raw))
	}
	t.Logf("page of 500 benchmarks: %.2f MB", float64(len(raw))/(1<<20))
}
