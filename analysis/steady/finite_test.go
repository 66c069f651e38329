package steady

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

// TestOverflowingForksSayWhy: forks whose finite values overflow float64
// (near 1.7e308) fail in the segmentation, and their run is "too short".
// Before, the summary showed only a "failed" count; now it names the first
// failed fork and why, and prints no ±Inf or NaN result.
func TestOverflowingForksSayWhy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	forks := func(scale float64) []forkSeries {
		var out []forkSeries
		for f := int32(1); f <= 3; f++ {
			fk := forkSeries{id: ForkID{Instance: 1, Trial: 1, Fork: f}, ops: 1}
			for i := 0; i < 80; i++ {
				fk.values = append(fk.values, math.Min(scale*(1+0.01*r.NormFloat64()), math.MaxFloat64))
				fk.nanos = append(fk.nanos, 1e9)
			}
			out = append(out, fk)
		}
		return out
	}
	opt := DefaultOptions
	opt.SteadyWindow = 30
	opt.Bootstrap.Resamples = 200
	res := &Report{Options: opt}
	for _, c := range []struct {
		name  string
		scale float64
	}{{"Huge", 1.5e308}, {"Ok", 1000}} {
		br, err := analyzeForks(table.Key{Project: "p", Version: "v", Benchmark: c.name, Mode: "avgt"}, nil, forks(c.scale), opt)
		if err != nil {
			t.Fatal(err)
		}
		res.Benchmarks = append(res.Benchmarks, br)
	}
	if c := res.Benchmarks[1].Class; c != benchmarkSteady {
		t.Errorf("Ok: class %v, want steady state", c)
	}
	var out bytes.Buffer
	if err := res.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := "3 forks failed (first: p@v Huge (avgt) fork 1: changepoint: the sum of squares of the series overflows float64 (values too large))\n"
	if !strings.Contains(text, want) || strings.Contains(text, "Inf") || strings.Contains(text, "NaN") {
		t.Errorf("text lacks %q or shows a non-finite value:\n%s", want, text)
	}
}
