package table

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Setup is the configuration a source states for one benchmark run (Key).
// Zero means "unknown / not stated" for every numeric field.
type Setup struct {
	Key
	// Name is the benchmark's name as the tool printed it, where Benchmark
	// and Params do not give it back: a `go test` name whose `/key=value`
	// parts the reader moved into Params, without its -GOMAXPROCS suffix
	// (BenchmarkSum/n=1000/slow: Benchmark BenchmarkSum/slow, Params
	// n=1000). "" when Benchmark is the name. A command that selects the
	// benchmark by name (go test -bench) needs it.
	Name string `json:"name,omitempty"`
	// Tool is "jmh" or "go"; ToolVersion its version when known (jmhVersion,
	// go version).
	Tool        string `json:"tool,omitempty"`
	ToolVersion string `json:"tool_version,omitempty"`
	// Forks is the configured number of forks (JMH `forks`); the data may hold fewer.
	Forks int `json:"forks,omitempty"`
	// WarmupIterations and WarmupTimeNs describe warmup per fork (JMH -wi, -w).
	WarmupIterations int   `json:"warmup_iterations,omitempty"`
	WarmupTimeNs     int64 `json:"warmup_time_ns,omitempty"`
	// MeasurementIterations and MeasurementTimeNs describe measurement per
	// fork (JMH -i, -r; µOpTime it_setup and bed_setup seconds).
	MeasurementIterations int   `json:"measurement_iterations,omitempty"`
	MeasurementTimeNs     int64 `json:"measurement_time_ns,omitempty"`
	// SingleShot is true when JMH's times read "single-shot".
	SingleShot bool `json:"single_shot,omitempty"`
	// Threads and BatchSize are JMH's threads and measurementBatchSize.
	Threads   int `json:"threads,omitempty"`
	BatchSize int `json:"batch_size,omitempty"`
	// Instances, Trials and Slices are configured level sizes from µOpTime
	// CSV columns ir_setup, sr_setup and bed_setup; SliceTimeNs is the
	// duration of one slice (1 s in µOpTime data).
	Instances   int   `json:"instances,omitempty"`
	Trials      int   `json:"trials,omitempty"`
	Slices      int   `json:"slices,omitempty"`
	SliceTimeNs int64 `json:"slice_time_ns,omitempty"`
	// Env holds further facts of the source (jvm, jdkVersion, vmName, goos,
	// goarch, pkg, cpu, …).
	Env map[string]string `json:"env,omitempty"`
	// Source names the file (and JSON path) the setup was read from.
	Source string `json:"source,omitempty"`
}

// Env keys a reader sets in Setup.Env.
const (
	// EnvHarnessNsPerLine is the Env key of a `go test` benchmark's harness
	// time per result line in ns: what go test spent beside the measured runs
	// (calibrating b.N, running tests, starting the binary), from the wall
	// time it prints per package run (format/gobench sets it; the analyzers'
	// time models add it to every line).
	EnvHarnessNsPerLine = "harness_ns_per_line"

	// EnvStartupNs is the Env key of a `go test` benchmark's process start-up
	// in ns: the test binary's own time outside its tests and benchmarks, from
	// a -json stream's start event to the next event (the binary's start and
	// its packages' init) plus from its PASS line to go test's ok line (its
	// exit), the mean over the runs of its lines. format/gobench sets it where
	// the events carry times; EnvHarnessNsPerLine then counts only the
	// benchmarks' part of the run. It does not hold the go command's own time
	// (building and linking the test binary), which no file holds.
	EnvStartupNs = "startup_ns"

	// EnvBenchmem is the Env key that is "true" when every result line of a
	// `go test` benchmark holds B/op and allocs/op (recorded with -benchmem,
	// or by a benchmark that calls b.ReportAllocs): its commands ask for
	// -benchmem.
	EnvBenchmem = "benchmem"

	// EnvProfilers is the Env key of the JMH profilers (-prof NAME) a JMH
	// benchmark's secondary metrics were recorded with, comma-separated in
	// their order of first appearance (gc for gc.alloc.rate, …; format/jmh
	// sets it).
	EnvProfilers = "profilers"

	// EnvJVMArgs is the Env key of a JMH benchmark's JVM arguments (JMH
	// JSON's jvmArgs), as one JMH -jvmArgs option line: the arguments
	// separated by spaces, those holding a space in double quotes (JMH's
	// Utils.splitQuotedEscape reads it back).
	EnvJVMArgs = "jvmArgs"
)

// IterationTimeNs is the configured duration of one measurement iteration:
// MeasurementTimeNs when stated, else Slices·SliceTimeNs, else 0 (unknown).
func (s *Setup) IterationTimeNs() int64 {
	if s == nil {
		return 0
	}
	if s.MeasurementTimeNs > 0 {
		return s.MeasurementTimeNs
	}
	if s.Slices > 0 && s.SliceTimeNs > 0 {
		return int64(s.Slices) * s.SliceTimeNs
	}
	return 0
}

// conflicts reports the first field where s and o state different
// configurations (fields unknown in either are not compared), or "".
func (s *Setup) conflicts(o *Setup) string {
	type field struct {
		name string
		a, b int64
	}
	fields := []field{
		{"forks", int64(s.Forks), int64(o.Forks)},
		{"warmup iterations", int64(s.WarmupIterations), int64(o.WarmupIterations)},
		{"warmup time", s.WarmupTimeNs, o.WarmupTimeNs},
		{"measurement iterations", int64(s.MeasurementIterations), int64(o.MeasurementIterations)},
		{"measurement time", s.MeasurementTimeNs, o.MeasurementTimeNs},
		{"threads", int64(s.Threads), int64(o.Threads)},
		{"instances", int64(s.Instances), int64(o.Instances)},
		{"trials", int64(s.Trials), int64(o.Trials)},
		{"slices", int64(s.Slices), int64(o.Slices)},
	}
	for _, f := range fields {
		if f.a != 0 && f.b != 0 && f.a != f.b {
			return fmt.Sprintf("%s %d vs %d", f.name, f.a, f.b)
		}
	}
	if s.Name != "" && o.Name != "" && s.Name != o.Name {
		return fmt.Sprintf("name %s vs %s", s.Name, o.Name)
	}
	if s.ToolVersion != "" && o.ToolVersion != "" && s.ToolVersion != o.ToolVersion {
		return fmt.Sprintf("tool version %s vs %s", s.ToolVersion, o.ToolVersion)
	}
	return ""
}

// CanonicalParams formats parameters as "k1=v1,k2=v2" sorted by key. Keys
// and values are escaped so the result splits unambiguously: '%', ',' and
// '=' become %25, %2C and %3D. An empty or nil map gives "".
func CanonicalParams(params map[string]string) string {
	if len(params) == 0 {
		return ""
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(escapeParam(k))
		b.WriteByte('=')
		b.WriteString(escapeParam(params[k]))
	}
	return b.String()
}

// ParseParams is the inverse of CanonicalParams.
func ParseParams(s string) (map[string]string, error) {
	m := map[string]string{}
	if s == "" {
		return m, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("params %q: %q is not k=v", s, kv)
		}
		uk, err := url.PathUnescape(k)
		if err != nil {
			return nil, fmt.Errorf("params %q: %w", s, err)
		}
		uv, err := url.PathUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("params %q: %w", s, err)
		}
		m[uk] = uv
	}
	return m, nil
}

var paramEscaper = strings.NewReplacer("%", "%25", ",", "%2C", "=", "%3D")

func escapeParam(s string) string {
	if !strings.ContainsAny(s, "%,=") {
		return s
	}
	return paramEscaper.Replace(s)
}
