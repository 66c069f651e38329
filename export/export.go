// Package export writes the canonical table in other tools' formats, so
// results benchtrim read can be handed to them: the pa/bencher CSV that
// Laaber's pa tool reads, and Go benchmark text that benchstat reads.
//
// Flow: ingest → table → export. The writers read the table through
// table.Collect (primary metric; secondary metrics are not exported, as
// bencher does not export them either).
package export

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"
)

// PAHeader is the pa/bencher CSV header (FORMAT.md §2.3).
const PAHeader = "project;commit;benchmark;params;instance;trial;fork;iteration;mode;unit;value_count;value"

// WritePA writes the primary measurements as pa/bencher CSV: one row per
// table row (a histogram bucket keeps its count in value_count), values as
// recorded in their unit with full precision, params as canonical k=v
// pairs, the instance as its number. Rows are grouped by benchmark and
// params, as pa requires. pa has no slice level: the slices of an iteration
// (µOpTime data) are written as one row, their count-weighted mean.
func WritePA(w io.Writer, t *table.Table) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, PAHeader)
	for _, s := range table.Collect(t, table.Filter{}) {
		if strings.ContainsAny(s.Benchmark+s.Params+s.Project+s.Version, ";\"\n") {
			return fmt.Errorf("export pa: %s: a label contains ';', '\"' or a newline, which pa cannot read", s.Key)
		}
		write := func(i int, count int64, value float64) {
			fmt.Fprintf(bw, "%s;%s;%s;%s;%d;%d;%d;%d;%s;%s;%d;%s\n",
				s.Project, s.Version, s.Benchmark, s.Params,
				s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i],
				s.Levels[table.LevelIteration][i], s.Mode, s.Unit, count,
				strconv.FormatFloat(value, 'g', -1, 64))
		}
		if s.Sizes()[table.LevelSlice] <= 1 {
			for i := 0; i < s.Len(); i++ {
				write(i, s.Count[i], s.Value[i])
			}
			continue
		}
		// pa has no slice level: an iteration's slices become one row, the
		// count-weighted mean of their values with value_count = Σ count
		// (what pa's -is 0 computes from them anyway).
		for _, sp := range s.Units(table.LevelIteration) {
			var sum float64
			var n int64
			for i := sp.Start; i < sp.End; i++ {
				c := max(s.Count[i], 1)
				sum += s.Value[i] * float64(c)
				n += c
			}
			write(sp.Start, n, sum/float64(n))
		}
	}
	return bw.Flush()
}

// WriteGoBench writes the primary measurements as Go benchmark text (the
// format of go test -bench, design doc 14313): per (project, version,
// instance, trial, fork) one block with configuration lines, then one
// result line per row ("BenchmarkName/k=v  N  x ns/op"). Row order inside a
// block is iteration then slice, so a reader sees each slice of a µOpTime
// iteration as one run of b.N iterations. Only benchmarks whose names start
// with "Benchmark" are written (JMH names are not Go benchmark names).
func WriteGoBench(w io.Writer, t *table.Table) error {
	type block struct {
		project, version      string
		instance, trial, fork int32
	}
	type line struct {
		iteration, slice int32
		text             string
	}
	blocks := map[block][]line{}
	for _, s := range table.Collect(t, table.Filter{}) {
		if !strings.HasPrefix(s.Benchmark, "Benchmark") {
			continue
		}
		name := s.Benchmark
		if s.Params != "" {
			params, err := table.ParseParams(s.Params)
			if err != nil {
				return err
			}
			keys := make([]string, 0, len(params))
			for k := range params {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				name += "/" + k + "=" + params[k]
			}
		}
		name = strings.ReplaceAll(name, " ", "_")
		for i := 0; i < s.Len(); i++ {
			b := block{s.Project, s.Version, s.Levels[table.LevelInstance][i], s.Levels[table.LevelTrial][i], s.Levels[table.LevelFork][i]}
			n := s.Count[i]
			if n < 1 {
				n = 1
			}
			blocks[b] = append(blocks[b], line{s.Levels[table.LevelIteration][i], s.Levels[table.LevelSlice][i],
				fmt.Sprintf("%s\t%d\t%s ns/op", name, n, strconv.FormatFloat(s.NsPerOp[i], 'g', -1, 64))})
		}
	}
	keys := make([]block, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.project != b.project {
			return a.project < b.project
		}
		if a.version != b.version {
			return a.version < b.version
		}
		if a.instance != b.instance {
			return a.instance < b.instance
		}
		if a.trial != b.trial {
			return a.trial < b.trial
		}
		return a.fork < b.fork
	})
	bw := bufio.NewWriter(w)
	for _, k := range keys {
		lines := blocks[k]
		sort.SliceStable(lines, func(i, j int) bool {
			if lines[i].iteration != lines[j].iteration {
				return lines[i].iteration < lines[j].iteration
			}
			return lines[i].slice < lines[j].slice
		})
		fmt.Fprintf(bw, "project: %s\ncommit: %s\ninstance: %d\ntrial: %d\n", k.project, k.version, k.instance, k.trial)
		for _, l := range lines {
			fmt.Fprintln(bw, l.text)
		}
		fmt.Fprintln(bw, "PASS")
	}
	return bw.Flush()
}
