package partial

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/duet"
	"github.com/benchtrim/benchtrim/analysis/optimize"
	"github.com/benchtrim/benchtrim/analysis/reconfigure"
	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/table"
)

// reportOf is a new report of the type benchtrim merge decodes for
// command (steady's for an unknown command).
func reportOf(command string) any {
	switch command {
	case "optimize":
		return new(optimize.Report)
	case "reconfigure":
		return new(reconfigure.Report)
	case "duet":
		return new(duet.Report)
	}
	return new(steady.Report)
}

// seedPartials writes partial files as --partial-out writes them, one per
// command, with a selection (its gob encoding holds a regular
// expression), inputs, read flags and a few results, and returns their
// bytes.
func seedPartials(f *testing.F) [][]byte { return partials(f) }

// seedReports returns a report of each command that writes partials, with
// a selection (its gob encoding holds a regular expression), inputs, read
// flags and a few results.
func seedReports() map[string]any {
	key := table.Key{Project: "p", Version: "v1", Benchmark: "b.A", Params: "n=1", Mode: "avgt"}
	sel := table.Filter{Benchmark: regexp.MustCompile(`^b\.`), Shard: 1, Shards: 3}
	oo := optimize.DefaultOptions
	oo.Select = sel
	ev := optimize.Evaluation{Observations: 10, Repetitions: 5, TimeNs: 1e9, Value: 0.01, Average: 12, Lower: 11, Upper: 13}
	so := steady.DefaultOptions
	so.Select = sel
	ro := reconfigure.DefaultOptions
	ro.Select = sel
	reports := map[string]any{
		"optimize": &optimize.Report{Options: oo, Results: []optimize.Result{{Key: key, Metric: optimize.RMAD, Full: ev, Chosen: ev, Minimum: ev, Random: ev}},
			Skipped: []optimize.Skipped{{Key: key, Reason: "no observations", Rows: 3}}, Warnings: []string{"w"}},
		"steady": &steady.Report{Options: so, Benchmarks: []steady.BenchmarkResult{{Key: key, Forks: []steady.ForkResult{{Points: 3, SteadyStart: -1,
			SteadyMean: math.NaN(), Values: []float64{1, 2, 3}}}}}},
		"reconfigure": &reconfigure.Report{Options: ro},
		"duet":        &duet.Report{Options: duet.DefaultOptions()},
	}
	return reports
}

// FuzzOpen feeds arbitrary bytes, from partial files of each command, to
// the partial-file reader as benchtrim merge reads it: Open, then Decode
// into the report type of the header's command. Neither may panic (a
// damaged gob stream is an error), and every error names the file.
//
//	go test -run '^$' -fuzz '^FuzzOpen$' -fuzztime 60s -fuzzminimizetime 100x ./internal/partial/
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	for i, b := range seedPartials(f) {
		// Each seed reads back whole: the corpus starts from good files.
		path := filepath.Join(dir, "seed.partial")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			f.Fatal(err)
		}
		pf, err := Open(path)
		if err != nil {
			f.Fatalf("seed %d: %v", i, err)
		}
		if err := pf.Decode(reportOf(pf.Header.Command)); err != nil {
			f.Fatalf("seed %d: %v", i, err)
		}
		pf.Close()
		f.Add(b)
	}
	f.Add([]byte(fileMagic))
	f.Add([]byte("benchtrim partia"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.partial")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pf, err := Open(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		defer pf.Close()
		if err := pf.Decode(reportOf(pf.Header.Command)); err != nil && !strings.HasPrefix(err.Error(), path+": ") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
