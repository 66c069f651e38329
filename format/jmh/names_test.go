package jmh

import (
	"testing"
)

func TestMetricName(t *testing.T) {
	const bench = "com.netflix.hollow.Bench.testReadString"
	for _, tc := range []struct{ key, want string }{
		{"·gc.alloc.rate", "gc.alloc.rate"},
		{"gc.alloc.rate", "gc.alloc.rate"},
		{"@gc.count", "gc.count"},
		{"·gc.churn.PS_Eden_Space.norm", "gc.churn.PS_Eden_Space.norm"},
		{"testReadString·p0.50", "p0.50"}, // JMH ≤ 1.36, the method's own percentiles
		{"testReadString·p1.00", "p1.00"},
		{"p0.9999", "p0.9999"},                             // JMH 1.37 primary
		{"reader:p0.99", "reader:p0.99"},                   // JMH 1.37 labelled
		{"reader·p0.99", "reader:p0.99"},                   // JMH ≤ 1.36 labelled
		{"·testReadString·p0.00", "p0.00"},                 // prefix and percentile
		{"ArrayBlockingQueueAdd", "ArrayBlockingQueueAdd"}, // @Group member
		{"cycles:u", "cycles:u"},
		{"p50", "p50"}, // not a JMH percentile spelling
		{"gc.p0.5x", "gc.p0.5x"},
		{"·", ""},
		{"", ""},
	} {
		if got := metricName(tc.key, bench); got != tc.want {
			t.Errorf("MetricName(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestParseTime(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ns     int64
		single bool
		ok     bool
	}{
		{"1 s", 1e9, false, true},
		{"400 ms", 400e6, false, true},
		{"5000 ms", 5e9, false, true},
		{"10 us", 10e3, false, true},
		{"250 ns", 250, false, true},
		{"2 min", 120e9, false, true},
		{"1 hr", 3600e9, false, true},
		{"1 day", 86400e9, false, true},
		{"single-shot", 0, true, true},
		{"1s", 1e9, false, true},
		{"", 0, false, false},
		{"fast", 0, false, false},
		{"1 fortnight", 0, false, false},
		{"1e400 day", 0, false, false},
	} {
		ns, single, err := parseTime(tc.in)
		if ns != tc.ns || single != tc.single || (err == nil) != tc.ok {
			t.Errorf("ParseTime(%q) = %d, %v, %v; want %d, %v, ok %v", tc.in, ns, single, err, tc.ns, tc.single, tc.ok)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"[\n    {\n        \"jmhVersion\" : \"1.37\",\n        \"benchmark\" : \"a.B.c\",", true},
		{"\xEF\xBB\xBF\r\n[ {\"primaryMetric\" : {", true},
		{"[\n\n]\n\n\n", true},
		{"[]", true},
		{"[\n", false},
		{"", false},
		{"{\"benchmark\": 1}", false},
		{"[1, 2, \"benchmark\"]", false},
		{"[{\"name\": \"x\"}]", false},
		{"project;commit;benchmark;params", false},
		{"goos: linux\nBenchmarkX-8 1 2 ns/op", false},
		{"[] trailing", false},
	} {
		if got := (format{}).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

func TestFormatPath(t *testing.T) {
	p := []pathElem{{idx: 3}, {key: "secondaryMetrics", idx: -1}, {key: "·gc.time", idx: -1}, {key: "rawData", idx: -1}, {idx: 0}, {idx: 12}}
	if got, want := formatPath(p), `$[3].secondaryMetrics["·gc.time"].rawData[0][12]`; got != want {
		t.Errorf("formatPath = %s, want %s", got, want)
	}
	if got := formatPath([]pathElem{{key: "a b", idx: -1}, {key: "_x1", idx: -1}, {key: "1x", idx: -1}}); got != `$["a b"]._x1["1x"]` {
		t.Errorf("formatPath = %s", got)
	}
}
