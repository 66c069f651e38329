package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

// TestShardsReadTheirPart: a table written by benchtrim ingest --by-shard
// (two versions of a JMH suite and a µOpTime suite), analysed as shards
// 0/3, 1/3 and 2/3 (in memory without a bound and within --max-rows,
// and spooled past it) and merged,
// prints and writes what the unsharded run on it does, whose files are
// those of the unsharded run on the original inputs; each shard reads
// less than half of the table's rows, and the three together at most the
// table's rows plus a row group at each of the two inner edges.
func TestShardsReadTheirPart(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "skipping the sharded runs in -short mode")
	}
	dir := t.TempDir()
	gen := func(name string, args ...string) string { return generated(t, dir, name, args...) }
	inputs := []string{
		gen("proj-v1.json", "--benchmarks", "10", "--forks", "2", "--iterations", "120"),
		gen("proj-v2.json", "--benchmarks", "10", "--forks", "2", "--iterations", "120", "--version", "v2"),
		gen("go.csv", "--preset", "uoptime", "--benchmarks", "30"),
	}
	tbl := filepath.Join(dir, "all.parquet")
	if _, stderr, err := runCLI(t, append([]string{"ingest", "--by-shard", "-o", tbl}, inputs...)...); err != nil {
		t.Fatalf("ingest --by-shard: %v\n%s", err, stderr)
	}
	readLine := regexp.MustCompile(`shard (\d)/3 read (\d+) of the (\d+) rows of the tables written by shard`)
	for _, tc := range []struct {
		name string
		args []string
		outs []string
	}{
		{"optimize", []string{"optimize", "--resamples", "200"}, []string{"-o", "--summary-out"}},
		{"steady", []string{"steady", "--steady-window", "100", "--resamples", "300"}, []string{"--forks-out", "--benchmarks-out"}},
		{"trim", []string{"trim", "--steady-window", "100", "--resamples", "300"}, []string{"-o", "--commands-out"}},
	} {
		outputs := func(d string) []string {
			var args []string
			for _, o := range tc.outs {
				ext := ".csv"
				if o == "--commands-out" {
					ext = ".sh"
				}
				args = append(args, o, filepath.Join(d, strings.Trim(o, "-")+ext))
			}
			return args
		}
		run := func(sub string, args ...string) (string, string, map[string][]byte) {
			d := filepath.Join(dir, tc.name, sub)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			out, stderr, err := runCLI(t, append(args, outputs(d)...)...)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", tc.name, sub, err, stderr)
			}
			return strings.ReplaceAll(out, d, "OUT"), stderr, readTree(t, d)
		}
		wantOut, _, want := run("whole", append(append([]string{"--quiet"}, tc.args...), tbl)...)
		_, _, orig := run("orig", append(append([]string{"--quiet"}, tc.args...), inputs...)...)
		for name, w := range want {
			if !bytes.Equal(orig[name], w) {
				t.Errorf("%s: %s of the --by-shard table differs from that of the original inputs", tc.name, name)
			}
		}
		for _, maxRows := range []string{"0", "1500000", "2000"} {
			d := filepath.Join(dir, tc.name, "rows"+maxRows)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			var partials []string
			var read, total int64
			for k := 0; k < 3; k++ {
				p := filepath.Join(d, fmt.Sprintf("s%d.partial", k))
				args := append(append([]string{"--max-rows", maxRows}, tc.args...), "--shard", fmt.Sprintf("%d/3", k), "--partial-out", p, tbl)
				_, stderr, err := runCLI(t, args...)
				if err != nil {
					t.Fatalf("%s shard %d/3: %v\n%s", tc.name, k, err, stderr)
				}
				m := readLine.FindStringSubmatch(stderr)
				if m == nil || m[1] != strconv.Itoa(k) {
					t.Fatalf("%s shard %d/3: no line on the rows read in\n%s", tc.name, k, stderr)
				}
				r, _ := strconv.ParseInt(m[2], 10, 64)
				total, _ = strconv.ParseInt(m[3], 10, 64)
				t.Logf("%s --max-rows %s: shard %d/3 read %d of %d rows (%.2f)", tc.name, maxRows, k, r, total, float64(r)/float64(total))
				if 2*r >= total {
					t.Errorf("%s shard %d/3 read %d of %d rows", tc.name, k, r, total)
				}
				read += r
				partials = append(partials, p)
			}
			// A row group of several benchmark groups holds at most 1,024
			// rows on an input this small; one of a single group (larger)
			// has a single key hash, which one shard reads. So the
			// shards read each row once, and a row group at each of the
			// two inner edges twice.
			if read > total+2*1024 {
				t.Errorf("%s: the shards read %d rows of %d", tc.name, read, total)
			}
			got, stderr, err := runCLI(t, append(append([]string{"merge"}, partials...), outputs(d)...)...)
			if err != nil {
				t.Fatalf("%s merge: %v\n%s", tc.name, err, stderr)
			}
			if got = strings.ReplaceAll(got, d, "OUT"); got != wantOut {
				t.Errorf("%s --max-rows %s: merge prints\n%s\nthe unsharded run\n%s", tc.name, maxRows, got, wantOut)
			}
			files := readTree(t, d)
			for name, w := range want {
				if !bytes.Equal(files[name], w) {
					t.Errorf("%s --max-rows %s: merged %s differs from the unsharded run's (%d bytes, want %d)", tc.name, maxRows, name, len(files[name]), len(w))
				}
			}
		}
	}
}
