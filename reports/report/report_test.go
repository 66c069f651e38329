package report_test

import (
	"fmt"

	"bytes"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/table"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/synth"
	"github.com/benchtrim/benchtrim/reports"
	"github.com/benchtrim/benchtrim/reports/report"
)

// trimReport runs trim on a generated JMH suite (6 methods, 4 forks × 160
// iterations recorded with -wi 0, steady window 100 so the steady path
// runs) and returns the report.
func trimReport(t *testing.T, window int, versions ...string) *trim.Report {
	return trimReportWith(t, window, steady.PenaltyBarrett, versions...)
}

func trimReportWith(t *testing.T, window int, penalty steady.PenaltyRule, versions ...string) *trim.Report {
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
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.WriteJMH(f, cfg); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, path)
	}
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

func page(t *testing.T, rep *trim.Report) []byte {
	t.Helper()
	frames := map[string]*reports.Frame{}
	for _, f := range report.Files {
		fr, err := rep.Frame(f.Frame)
		if err != nil {
			t.Fatal(err)
		}
		frames[f.Frame] = fr
	}
	d, err := report.FromFrames(frames)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
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
// plot and table: the answer states the suite's times, each section that
// ran has its plots (an SVG with a title, axis labels and data marks) and
// a table with one row per benchmark (or fork class row), and nothing
// loads from the network.
func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		window   int
		penalty  steady.PenaltyRule
		versions []string
		sections []string
	}{
		{"steady path", 100, steady.PenaltyBarrett, nil, []string{"answer", "trim", "steady"}},
		{"short path", 500, steady.PenaltyBarrett, nil, []string{"answer", "trim", "reconfigure"}},
		{"two versions", 100, steady.PenaltyBarrett, []string{"v1", "v2"}, []string{"answer", "trim", "steady", "compare"}},
		{"CROPS penalty", 100, steady.PenaltyCROPS, nil, []string{"answer", "trim", "steady", "changepoint"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := trimReportWith(t, tc.window, tc.penalty, tc.versions...)
			raw := page(t, rep)
			doc, err := html.Parse(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]*html.Node{}
			walk(doc, func(n *html.Node) {
				switch n.Data {
				case "section":
					sections[attr(n, "id")] = n
				case "script", "img", "link", "iframe":
					if src := attr(n, "src") + attr(n, "href"); src != "" {
						t.Errorf("<%s> loads %q: the page must be self-contained", n.Data, src)
					}
				}
			})
			if len(sections) != len(tc.sections) {
				t.Errorf("sections %v, want %v", keys(sections), tc.sections)
			}
			for _, id := range tc.sections {
				sec := sections[id]
				if sec == nil {
					t.Fatalf("no section %q", id)
				}
				var svgs, tables []*html.Node
				walk(sec, func(n *html.Node) {
					switch n.Data {
					case "svg":
						svgs = append(svgs, n)
					case "table":
						tables = append(tables, n)
					}
				})
				if len(tables) == 0 {
					t.Errorf("section %s: no table", id)
				}
				for _, tb := range tables {
					rows := 0
					walk(tb, func(n *html.Node) {
						if n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" {
							rows++
						}
					})
					if rows == 0 {
						t.Errorf("section %s: table %s has no rows", id, attr(tb, "id"))
					}
					if attr(tb, "id") == "plan" && rows != len(rep.Benchmarks) {
						t.Errorf("plan table has %d rows, want %d", rows, len(rep.Benchmarks))
					}
				}
				if id != "answer" && len(svgs) == 0 {
					t.Errorf("section %s: no plot", id)
				}
				for _, s := range svgs {
					var title string
					marks, labels := 0, 0
					walk(s, func(n *html.Node) {
						switch {
						case n.Data == "text" && strings.Contains(attr(n, "class"), "ptitle"):
							title = text(n)
						case n.Data == "text" && attr(n, "class") == "xlab":
							labels++
						case n.Data == "rect" && attr(n, "class") == "bar", n.Data == "polyline", n.Data == "circle":
							marks++
						}
					})
					if title == "" || labels == 0 || marks == 0 {
						t.Errorf("section %s: plot %q has %d axis labels and %d data marks", id, title, labels, marks)
					}
				}
			}
			ans := text(sections["answer"])
			if !strings.Contains(ans, "instead of") || !strings.Contains(ans, "within 1 / 3 / 5 %") {
				t.Errorf("answer: %q", ans)
			}
			if tc.window == 100 && rep.Forks == nil {
				t.Error("steady path kept no fork for plots")
			}
		})
	}
}

func keys(m map[string]*html.Node) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestLoadEqualsFromFrames: the page rebuilt from saved files (Load) is
// the page written from the frames in memory.
func TestLoadEqualsFromFrames(t *testing.T) {
	rep := trimReport(t, 100)
	dir := t.TempDir()
	for _, f := range report.Files {
		fr, err := rep.Frame(f.Frame)
		if err != nil {
			t.Fatal(err)
		}
		if err := fr.WriteFile(filepath.Join(dir, f.File)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), page(t, rep)) {
		t.Error("page from files differs from page from frames")
	}
}

// TestSize500: the page of a 500-benchmark suite (every benchmark trimmed
// with a long command, MaxPlotForks forks of MaxPlotPoints points, each
// with 5 segments) stays under 5 MB.
func TestSize500(t *testing.T) {
	rep := &trim.Report{Options: trim.DefaultOptions}
	for i := 0; i < 500; i++ {
		b := trim.Benchmark{Key: table.Key{Project: "p", Version: "v1", Benchmark: fmt.Sprintf("org.example.bench.Class%03d.method%03d", i/5, i), Params: "size=1000", Mode: "avgt"},
			Tool: "jmh", Path: trim.PathSteady, Analyses: []string{"steady", "optimize"}, Status: trim.StatusTrimmed, Reason: strings.Repeat("why ", 20),
			Forks: 10, SteadyForks: 10, WarmupEnds: []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
			Recorded:    trim.Config{Instances: 1, Trials: 1, Forks: 10, Iterations: 3000, Slices: 1, IterationTimeNs: 1e9, WarmupTimeNs: 1e9, TimeNs: 30000e9},
			Recommended: trim.Config{Instances: 1, Trials: 1, Forks: 2, WarmupIterations: 100, Iterations: 80, Slices: 1, IterationTimeNs: 1e9, WarmupTimeNs: 1e9, TimeNs: 360e9},
			Estimate:    1234.5, Reference: 1230.1, RefLower: 1220, RefUpper: 1240, ChangeRate: 0.0036, InCI: true, Metric: 0.009, FullMetric: 0.002}
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
	raw := page(t, rep)
	if len(raw) >= 5<<20 {
		t.Errorf("page of 500 benchmarks is %d bytes, want < 5 MB", len(raw))
	}
	t.Logf("page of 500 benchmarks: %.2f MB", float64(len(raw))/(1<<20))
}
