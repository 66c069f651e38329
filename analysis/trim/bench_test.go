package trim

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// synthTable builds the canonical table of cfg's suite (instance 1, trial
// 1, every fork; avgt, one row per iteration, the -wi 0 setup) directly
// with a table.Builder: the rows JMH JSON of the suite ingests to, without
// the JSON (whose ingest needs far more memory than the table).
func synthTable(tb testing.TB, cfg synth.SuiteConfig) *table.Table {
	t := synthRows(tb, cfg, nil)
	tb.Cleanup(t.Release)
	return t
}

// synthRows builds cfg's suite as synthTable does; with a sink the
// records go to it as they are built and the table holds the setups.
func synthRows(tb testing.TB, cfg synth.SuiteConfig, sink func(arrow.Record) error) *table.Table {
	tb.Helper()
	s, err := synth.NewSuite(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	b := table.NewBuilder(memory.DefaultAllocator, table.DefaultBatchRows)
	defer b.Release()
	if sink != nil {
		b.SetSink(sink)
	}
	for i, tr := range s.Truth() {
		key := table.Key{Project: cfg.Project, Version: cfg.Version, Benchmark: tr.JMHName, Params: tr.ParamsKey, Mode: string(cfg.Mode)}
		if err := b.AddSetup(table.Setup{Key: key, Tool: "jmh", Forks: cfg.Forks, MeasurementIterations: cfg.Iterations,
			MeasurementTimeNs: cfg.IterationTime.Nanoseconds(), WarmupTimeNs: cfg.IterationTime.Nanoseconds()}); err != nil {
			tb.Fatal(err)
		}
		for f := 1; f <= cfg.Forks; f++ {
			for k, v := range s.ForkValues(i, 1, 1, f) {
				r := table.Row{Project: key.Project, Version: key.Version, Benchmark: key.Benchmark, Params: key.Params, Mode: key.Mode,
					Metric: table.Primary, Unit: "ns/op", Value: v, NsPerOp: v, Count: 1,
					Instance: 1, Trial: 1, Fork: int32(f), Iteration: int32(k + 1), Slice: 1}
				if err := b.Append(&r); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	t := b.Finish()
	if err := b.Err(); err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkTrimSuite times Run on a generated JMH avgt suite recorded with
// -wi 0 (default mix of kinds, no params, 1,000 bootstrap resamples): by
// default 20 benchmarks × 5 forks × 1,000 iterations; with
// BENCHTRIM_TRIM_SCALE=1 the size of the steady-state study's data, 500
// benchmarks × 10 forks × 3,000 iterations (0.1: 50 benchmarks). It
// reports benchmarks/s and iterations/s of the whole run, steady_s (the
// seconds steady-state detection alone takes on the same table, timed once
// outside the loop; the rest is the configuration choice), and peak_heap_MB, the largest
// heap in use sampled every 100 ms during the runs (table included).
func BenchmarkTrimSuite(b *testing.B) {
	n, forks, iters := 20, 5, 1000
	switch os.Getenv("BENCHTRIM_TRIM_SCALE") {
	case "1":
		n, forks, iters = 500, 10, 3000
	case "0.1":
		n, forks, iters = 50, 10, 3000
	}
	tab := synthTable(b, jmhSuite(n, forks, iters, 11))
	opt := DefaultOptions
	opt.Optimize.Bootstrap.Resamples = 1000
	opt.Steady.Bootstrap.Resamples = 1000
	peak, stopSampling := sampleHeap()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Run(tab, opt); err != nil {
			b.Fatal(err)
		}
	}
	sec := time.Since(start).Seconds() / float64(b.N)
	b.StopTimer()
	stopSampling()
	t0 := time.Now()
	if _, err := steady.Run(tab, opt.Steady); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(t0).Seconds(), "steady_s")
	b.ReportMetric(float64(n)/sec, "benchmarks/s")
	b.ReportMetric(float64(n*forks*iters)/sec, "iterations/s")
	b.ReportMetric(float64(*peak)/(1<<20), "peak_heap_MB")
}

// sampleHeap samples the heap in use every 100 ms into *peak until stop
// is called.
func sampleHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-quit:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return peak, func() { close(quit); <-done }
}

// BenchmarkTrimChunked times what benchtrim trim does with an input larger
// than --max-rows: the suite of BenchmarkTrimSuite (same sizes, same
// BENCHTRIM_TRIM_SCALE) goes into a tablefile.Spool as it is generated, never
// whole in memory, and Run analyses it a chunk of at most
// BENCHTRIM_TRIM_MAX_ROWS rows (default 1.5 M, the CLI's default) at a
// time; Merge combines the chunks. It reports benchmarks/s, chunks and
// peak_heap_MB, the largest heap in use during spooling and analysis,
// which --max-rows bounds whatever the suite's size.
func BenchmarkTrimChunked(b *testing.B) {
	n, forks, iters := 20, 5, 1000
	switch os.Getenv("BENCHTRIM_TRIM_SCALE") {
	case "1":
		n, forks, iters = 500, 10, 3000
	case "0.1":
		n, forks, iters = 50, 10, 3000
	}
	maxRows := int64(1_500_000)
	if v, err := strconv.ParseInt(os.Getenv("BENCHTRIM_TRIM_MAX_ROWS"), 10, 64); err == nil && v > 0 {
		maxRows = v
	}
	opt := DefaultOptions
	opt.Optimize.Bootstrap.Resamples = 1000
	opt.Steady.Bootstrap.Resamples = 1000
	peak, stopSampling := sampleHeap()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	chunks := 0
	for i := 0; i < b.N; i++ {
		sp, err := tablefile.NewSpool(b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		setups := synthRows(b, jmhSuite(n, forks, iters, 11), sp.Add).Setups
		var parts []*Report
		all := sp.Runs()
		cs := sp.Chunks(maxRows, nil)
		chunks = len(cs)
		for _, ch := range cs {
			t, err := sp.Read(ch, setups)
			if err != nil {
				b.Fatal(err)
			}
			o := opt
			o.AllRuns = all
			r, err := Run(t, o)
			t.Release()
			if err != nil {
				b.Fatal(err)
			}
			parts = append(parts, r)
		}
		if _, err := Merge(parts); err != nil {
			b.Fatal(err)
		}
		sp.Close()
	}
	sec := time.Since(start).Seconds() / float64(b.N)
	b.StopTimer()
	stopSampling()
	b.ReportMetric(float64(n)/sec, "benchmarks/s")
	b.ReportMetric(float64(chunks), "chunks")
	b.ReportMetric(float64(*peak)/(1<<20), "peak_heap_MB")
}

// BenchmarkTrimCriteria times Run on a generated JMH avgt suite whose
// forks are too short for steady-state detection (20 benchmarks × 5 forks
// × 200 iterations recorded with -wi 0, so every benchmark takes the
// reconfiguration path; 1,000 µOpTime resamples, the A/A test's default
// 10,000), replaying only CV and all three criteria (trim's default): the
// difference is the cost of RCIW and KLD with their A/A tests.
func BenchmarkTrimCriteria(b *testing.B) {
	tab := synthTable(b, jmhSuite(20, 5, 200, 11))
	for _, crit := range [][]reconfigure.Criterion{{reconfigure.CriterionCV}, reconfigure.AllCriteria} {
		opt := DefaultOptions
		opt.Optimize.Bootstrap.Resamples = 1000
		opt.Reconfigure.Criteria = crit
		b.Run(fmt.Sprint(crit), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Run(tab, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(20*float64(b.N)/b.Elapsed().Seconds(), "benchmarks/s")
		})
	}
}

// BenchmarkTrimDuet times Run on the duet preset (synth.DefaultDuetConfig:
// 4 benchmarks × 3 types × 10 runs × 40 iterations per pair, 9,600 rows),
// where the duet analysis is all trim does: 12 benchmark-env keys, each
// with the BCa CI (9,999 resamples) at 16 slowdowns and 9 overlap ratios.
func BenchmarkTrimDuet(b *testing.B) {
	d, err := synth.GenerateDuet(synth.DefaultDuetConfig())
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "duet.csv")
	if err := atomicfile.Write(path, d.WriteCSV); err != nil {
		b.Fatal(err)
	}
	tab, _, _, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
	if err != nil {
		b.Fatal(err)
	}
	defer tab.Release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(tab, DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(12*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}
