package all_test

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/testenv"
)

// realInput is one input of ../shared/data: a result file, or a duetbench
// output directory read as one input.
type realInput struct {
	path  string // relative to ../shared/data
	count func(t *testing.T, path string) counted
	what  string // what count counts
	// skipped are the report kinds of rows the reader may leave out of
	// this input: rows + skipped must equal the independent count.
	skipped []string
	// inner, when set, checks what the reader did with the files of a
	// directory input that are not results (a line of the table's notes).
	inner func(t *testing.T, path string, rep *ingest.Summary, notes *strings.Builder)
}

// kindTextResult is format/jmh's report kind of a profiler's text result.
const kindTextResult = "text profiler result"

// counted is what a count found: values, the rows a reader makes of them,
// and metrics that hold no value (a JMH profiler's text result), which a
// reader reports as one skipped item each.
type counted struct{ values, empty int }

// realInputs lists the inputs under data: every .json, .txt and .csv file
// (the FORMAT, SOURCES and README notes and the blob lists are not
// results), with the duetbench output directory in place of its files.
func realInputs(t *testing.T, data string) []realInput {
	t.Helper()
	const duetDir = "duet/raw/renaissance_chi-square_duet_2022-03-20"
	var in []realInput
	err := filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(data, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel == duetDir:
			in = append(in, realInput{path: rel, count: renaissanceResults, what: "Renaissance results[] entries", inner: earlyCSV})
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		switch filepath.Ext(p) {
		case ".txt":
			in = append(in, realInput{path: rel, count: goResultValues, what: "value/unit pairs of Benchmark lines"})
		case ".json":
			// JMH: a perfasm text result is a metric without values (its
			// score "NaN"), counted as one skipped item.
			in = append(in, realInput{path: rel, count: jmhValues, what: "rawData values and rawDataHistogram buckets",
				skipped: []string{kindTextResult}})
		case ".csv":
			in = append(in, realInput{path: rel, count: csvRecords, what: "CSV records after the header"})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestRealDataEveryFileRead ingests every result file of ../shared/data
// (JMH JSON of eight projects and of json-log-filter's releases, µOpTime's
// Go CSVs and its Java data sets of Laaber et al., go test output of three
// projects' releases, duet CSVs and a duetbench directory) one at a time,
// with format detection, and checks its rows against a count of the file's
// values made without benchtrim's readers: rows + counted skipped rows =
// the count, every skipped row of a kind the input may have. With -v it
// prints the table of counts.
func TestRealDataEveryFileRead(t *testing.T) {
	data := testenv.Shared(t, "data")
	inputs := realInputs(t, data)
	if len(inputs) < 100 {
		t.Fatalf("%d inputs under %s; want every result file (over 100)", len(inputs), data)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| file | format | independent count | rows | skipped | ignored lines |\n| --- | --- | ---: | ---: | --- | ---: |\n")
	for _, in := range inputs {
		path := filepath.Join(data, filepath.FromSlash(in.path))
		want := in.count(t, path)
		tab, rep, files, err := ingest.ReadFiles([]string{path}, ingest.ReadOptions{Formats: all.Formats()})
		if err != nil {
			t.Errorf("%s: %v", in.path, err)
			continue
		}
		tab.Release()
		rows := files[0].Rows
		var skips []string
		for _, k := range rep.Kinds() {
			if !k.Skipped() {
				continue
			}
			skips = append(skips, fmt.Sprintf("%d %s", k.N(), k.Kind))
			if !slices.Contains(in.skipped, k.Kind) {
				t.Errorf("%s: %d rows skipped as %q, which this input should not have", in.path, k.N(), k.Kind)
			}
		}
		if n := rep.Count(kindTextResult); n != want.empty {
			t.Errorf("%s: %d %s skipped, the file has %d metrics without values", in.path, n, kindTextResult, want.empty)
		}
		if rows == 0 || rows+int64(rep.SkippedRows()-want.empty) != int64(want.values) {
			t.Errorf("%s: %d rows + %d skipped, want %d (%s)", in.path, rows, rep.SkippedRows()-want.empty, want.values, in.what)
		}
		if in.inner != nil {
			in.inner(t, path, rep, &table)
		}
		fmt.Fprintf(&table, "| %s | %s | %d | %d | %s | %d |\n", in.path, files[0].Format, want.values, rows, strings.Join(skips, ", "), rep.IgnoredLines())
	}
	t.Logf("%d inputs:\n%s", len(inputs), table.String())
}

// goResultValues counts the value/unit pairs of the file's result lines,
// the lines that start with "Benchmark" followed by a name, white space and
// an iteration count (benchfmt's rule), with a plain field split.
func goResultValues(t *testing.T, path string) counted {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if !strings.HasPrefix(line, "Benchmark") || len(fields) < 4 || strings.Trim(fields[1], "0123456789") != "" {
			continue
		}
		n += (len(fields) - 2) / 2
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counted{values: n}
}

// jmhValues counts, over the records of a JMH JSON file decoded into
// generic maps, the values of the primary and secondary metrics: the
// buckets of rawDataHistogram ([fork][iteration][[value, count]…]) where a
// metric has one, else the entries of rawData ([fork][iteration]); and
// the metrics with neither (a profiler's text result).
func jmhValues(t *testing.T, path string) counted {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(b, &records); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	count := func(m any) int {
		metric, _ := m.(map[string]any)
		n := 0
		if h, ok := metric["rawDataHistogram"].([]any); ok {
			for _, fork := range h {
				for _, it := range fork.([]any) {
					n += len(it.([]any))
				}
			}
			return n
		}
		raw, _ := metric["rawData"].([]any)
		for _, fork := range raw {
			n += len(fork.([]any))
		}
		return n
	}
	var c counted
	add := func(m any) {
		n := count(m)
		c.values += n
		if n == 0 {
			c.empty++
		}
	}
	for _, r := range records {
		add(r["primaryMetric"])
		sec, _ := r["secondaryMetrics"].(map[string]any)
		for _, m := range sec {
			add(m)
		}
	}
	return c
}

// csvRecords counts the records after the header line, as encoding/csv
// reads them.
func csvRecords(t *testing.T, path string) counted {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return counted{values: len(recs) - 1}
}

// renaissanceResults counts the entries of data.<benchmark>.results in the
// Renaissance JSON results (*.results.json) of a duetbench directory.
func renaissanceResults(t *testing.T, dir string) counted {
	files, err := filepath.Glob(filepath.Join(dir, "*.results.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no *.results.json (%v)", dir, err)
	}
	n := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Data map[string]struct {
				Results []json.RawMessage `json:"results"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, d := range doc.Data {
			n += len(d.Results)
		}
	}
	return counted{values: n}
}

// earlyCSV checks the duetbench directory's other file: the early
// processing output of its JSONs (results.renaissance.test.csv, an old
// schema without suite, type or timestamps; data/duet/FORMAT.md, part B),
// which the directory's reader ignores with a warning, not silently. Its
// records are the JSONs' iterations.
func earlyCSV(t *testing.T, dir string, rep *ingest.Summary, notes *strings.Builder) {
	const name, kind = "results.renaissance.test.csv", "not a duetbench result file (ignored)"
	c := csvRecords(t, filepath.Join(dir, name))
	if n := rep.Count(kind); n != 1 {
		t.Errorf("%s: %d %q warnings, want 1 for %s", dir, n, kind, name)
	}
	fmt.Fprintf(notes, "| duet/raw/%s/%s | (not a result: the JSONs' early processing output) | %d | 0 | warned: %s | |\n", filepath.Base(dir), name, c.values, kind)
}
