package duet

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzReadDir feeds ReadDir a duetbench directory built from the inputs:
// a result named name holding result (for pair B too when the name says
// pair A; a SPEC CPU result, name *.result, is a directory holding
// CPU2017.002.log) and the artifacts date and lscpu. ReadDir must not
// panic, must fail only with a *ingest.ParseError naming the directory or
// a file in it, and the rows it keeps must hold clean names, a positive
// finite time and end ≥ start.
//
//	go test -run '^$' -fuzz '^FuzzReadDir$' -fuzztime 60s -fuzzminimizetime 100x ./format/duet/
func FuzzReadDir(f *testing.F) {
	ren := renaissanceJSON("chi-square", 1652636049905, [][2]int64{{900, 5000}, {800, 6000}})
	f.Add("renaissance.chi-square.0.duet.AB.A.results.json", []byte(ren), []byte("Sun May 15 07:32:04 PM CEST 2022\n"), []byte("Model name: Xeon\n"))
	f.Add("chi-square.0.A.results.json", []byte(ren), []byte("garbage"), []byte(strings.Repeat("\x00", 64)))
	f.Add("dacapo.h2.1.duet.BA.A.results.csv", []byte("iteration_time_ns,total_ms,process_cpu_time_ns,start_unix\n5000000,120,1,1652636049905.5\n4000000,125,1,1652636049911\n"),
		[]byte("Wed Jun  1 14:04:52 UTC 2022"), []byte("Model name:\xff\n"))
	f.Add("scalabench.actors.0.syncduet.AB.A.results.csv", []byte("iteration_time_ns,total_ms,compilation_time_ms\n3000000,1500,7\n2000000,1503.25,7\n"),
		[]byte("Tue 12 Jul 08:00:00 AEST 2022"), []byte(""))
	f.Add("speccpu.505_mcf_r.0.duet.AB.A.result", []byte("  Rate Start:   2022-06-01 14:04:52 (1654092292.28303)\n  Rate End:     2022-06-01 14:12:37 (1654092757.17651)\n"),
		[]byte("2022-06-01T14:04:52Z"), []byte("Model name: EPYC\n"))
	f.Fuzz(func(t *testing.T, name string, result, date, lscpu []byte) {
		if name == "" || name == "." || name == ".." || name == artifactsDir || strings.ContainsAny(name, "/\\\x00") || len(name) > 200 {
			return
		}
		dir := t.TempDir()
		put := func(path string, b []byte) {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				testenv.Skip(t, "%v", err) // a name the file system refuses
			}
		}
		put(filepath.Join(dir, artifactsDir, "date"), date)
		put(filepath.Join(dir, artifactsDir, "lscpu"), lscpu)
		names := []string{name}
		if b := strings.Replace(name, ".A.", ".B.", 1); b != name {
			names = append(names, b)
		}
		for _, n := range names {
			if strings.HasSuffix(n, ".result") {
				put(filepath.Join(dir, n, "CPU2017.002.log"), result)
			} else {
				put(filepath.Join(dir, n), result)
			}
		}
		b := table.NewBuilder(memory.NewGoAllocator(), 0)
		defer b.Release()
		var rep ingest.Summary
		err := (format{}).ReadDir(dir, ingest.Source{}, b, &rep)
		for _, k := range rep.Kinds() {
			for _, e := range k.Examples {
				if !strings.HasPrefix(e.File, dir) {
					t.Fatalf("%s: example %q does not name the directory or a file in it", k.Kind, e)
				}
			}
		}
		if err != nil {
			var pe *ingest.ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(pe.File, dir) {
				t.Fatalf("error %v: want a *ingest.ParseError naming the directory", err)
			}
			return
		}
		tab := b.Finish()
		defer tab.Release()
		ingesttest.CheckClean(t, tab)
		tab.Rows(func(r *table.Row) error {
			if !(r.NsPerOp > 0) || r.NsPerOp > 1e300 || !r.HasTime || r.EndNs < r.StartNs || r.Pair != "A" && r.Pair != "B" {
				t.Fatalf("bad row kept: %+v", r)
			}
			return nil
		})
	})
}
