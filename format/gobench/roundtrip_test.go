package gobench_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/gobench"
	"github.com/benchtrim/benchtrim/format/internal/formattest"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// TestWriteRead writes a seeded random table (2 versions × 3 Go
// benchmarks × 2 params, 2 instances × 2 trials × 2 forks × 3 iterations,
// values with all 53 bits, a B/op secondary metric on every line) with
// WriteWith and reads it back with Format: every primary and B/op row
// returns with its benchmark, params, mode, version, count and value, bit
// for bit. The labelled form keeps instance, trial and iteration as levels;
// the default form turns every (instance, trial, fork) into one run of the
// test binary, read back as forks 1..8 of each benchmark run.
func TestWriteRead(t *testing.T) {
	suite := formattest.Suite{
		Seed: 7, Project: "proj", Versions: []string{"v1.0.0", "v1.1.0"},
		Benchmarks: []string{"BenchmarkEncode", "BenchmarkDecode/small", "BenchmarkParse"},
		Modes:      []string{"go"},
		Params:     []string{"", formattest.Params("size", "1024")},
		Instances:  2, Trials: 2, Forks: 2, Iterations: 3,
		Secondary: "B/op",
	}
	const perRun = 2 * 2 * 2 * 3
	tab := formattest.Random(t, suite)
	for _, labels := range []bool{false, true} {
		t.Run(fmt.Sprintf("labels=%v", labels), func(t *testing.T) {
			var buf bytes.Buffer
			skipped, err := gobench.WriteWith(&buf, tab, gobench.WriteOptions{Labels: labels})
			if err != nil {
				t.Fatal(err)
			}
			if runs := 2 * 3 * 2; len(resultLines(t, buf.Bytes())) != runs*perRun || len(skipped) != 0 {
				t.Errorf("%d result lines, skipped %v; want %d lines (%d runs), none skipped", len(resultLines(t, buf.Bytes())), skipped, runs*perRun, runs)
			}
			if !strings.Contains(buf.String(), "\ncommit: v1.1.0\n") || !strings.Contains(buf.String(), "BenchmarkDecode/small/size=1024\t") {
				t.Errorf("text lacks the commit: line or the params as /k=v:\n%.400s", buf.String())
			}
			back, rep, err := ingesttest.Read(t, gobench.Format(), bytes.NewReader(buf.Bytes()), ingest.Source{File: "x.txt", Project: "proj"})
			if err != nil || !rep.Empty() {
				t.Fatalf("reading back: %v\n%s", err, ingesttest.ReportText(rep))
			}
			want := formattest.RowList(tab, "", false)
			if len(want) != 12*perRun {
				t.Fatalf("%d rows generated, want %d", len(want), 12*perRun)
			}
			formattest.SameRowLists(t, "gobench", want, formattest.RowList(back, "", false))
			formattest.SameRowLists(t, "gobench B/op", formattest.RowList(tab, "B/op", false), formattest.RowList(back, "B/op", false))
			for _, s := range back.Collect(table.Filter{}) {
				sizes := s.Sizes()
				got := [4]int32{sizes[table.LevelInstance], sizes[table.LevelTrial], sizes[table.LevelFork], sizes[table.LevelIteration]}
				want := [4]int32{1, 1, 8, 3}
				if labels {
					want = [4]int32{2, 2, 2, 3}
				}
				if got != want {
					t.Errorf("%s: instances, trials, forks, iterations %v, want %v", s.Key, got, want)
				}
			}
			if labels {
				formattest.SameRowLists(t, "gobench levels", formattest.RowList(tab, "", true), formattest.RowList(back, "", true))
			}
		})
	}
}
