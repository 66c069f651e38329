package ingest_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
)

// goBench writes a go test -bench file holding the named benchmarks.
func goBench(t *testing.T, dir, name string, benchmarks ...string) string {
	t.Helper()
	s := "goos: linux\ngoarch: amd64\npkg: strings\n"
	for _, b := range benchmarks {
		for _, ns := range []string{"10.5", "11.0", "10.8"} {
			s += b + "-8   \t1000000\t" + ns + " ns/op\n"
		}
	}
	s += "# " + name + "\n" // distinct content: equal files are refused as copies
	s += "PASS\nok  \tstrings\t1.0s\n"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVersionsFromFileNames checks that files are labelled the way
// benchstat users name them: NAME=FILE gives version NAME; files of one
// format holding the same benchmarks (old.txt, new.txt) are versions of
// one suite named by their base names; PROJECT-VERSION names and files
// holding different benchmarks keep the file-name convention.
func TestVersionsFromFileNames(t *testing.T) {
	dir := t.TempDir()
	old := goBench(t, dir, "old.txt", "BenchmarkIndex", "BenchmarkIndexByte/size=10")
	nw := goBench(t, dir, "new.txt", "BenchmarkIndex", "BenchmarkIndexByte/size=10")
	other := goBench(t, dir, "other.txt", "BenchmarkSplit")
	v1 := goBench(t, dir, "strings-v1.0.txt", "BenchmarkIndex")
	v2 := goBench(t, dir, "strings-v1.1.txt", "BenchmarkIndex")
	day1 := goBench(t, dir, "2018-05-01.txt", "BenchmarkIndex")
	day2 := goBench(t, dir, "2019-06-01.txt", "BenchmarkIndex")
	zap1 := goBench(t, dir, "zap-2024-01-02.txt", "BenchmarkIndex")
	zap2 := goBench(t, dir, "zap-2024-01-13.txt", "BenchmarkIndex")
	cases := []struct {
		name  string
		args  []string
		flags ingest.ReadOptions
		want  []string // project@version of the runs' setups, sorted, distinct
	}{
		{"same benchmarks are versions", []string{old, nw}, ingest.ReadOptions{}, []string{"suite@new", "suite@old"}},
		{"NAME=FILE", []string{"base=" + old, "test=" + nw}, ingest.ReadOptions{}, []string{"suite@base", "suite@test"}},
		{"NAME=FILE with --project", []string{"a=" + old, "b=" + other}, ingest.ReadOptions{Project: "p"}, []string{"p@a", "p@b"}},
		{"--project keeps the versions", []string{old, nw}, ingest.ReadOptions{Project: "strings"}, []string{"strings@new", "strings@old"}},
		{"different benchmarks are projects", []string{old, other}, ingest.ReadOptions{}, []string{"old@", "other@"}},
		{"--version turns it off", []string{old, nw}, ingest.ReadOptions{Version: "v"}, []string{"new@v", "old@v"}},
		{"PROJECT-VERSION names", []string{v1, v2}, ingest.ReadOptions{}, []string{"strings@v1.0", "strings@v1.1"}},
		{"one file", []string{old}, ingest.ReadOptions{}, []string{"old@"}},
		// The project is the common prefix of whole tokens, not "201".
		{"dates", []string{day1, day2}, ingest.ReadOptions{}, []string{"suite@2018-05-01", "suite@2019-06-01"}},
		{"project and dates", []string{zap1, zap2}, ingest.ReadOptions{}, []string{"zap-2024-01@zap-2024-01-02", "zap-2024-01@zap-2024-01-13"}},
		{"NAME=FILE of dates", []string{"a=" + zap1, "b=" + day1}, ingest.ReadOptions{}, []string{"suite@a", "suite@b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.flags
			opt.Formats = all.Formats()
			tab, _, files, err := ingest.ReadFiles(tc.args, opt)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Release()
			var got []string
			for _, s := range tab.Setups {
				l := s.Project + "@" + s.Version
				if !slices.Contains(got, l) {
					got = append(got, l)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("labels %v, want %v", got, tc.want)
			}
			for _, f := range files {
				if _, err := os.Stat(f.Path); err != nil {
					t.Errorf("file result path %q is not the file: %v", f.Path, err)
				}
			}
		})
	}
}
