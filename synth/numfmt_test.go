package synth

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestAppendJavaDouble(t *testing.T) {
	ns, msPerNs := 17888.0, 1e-6 // variables: a run-time product, as JMH computes it
	// Expected strings are Java Double.toString output as it appears in the
	// real JMH files of ../shared/data/jmh (hollow, weightedlottery,
	// countsquares) or follow from the Java spec (decimal for 1e-3 ≤ |x| < 1e7).
	cases := []struct {
		x    float64
		want string
	}{
		{3, "3.0"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{0.017824, "0.017824"},
		{ns * msPerNs, "0.017887999999999998"}, // hollow histogram value
		{1.19865267250996e7, "1.19865267250996E7"},
		{7.491496480476575e-4, "7.491496480476575E-4"},
		{9.392169967655401e-5, "9.392169967655401E-5"},
		{1e7, "1.0E7"},
		{9999999, "9999999.0"},
		{1e-3, "0.001"},
		{1e-5, "1.0E-5"},
		{-2.5e-8, "-2.5E-8"},
		{1.3e11, "1.3E11"},
		{7871.171164201182, "7871.171164201182"},
		{1e300, "1.0E300"},
	}
	for _, c := range cases {
		if got := string(appendJavaDouble(nil, c.x)); got != c.want {
			t.Errorf("appendJavaDouble(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		x    float64
		want string
	}{{math.NaN(), `"NaN"`}, {math.Inf(1), `"+INF"`}, {math.Inf(-1), `"-INF"`}, {2, "2.0"}} {
		if got := string(appendJSONDouble(nil, c.x)); got != c.want {
			t.Errorf("appendJSONDouble(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

func TestAppendCSVFloat(t *testing.T) {
	// Expected strings as they appear in the µOpTime data set's CSVs
	// (../shared/data/uoptime-go: "496682.0", "22.09", "1.76e-05", "2.0e-05").
	cases := []struct {
		x    float64
		want string
	}{
		{496682, "496682.0"},
		{22.09, "22.09"},
		{1.76e-05, "1.76e-05"},
		{2e-05, "2.0e-05"},
		{0.0001, "0.0001"},
		{250.7, "250.7"},
		{0, "0.0"},
		{1e20, "1.0e+20"},
	}
	for _, c := range cases {
		if got := string(appendCSVFloat(nil, c.x)); got != c.want {
			t.Errorf("appendCSVFloat(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

func TestGoPrettyMatchesTesting(t *testing.T) {
	// testing.BenchmarkResult.String is the reference: it prints N and ns/op
	// with Go's prettyPrint.
	for _, ns := range []float64{0.00001763, 0.000987, 0.0123, 0.4012, 2.076, 22.0912, 115.54, 999.94, 999.96, 496682.3, 1.2e9} {
		n := 1000
		r := testing.BenchmarkResult{N: n, T: time.Duration(ns * float64(n)), Extra: map[string]float64{"ns/op": ns}}
		want := r.String()
		got := string(appendPadInt(nil, int64(n), 8)) + "\t" + string(appendGoPretty(nil, ns, "ns/op"))
		if got != want {
			t.Errorf("ns=%g: got %q, want %q", ns, got, want)
		}
		if w := strings.Fields(want)[1]; w != strings.Fields(got)[1] {
			t.Errorf("ns=%g: value %q, want %q", ns, strings.Fields(got)[1], w)
		}
	}
	if got := goRounded(22.0912); got != 22.09 {
		t.Errorf("goRounded(22.0912) = %v, want 22.09", got)
	}
	if got := goRounded(496682.3); got != 496682 {
		t.Errorf("goRounded(496682.3) = %v, want 496682", got)
	}
}

func TestJMHTime(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{time.Second, "1 s"}, {10 * time.Second, "10 s"}, {300 * time.Millisecond, "300 ms"}, {1500 * time.Microsecond, "1500 us"}, {7, "7 ns"}} {
		if got := jmhTime(c.d); got != c.want {
			t.Errorf("jmhTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	got := string(appendJSONString(nil, "C:\\Program Files\\\"x\"\n·"))
	want := `"C:\\Program Files\\\"x\"\u000a·"`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
