package steady

import (
	"bytes"
	"testing"

	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
)

// outputs renders every CSV output of res.
func outputs(t *testing.T, res *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, w := range []func(*bytes.Buffer, *Report) error{
		func(b *bytes.Buffer, r *Report) error { return forksFrame(r).WriteCSV(b) },
		func(b *bytes.Buffer, r *Report) error { return benchmarksFrame(r).WriteCSV(b) },
		func(b *bytes.Buffer, r *Report) error { return evaluationFrame(r).WriteCSV(b) },
		func(b *bytes.Buffer, r *Report) error { return benchmarkEvaluationFrame(r).WriteCSV(b) },
	} {
		if err := w(&b, res); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	s := newSuite(t, 5, 3, 300, []synth.BenchmarkSpec{
		{Class: "A", Method: "warm", Kind: synth.KindWarmup, WarmupIterations: 40, WarmupFactor: 2},
		{Class: "B", Method: "flat", Kind: synth.KindFlat},
		{Class: "C", Method: "step", Kind: synth.KindSlowdown, SlowdownAt: 120, SlowdownFactor: 1.2},
		{Class: "D", Method: "wave", Kind: synth.KindNoSteadyState, Shape: synth.ShapeOscillation},
		{Class: "E", Method: "warm2", Kind: synth.KindWarmup, WarmupIterations: 15, WarmupFactor: 1.5},
	}, func(c *synth.SuiteConfig) { c.NoSteady.Period = 120 })
	series := make([]*table.Series, s.Len())
	for i := range series {
		series[i] = synthSeries(s, i)
	}
	wi, w, it, r := 10, int64(1e9), 20, int64(1e9)
	run := func(workers int, seed uint64) []byte {
		opt := DefaultOptions
		opt.SteadyWindow = 100
		opt.Bootstrap.Resamples = 1000
		opt.Workers = workers
		opt.Seed = seed
		opt.Configs = []ConfigSet{
			setupConfigs("setup", Override{}),
			setupConfigs("short", Override{WarmupIterations: &wi, WarmupTimeNs: &w, MeasurementIterations: &it, MeasurementTimeNs: &r}),
		}
		res, err := analyze(series, opt)
		if err != nil {
			t.Fatal(err)
		}
		return outputs(t, res)
	}
	one := run(1, 9)
	if four := run(4, 9); !bytes.Equal(one, four) {
		t.Errorf("1 and 4 workers differ:\n%s\n---\n%s", one, four)
	}
	if two := run(2, 9); !bytes.Equal(one, two) {
		t.Error("1 and 2 workers differ")
	}
	// The seed reaches the bootstraps: another seed moves some CI bound.
	if other := run(2, 10); bytes.Equal(one, other) {
		t.Error("seeds 9 and 10 give identical outputs")
	}
}
