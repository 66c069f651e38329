package table

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"regexp"
	"sort"
)

// filterWire is a Filter as gob writes it: the regular expression as its
// source text and Only as a sorted list of keys (neither has exported
// fields gob could write).
type filterWire struct {
	Metric           string
	Benchmark        string
	HasBenchmark     bool
	Project, Version string
	IncludeWarmup    bool
	Shard, Shards    int
	Only             []Key
	HasOnly          bool
}

// GobEncode writes f for encoding/gob (a shard's report written by
// benchtrim --partial-out holds its options' filter): the benchmark
// pattern as its source text, Only as its keys in order.
func (f Filter) GobEncode() ([]byte, error) {
	w := filterWire{Metric: f.Metric, Project: f.project, Version: f.Version, IncludeWarmup: f.IncludeWarmup, Shard: f.Shard, Shards: f.Shards}
	if f.Benchmark != nil {
		w.Benchmark, w.HasBenchmark = f.Benchmark.String(), true
	}
	if f.Only != nil {
		w.HasOnly = true
		for k := range f.Only.m {
			w.Only = append(w.Only, k)
		}
		sort.Slice(w.Only, func(i, j int) bool { return w.Only[i].Less(w.Only[j]) })
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(w); err != nil {
		return nil, fmt.Errorf("table: filter: %w", err)
	}
	return b.Bytes(), nil
}

// GobDecode reads a filter GobEncode wrote, compiling its benchmark
// pattern again; a pattern that does not compile is an error.
func (f *Filter) GobDecode(data []byte) error {
	var w filterWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return fmt.Errorf("table: filter: %w", err)
	}
	*f = Filter{Metric: w.Metric, project: w.Project, Version: w.Version, IncludeWarmup: w.IncludeWarmup, Shard: w.Shard, Shards: w.Shards}
	if w.HasBenchmark {
		re, err := regexp.Compile(w.Benchmark)
		if err != nil {
			return fmt.Errorf("table: filter: benchmark pattern %q: %w", w.Benchmark, err)
		}
		f.Benchmark = re
	}
	if w.HasOnly {
		f.Only = NewRunSet(w.Only)
	}
	return nil
}

// plainSetup is Setup without its methods (so that gob writes its fields
// rather than calling Setup.GobEncode again).
type plainSetup Setup

// setupWire is a Setup as gob writes it: its fields with Env as key-value
// pairs sorted by key (gob writes a map in Go's random iteration order, so
// two writes of one setup would differ in their bytes).
type setupWire struct {
	Setup  plainSetup
	Env    [][2]string
	HasEnv bool // Env is not nil (gob leaves out an empty list)
}

// GobEncode writes s for encoding/gob (a shard's report written by
// benchtrim --partial-out holds its runs' setups): its fields, and Env as
// pairs sorted by key, so that the same setup gives the same bytes.
func (s Setup) GobEncode() ([]byte, error) {
	w := setupWire{Setup: plainSetup(s), HasEnv: s.Env != nil}
	w.Setup.Env = nil
	for k, v := range s.Env {
		w.Env = append(w.Env, [2]string{k, v})
	}
	sort.Slice(w.Env, func(i, j int) bool { return w.Env[i][0] < w.Env[j][0] })
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(w); err != nil {
		return nil, fmt.Errorf("table: setup: %w", err)
	}
	return b.Bytes(), nil
}

// GobDecode reads a setup GobEncode wrote; an Env key given twice is an
// error.
func (s *Setup) GobDecode(data []byte) error {
	var w setupWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return fmt.Errorf("table: setup: %w", err)
	}
	*s = Setup(w.Setup)
	if w.HasEnv {
		s.Env = make(map[string]string, len(w.Env))
		for _, kv := range w.Env {
			if _, dup := s.Env[kv[0]]; dup {
				return fmt.Errorf("table: setup %s: env key %q given twice", s.Key, kv[0])
			}
			s.Env[kv[0]] = kv[1]
		}
	}
	return nil
}
