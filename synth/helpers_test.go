package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"testing"
)

// jnum decodes a JMH JSON double: a number or "NaN", "+INF", "-INF".
type jnum float64

func (n *jnum) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*n = jnum(math.NaN())
	case `"+INF"`:
		*n = jnum(math.Inf(1))
	case `"-INF"`:
		*n = jnum(math.Inf(-1))
	default:
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			return fmt.Errorf("not a JMH double: %s", b)
		}
		*n = jnum(f)
	}
	return nil
}

type jMetric struct {
	Score            jnum            `json:"score"`
	ScoreError       jnum            `json:"scoreError"`
	ScoreConfidence  []jnum          `json:"scoreConfidence"`
	ScorePercentiles map[string]jnum `json:"scorePercentiles"`
	ScoreUnit        string          `json:"scoreUnit"`
	RawData          [][]jnum        `json:"rawData"`
	RawDataHistogram [][][][2]jnum   `json:"rawDataHistogram"`
}

type jRecord struct {
	JMHVersion            string             `json:"jmhVersion"`
	Benchmark             string             `json:"benchmark"`
	Mode                  string             `json:"mode"`
	Threads               int                `json:"threads"`
	Forks                 int                `json:"forks"`
	JVM                   string             `json:"jvm"`
	JVMArgs               []string           `json:"jvmArgs"`
	JDKVersion            string             `json:"jdkVersion"`
	VMName                string             `json:"vmName"`
	VMVersion             string             `json:"vmVersion"`
	WarmupIterations      int                `json:"warmupIterations"`
	WarmupTime            string             `json:"warmupTime"`
	WarmupBatchSize       int                `json:"warmupBatchSize"`
	MeasurementIterations int                `json:"measurementIterations"`
	MeasurementTime       string             `json:"measurementTime"`
	MeasurementBatchSize  int                `json:"measurementBatchSize"`
	Params                map[string]string  `json:"params"`
	PrimaryMetric         jMetric            `json:"primaryMetric"`
	SecondaryMetrics      map[string]jMetric `json:"secondaryMetrics"`
}

// decodeJMH decodes a JMH JSON file strictly (unknown keys are errors).
func decodeJMH(t *testing.T, data []byte) []jRecord {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var recs []jRecord
	if err := dec.Decode(&recs); err != nil {
		t.Fatalf("decode JMH JSON: %v", err)
	}
	return recs
}

func mustSuite(t testing.TB, c SuiteConfig) *Suite {
	t.Helper()
	s, err := NewSuite(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func render(t testing.TB, s *Suite, kind string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Write(kind, &buf); err != nil {
		t.Fatalf("write %s: %v", kind, err)
	}
	return buf.Bytes()
}

// refPercentile is an independent implementation of the legacy percentile
// (pos = p(n+1)/100, linear interpolation, clamped) over a copy of x.
func refPercentile(x []float64, p float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := float64(len(s))
	pos := p * (n + 1) / 100
	switch {
	case pos < 1:
		return s[0]
	case pos >= n:
		return s[len(s)-1]
	}
	lo := int(pos)
	return s[lo-1] + (pos-float64(lo))*(s[lo]-s[lo-1])
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func flatten(raw [][]jnum) []float64 {
	var out []float64
	for _, row := range raw {
		for _, v := range row {
			out = append(out, float64(v))
		}
	}
	return out
}

// quietSuiteConfig is a small avgt suite without between-instance/trial
// variation or outliers, for tests of the curves.
func quietSuiteConfig() SuiteConfig {
	c := DefaultSuiteConfig()
	c.Benchmarks = 10
	c.Params = nil
	c.Instances, c.Trials, c.Forks, c.Iterations = 1, 1, 10, 120
	c.InstanceSD, c.TrialSD, c.ForkSD = 0, 0, 0.02
	c.noise = 0.01
	c.Outliers.Rate = 0
	c.GC.Enabled = false
	return c
}
