package synth

import (
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checkJMHText checks the textual conventions of JMH's writer on a file.
func checkJMHText(t *testing.T, text string) {
	t.Helper()
	if !strings.HasPrefix(text, "[\n    {\n") || !strings.HasSuffix(text, "    }\n]\n\n\n") {
		t.Errorf("file does not start with \"[\\n    {\" or end with \"}\\n]\\n\\n\\n\"")
	}
	keyLine := regexp.MustCompile(`^ *"[^"]+" : `)
	lowerExp := regexp.MustCompile(`[0-9]e[-+]?[0-9]`)
	for n, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		ind := len(line) - len(strings.TrimLeft(line, " "))
		if ind%4 != 0 || strings.Contains(line, "\t") {
			t.Fatalf("line %d: indentation %d is not a multiple of 4 spaces: %q", n+1, ind, line)
		}
		if strings.Contains(line, ":") && strings.HasPrefix(strings.TrimSpace(line), `"`) && !keyLine.MatchString(line) &&
			!strings.HasSuffix(strings.TrimSpace(line), `",`) && !strings.HasSuffix(strings.TrimSpace(line), `"`) {
			t.Fatalf("line %d: key without \" : \": %q", n+1, line)
		}
		if lowerExp.MatchString(line) && !strings.Contains(line, `"`) {
			t.Fatalf("line %d: lower-case exponent (Java writes E): %q", n+1, line)
		}
	}
}

// secondaryKeyOrder returns, per record, the secondary metric keys in file order.
func secondaryKeyOrder(text string) [][]string {
	var out [][]string
	for _, rec := range strings.Split(text, `"secondaryMetrics" : {`)[1:] {
		var keys []string
		for _, line := range strings.Split(rec, "\n") {
			if strings.HasPrefix(line, `            "`) && !strings.HasPrefix(line, `             `) && strings.HasSuffix(line, `" : {`) {
				keys = append(keys, strings.TrimSuffix(strings.TrimPrefix(line, `            "`), `" : {`))
			}
			if strings.HasPrefix(line, "    }") {
				break
			}
		}
		out = append(out, keys)
	}
	return out
}

func TestWriteJMHAvgt(t *testing.T) {
	for _, ver := range []string{"1.37", "1.36", "1.21", "1.19"} {
		t.Run(ver, func(t *testing.T) {
			c := DefaultSuiteConfig()
			c.Benchmarks, c.Iterations, c.Forks = 3, 30, 3
			c.Params = []ParamAxis{{Name: "size", Values: []string{"16", "1024"}}, {Name: "algo", Values: []string{"fast", "safe"}}}
			c.Unit = "us/op"
			c.JMHVersion = ver
			c.MinMean = 1e4 // enough allocation per iteration for some GCs
			s := mustSuite(t, c)
			data := render(t, s, FormatJMH)
			text := string(data)
			checkJMHText(t, text)
			recs := decodeJMH(t, data)
			truth := s.Truth()
			if len(recs) != len(truth) || len(recs) != 3*2*2 {
				t.Fatalf("%d records, want %d", len(recs), len(truth))
			}
			prefix := "·"
			if ver == "1.37" {
				prefix = ""
			}
			gcTimes := 0
			for i, r := range recs {
				tr := truth[i]
				if r.Benchmark != tr.JMHName || r.Mode != "avgt" || r.Forks != 3 || r.MeasurementIterations != 30 ||
					r.WarmupIterations != 0 || r.WarmupTime != "1 s" || r.MeasurementTime != "1 s" || r.Threads != 1 {
					t.Errorf("record %d header: %+v", i, r)
				}
				if (r.JMHVersion != "") != true || (r.VMName != "") != (ver != "1.19") {
					t.Errorf("record %d: jmhVersion %q vmName %q for JMH %s", i, r.JMHVersion, r.VMName, ver)
				}
				for _, p := range tr.Params {
					if r.Params[p.Name] != p.Value {
						t.Errorf("record %d: param %s = %q, want %q", i, p.Name, r.Params[p.Name], p.Value)
					}
				}
				pm := r.PrimaryMetric
				if pm.ScoreUnit != "us/op" || len(pm.RawData) != 3 || pm.RawDataHistogram != nil {
					t.Fatalf("record %d primary: unit %q, %d forks", i, pm.ScoreUnit, len(pm.RawData))
				}
				all := flatten(pm.RawData)
				if len(all) != 90 {
					t.Fatalf("record %d: %d raw values, want 90", i, len(all))
				}
				if !closeRel(float64(pm.Score), mean(all), 1e-12) {
					t.Errorf("record %d: score %v, mean(rawData) %v", i, pm.Score, mean(all))
				}
				lo, hi := float64(pm.ScoreConfidence[0]), float64(pm.ScoreConfidence[1])
				if !closeRel(lo, float64(pm.Score-pm.ScoreError), 1e-12) || !closeRel(hi, float64(pm.Score+pm.ScoreError), 1e-12) || !(pm.ScoreError > 0) {
					t.Errorf("record %d: confidence [%v, %v] for score %v ± %v", i, lo, hi, pm.Score, pm.ScoreError)
				}
				if len(pm.ScorePercentiles) != 10 {
					t.Errorf("record %d: %d percentiles", i, len(pm.ScorePercentiles))
				}
				for j, k := range jmhPercentileKeys {
					if got, want := float64(pm.ScorePercentiles[k]), refPercentile(all, jmhPercentiles[j]); !closeRel(got, want, 1e-12) {
						t.Errorf("record %d: percentile %s = %v, want %v", i, k, got, want)
					}
				}
				// The values are the model's ns/op in us.
				for f := range pm.RawData {
					want := s.ForkValues(i, 1, 1, f+1)
					for k, v := range pm.RawData[f] {
						if !closeRel(float64(v), want[k]*1e-3, 1e-15) {
							t.Fatalf("record %d fork %d iteration %d: %v, model %v ns", i, f, k, v, want[k])
						}
					}
				}
				// -prof gc secondaries, keys sorted, prefixed by version.
				names := []string{prefix + "gc.alloc.rate", prefix + "gc.alloc.rate.norm", prefix + "gc.count"}
				if _, ok := r.SecondaryMetrics[prefix+"gc.time"]; ok {
					names = append(names, prefix+"gc.time")
					gcTimes++
				}
				if len(r.SecondaryMetrics) != len(names) {
					t.Errorf("record %d: secondaries %v, want %v", i, r.SecondaryMetrics, names)
				}
				cnt := r.SecondaryMetrics[prefix+"gc.count"]
				counts := flatten(cnt.RawData)
				var sum float64
				withGC := make([]int, len(cnt.RawData))
				for f, row := range cnt.RawData {
					for _, v := range row {
						sum += float64(v)
						if v > 0 {
							withGC[f]++
						}
					}
				}
				if float64(cnt.Score) != sum || !math.IsNaN(float64(cnt.ScoreError)) || cnt.ScoreConfidence[0] != cnt.Score || len(counts) != 90 {
					t.Errorf("record %d: gc.count score %v (sum %v), error %v", i, cnt.Score, sum, cnt.ScoreError)
				}
				if gt, ok := r.SecondaryMetrics[prefix+"gc.time"]; ok {
					for f, row := range gt.RawData {
						if len(row) != withGC[f] {
							t.Errorf("record %d fork %d: %d gc.time values, %d iterations with GC", i, f, len(row), withGC[f])
						}
					}
				} else if sum != 0 {
					t.Errorf("record %d: %v GCs but no gc.time", i, sum)
				}
				norm := r.SecondaryMetrics[prefix+"gc.alloc.rate.norm"]
				if tr.ZeroAlloc != (norm.Score < 0.01) || norm.ScoreUnit != "B/op" {
					t.Errorf("record %d: zero-alloc %v but gc.alloc.rate.norm %v %s", i, tr.ZeroAlloc, norm.Score, norm.ScoreUnit)
				}
			}
			if gcTimes == 0 {
				t.Errorf("no record has gc.time; the test should cover ragged gc.time rows")
			}
			for i, keys := range secondaryKeyOrder(text) {
				if !slices.IsSorted(keys) || len(keys) < 3 {
					t.Errorf("record %d: secondary keys %q not sorted", i, keys)
				}
			}
		})
	}
}

func TestWriteJMHThroughputAndSingleShot(t *testing.T) {
	c := DefaultSuiteConfig()
	c.Benchmarks, c.Iterations, c.Forks, c.Threads = 2, 10, 2, 4
	c.Mode, c.Unit = modeThroughput, "ops/ms"
	s := mustSuite(t, c)
	recs := decodeJMH(t, render(t, s, FormatJMH))
	for i, r := range recs {
		if r.Mode != "thrpt" || r.Threads != 4 || r.PrimaryMetric.ScoreUnit != "ops/ms" {
			t.Errorf("record %d: %s threads %d unit %s", i, r.Mode, r.Threads, r.PrimaryMetric.ScoreUnit)
		}
		for f, row := range r.PrimaryMetric.RawData {
			ns := s.ForkValues(i, 1, 1, f+1)
			for k, v := range row {
				// thrpt is summed over threads: ops/ms = threads · 1e6 / (ns/op).
				if want := 4 * 1e6 / ns[k]; !closeRel(float64(v), want, 1e-15) {
					t.Fatalf("record %d: thrpt %v, want %v", i, v, want)
				}
			}
		}
	}

	c = DefaultSuiteConfig()
	c.Benchmarks, c.Iterations, c.Forks = 1, 2, 1
	c.Params = nil
	c.Warmup.Fraction, c.Slowdown.Fraction, c.NoSteady.Fraction = 0, 0, 0
	c.Mode, c.Unit = modeSingleShot, "ms/op"
	s = mustSuite(t, c)
	recs = decodeJMH(t, render(t, s, FormatJMH))
	r := recs[0]
	if r.WarmupTime != "single-shot" || r.MeasurementTime != "single-shot" || len(r.SecondaryMetrics) != 0 {
		t.Errorf("ss record: times %q %q, secondaries %v", r.WarmupTime, r.MeasurementTime, r.SecondaryMetrics)
	}
	if pm := r.PrimaryMetric; !math.IsNaN(float64(pm.ScoreError)) || !math.IsNaN(float64(pm.ScoreConfidence[0])) {
		t.Errorf("N = 2: scoreError %v confidence %v, want NaN", pm.ScoreError, pm.ScoreConfidence)
	}
	text := string(render(t, s, FormatJMH))
	if !strings.Contains(text, "\"secondaryMetrics\" : {\n        }\n") || !strings.Contains(text, `"scoreError" : "NaN"`) {
		t.Errorf("empty secondaryMetrics or NaN not written like JMH:\n%s", text)
	}
}

func TestWriteJMHSample(t *testing.T) {
	for _, ver := range []string{"1.37", "1.36"} {
		t.Run(ver, func(t *testing.T) {
			c := DefaultSuiteConfig()
			c.Benchmarks, c.Iterations, c.Forks = 3, 8, 2
			c.Params = nil
			c.Mode, c.Unit, c.JMHVersion = modeSampleTime, "ms/op", ver
			c.MinMean, c.MaxMean = 2e4, 1e5 // ≥ 10^4 invocations fit a 1 s iteration
			c.Sample.MaxPerIteration = 300
			c.GC.Enabled = ver == "1.36"
			s := mustSuite(t, c)
			data := render(t, s, FormatJMH)
			checkJMHText(t, string(data))
			if !regexp.MustCompile(`\n {24}\[ [0-9.E-]+, [0-9]+ \],\n`).Match(data) {
				t.Errorf("histogram pairs not written as `[ v, c ]` at 24 spaces")
			}
			recs := decodeJMH(t, data)
			truth := s.Truth()
			for i, r := range recs {
				pm := r.PrimaryMetric
				if r.Mode != "sample" || pm.RawData != nil || len(pm.RawDataHistogram) != 2 {
					t.Fatalf("record %d: mode %s, rawData %v, %d histogram forks", i, r.Mode, pm.RawData != nil, len(pm.RawDataHistogram))
				}
				var pooled []float64
				var wsum, n float64
				for f, fork := range pm.RawDataHistogram {
					if len(fork) != 8 {
						t.Fatalf("record %d fork %d: %d iterations", i, f, len(fork))
					}
					means := s.ForkValues(i, 1, 1, f+1)
					for k, it := range fork {
						var cnt, sum float64
						for j, pair := range it {
							v, c := float64(pair[0]), float64(pair[1])
							if c < 1 || c != math.Trunc(c) || (j > 0 && !(v > float64(it[j-1][0]))) {
								t.Fatalf("record %d fork %d iteration %d: pair %d %v not ascending with integer count ≥ 1", i, f, k, j, pair)
							}
							// On JMH's grid: v ms = t ns with only 10 significant bits.
							ns := int64(math.Round(v * 1e6))
							if b := max(0, bits.Len64(uint64(ns))-10); ns != (ns>>b)<<b {
								t.Fatalf("record %d: value %v ms = %d ns is not 10-bit quantised", i, v, ns)
							}
							for q := 0; q < int(c); q++ {
								pooled = append(pooled, v)
							}
							cnt += c
							sum += v * c
						}
						wsum += sum
						n += cnt
						if cnt != 300 {
							t.Errorf("record %d fork %d iteration %d: %v samples, want MaxPerIteration 300", i, f, k, cnt)
						}
						if !closeRel(sum/cnt, means[k]*1e-6, 1e-9) {
							t.Errorf("record %d fork %d iteration %d: mean %v, ForkValues %v ns", i, f, k, sum/cnt, means[k])
						}
					}
				}
				if !closeRel(float64(pm.Score), wsum/n, 1e-12) {
					t.Errorf("record %d: score %v, pooled mean %v", i, pm.Score, wsum/n)
				}
				for j, k := range jmhPercentileKeys {
					if got, want := float64(pm.ScorePercentiles[k]), refPercentile(pooled, jmhPercentiles[j]); !closeRel(got, want, 1e-12) {
						t.Errorf("record %d: percentile %s = %v, want %v", i, k, got, want)
					}
				}
				// Percentile secondaries: per-iteration percentiles, pooled score.
				prefix := truth[i].Method + "·"
				if ver == "1.37" {
					prefix = ""
				}
				for _, sec := range sampleSecondaries {
					m, ok := r.SecondaryMetrics[prefix+sec.suffix]
					if !ok {
						t.Fatalf("record %d: no secondary %q in %v", i, prefix+sec.suffix, keysOf(r.SecondaryMetrics))
					}
					if !math.IsNaN(float64(m.ScoreError)) || m.ScorePercentiles["50.0"] != m.Score || m.ScoreUnit != "ms/op" {
						t.Errorf("record %d %s: error %v, p50 %v, score %v", i, sec.suffix, m.ScoreError, m.ScorePercentiles["50.0"], m.Score)
					}
					if want := refPercentile(pooled, sec.rank); !closeRel(float64(m.Score), want, 1e-12) {
						t.Errorf("record %d %s: score %v, pooled percentile %v", i, sec.suffix, m.Score, want)
					}
					it := pm.RawDataHistogram[1][3]
					var x []float64
					for _, pair := range it {
						for q := 0; q < int(pair[1]); q++ {
							x = append(x, float64(pair[0]))
						}
					}
					if got, want := float64(m.RawData[1][3]), refPercentile(x, sec.rank); !closeRel(got, want, 1e-12) {
						t.Errorf("record %d %s fork 2 iteration 4: %v, want %v", i, sec.suffix, got, want)
					}
				}
				wantSec := 8
				if c.GC.Enabled {
					wantSec = 12
				}
				if len(r.SecondaryMetrics) < wantSec-1 || len(r.SecondaryMetrics) > wantSec {
					t.Errorf("record %d: %d secondaries %v", i, len(r.SecondaryMetrics), keysOf(r.SecondaryMetrics))
				}
			}
		})
	}
}

func keysOf[V any](m map[string]V) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}

func TestWriteJMHSampleSlowOps(t *testing.T) {
	// pgclient-like: 3.7 s/op in 1 s iterations catches one sample each.
	c := DefaultSuiteConfig()
	c.Benchmarks, c.Iterations, c.Forks = 1, 5, 2
	c.Params = nil
	c.Mode, c.Unit = modeSampleTime, "s/op"
	c.MinMean, c.MaxMean = 3.7e9, 3.7e9
	c.GC.Enabled = false
	s := mustSuite(t, c)
	recs := decodeJMH(t, render(t, s, FormatJMH))
	for f, fork := range recs[0].PrimaryMetric.RawDataHistogram {
		for k, it := range fork {
			if len(it) != 1 || it[0][1] != 1 || it[0][0] < 2 || it[0][0] > 6 {
				t.Errorf("fork %d iteration %d: %v, want one sample near 3.7 s", f, k, it)
			}
		}
	}
}

func TestJMHVersionValidation(t *testing.T) {
	c := DefaultSuiteConfig()
	c.Mode = modeSampleTime
	c.JMHVersion = "1.13"
	if _, err := NewSuite(c); err == nil {
		t.Error("sample mode with JMH 1.13 accepted")
	}
	for _, v := range []string{"2.0", "1", "1.x", "1.7"} {
		c := DefaultSuiteConfig()
		c.JMHVersion = v
		if _, err := NewSuite(c); err == nil {
			t.Errorf("JMH version %q accepted", v)
		}
	}
	c = DefaultSuiteConfig()
	c.JMHVersion = "1.25.2"
	if _, err := NewSuite(c); err != nil {
		t.Errorf("1.25.2: %v", err)
	}
}
