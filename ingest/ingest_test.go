package ingest

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestNsPerOp(t *testing.T) {
	tests := []struct {
		unit    string
		value   float64
		threads int
		want    float64
	}{
		{"ns/op", 12.5, 1, 12.5},
		{"us/op", 1.5, 12, 1500},
		{"ms/op", 0.017824, 1, 17824},
		{"s/op", 3.7, 1, 3.7e9},
		{"ops/s", 2e6, 1, 500},
		{"ops/ms", 4, 2, 500000},
		{"ops/ns", 0.95, 2, 2 / 0.95},
		{"ops/min", 60, 1, 1e9},
		{"ops/s", 0, 1, math.Inf(1)},
	}
	for _, tc := range tests {
		got, err := NsPerOp(tc.unit, tc.value, tc.threads)
		if err != nil || math.Abs(got-tc.want) > 1e-9*math.Abs(tc.want) && !math.IsInf(tc.want, 1) || math.IsInf(tc.want, 1) != math.IsInf(got, 1) {
			t.Errorf("NsPerOp(%q, %v, %d) = %v, %v; want %v", tc.unit, tc.value, tc.threads, got, err, tc.want)
		}
	}
	if v, err := NsPerOp("MB/sec", 3, 1); err == nil || !math.IsNaN(v) {
		t.Errorf("NsPerOp(MB/sec) = %v, %v; want NaN and an error", v, err)
	}
}

func TestCheckTime(t *testing.T) {
	for _, tc := range []struct {
		mode string
		v    float64
		ok   bool
	}{{"avgt", 1, true}, {"avgt", 0, false}, {"sample", 0, true}, {"ss", -1, false}, {"avgt", math.NaN(), false}, {"thrpt", math.Inf(1), false}} {
		if _, ok := CheckTime(tc.mode, tc.v); ok != tc.ok {
			t.Errorf("CheckTime(%s, %v) ok = %v, want %v", tc.mode, tc.v, ok, tc.ok)
		}
	}
}

func TestLabelsFromFileName(t *testing.T) {
	for _, tc := range []struct{ path, project, version string }{
		{"/x/prometheus-v0.35.0.csv", "prometheus", "v0.35.0"},
		{"toml-v2.0.1.csv", "toml", "v2.0.1"},
		{"zap_1.19.1-rc1.json", "zap", "1.19.1-rc1"},
		{"jmhdmn_thrpt_10forks_10iter_jmh1.19.json", "jmhdmn_thrpt_10forks_10iter_jmh1.19", ""},
		{"results.json", "results", ""},
		{"gen-v1.csv", "gen", "v1"},
		{"app_v2-beta.json", "app", "v2-beta"},
		{"results-1.json", "results-1", ""},
	} {
		p, v := labelsFromFileName(tc.path)
		if p != tc.project || v != tc.version {
			t.Errorf("LabelsFromFileName(%q) = %q, %q; want %q, %q", tc.path, p, v, tc.project, tc.version)
		}
	}
}

func TestReportCountsAndPrints(t *testing.T) {
	var r Summary
	for i := 0; i < 7; i++ {
		r.Skip("NaN value", 1, &ParseError{File: "a.json", Path: "$[0].primaryMetric.rawData[0][1]", Msg: "NaN"})
	}
	r.Warn("ragged data", &ParseError{File: "b.csv", Line: 12, Msg: "missing iteration 2"})
	var o Summary
	o.Skip("NaN value", 3, &ParseError{File: "c.json", Msg: "x"})
	r.merge(&o)
	if r.Count("NaN value") != 10 || r.SkippedRows() != 10 || r.Count("ragged data") != 1 {
		t.Errorf("counts: NaN %d skipped %d ragged %d", r.Count("NaN value"), r.SkippedRows(), r.Count("ragged data"))
	}
	var buf bytes.Buffer
	r.WriteTo(&buf)
	out := buf.String()
	for _, want := range []string{"skipped 10: NaN value", "a.json:$[0].primaryMetric.rawData[0][1]: NaN", "… and 5 more", "warning 1: ragged data", "b.csv:12: missing iteration 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
