package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ulpInput writes a JMH result of one benchmark, 3 forks × 80 iterations,
// whose values are 1000 ns/op and the next float64 above it: valid data on
// which every plot's axis is one ULP wide.
func ulpInput(t *testing.T, dir string) string {
	t.Helper()
	a, b := strconv.FormatFloat(1000, 'g', -1, 64), strconv.FormatFloat(math.Nextafter(1000, 2000), 'g', -1, 64)
	var forks []string
	for f := 0; f < 3; f++ {
		var it []string
		for i := 0; i < 80; i++ {
			it = append(it, map[bool]string{true: a, false: b}[(i+f)%3 == 0])
		}
		forks = append(forks, "["+strings.Join(it, ",")+"]")
	}
	js := fmt.Sprintf(`[{"jmhVersion":"1.37","benchmark":"org.example.Ulp.same","mode":"avgt","threads":1,"forks":3,`+
		`"warmupIterations":0,"measurementIterations":80,"params":{},"primaryMetric":{"score":1000,"scoreUnit":"ns/op","rawData":[%s]}}]`,
		strings.Join(forks, ","))
	p := filepath.Join(dir, "ulp.json")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runDeadline runs the command line in a goroutine and fails the test when
// it has not ended within d.
func runDeadline(t *testing.T, d time.Duration, args ...string) (string, string, error) {
	t.Helper()
	type result struct {
		out, errs string
		err       error
	}
	done := make(chan result, 1)
	go func() {
		o, e, err := runCLI(t, args...)
		done <- result{o, e, err}
	}()
	select {
	case r := <-done:
		return r.out, r.errs, r.err
	case <-time.After(d):
		t.Fatalf("benchtrim %s has not ended after %v", strings.Join(args, " "), d)
		return "", "", nil
	}
}

// TestPlotsOfOneULP runs steady --plots (SVG and PNG) and trim --report
// on a benchmark whose values differ in their last bit (issue 47, class
// 1: the axis' tick loop never ended); both end, and the plots and the
// report hold tick labels and no NaN.
func TestPlotsOfOneULP(t *testing.T) {
	dir := t.TempDir()
	in := ulpInput(t, dir)
	for _, format := range []string{"svg", "png"} {
		plots := filepath.Join(dir, "plots-"+format)
		if _, stderr, err := runDeadline(t, 2*time.Minute, "--quiet", "steady", "--steady-window", "20", "--resamples", "200",
			"--plots", plots, "--plot-format", format, in); err != nil {
			t.Fatalf("steady --plots: %v\n%s", err, stderr)
		}
		entries, err := os.ReadDir(plots)
		if err != nil || len(entries) == 0 {
			t.Fatalf("steady --plots %s: %d files (%v)", format, len(entries), err)
		}
		if format == "svg" {
			for _, e := range entries {
				if !strings.HasSuffix(e.Name(), ".svg") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(plots, e.Name()))
				if err != nil || !strings.Contains(string(b), ">1000<") || strings.Contains(string(b), "NaN") {
					t.Errorf("%s: no tick label 1000 or a NaN (%v)", e.Name(), err)
				}
			}
		}
	}
	page := filepath.Join(dir, "r.html")
	if _, stderr, err := runDeadline(t, 2*time.Minute, "--quiet", "trim", "--steady-window", "20", "--resamples", "200",
		"--report", page, in); err != nil {
		t.Fatalf("trim --report: %v\n%s", err, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	charts := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(string(b), -1)
	if len(charts) == 0 {
		t.Errorf("report: no chart")
	}
	for _, c := range charts {
		if strings.Contains(c, "NaN") || strings.Contains(c, "Inf") {
			t.Errorf("report: a chart with NaN or Inf: %.300s", c)
		}
	}
}
