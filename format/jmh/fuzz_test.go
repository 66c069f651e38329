package jmh

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/ingest/ingesttest"
	"github.com/benchtrim/benchtrim/table"
)

// FuzzRead checks that Read never panics, that every error is an
// *ingest.ParseError (the input is in memory, so there are no I/O errors),
// that rows are well-formed, and that reading in small chunks gives the
// same result as one read.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./format/jmh/
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		// Broken variants: truncated at a few places.
		for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 5} {
			if cut > 0 && cut < len(data) {
				f.Add(data[:cut])
			}
		}
	}
	for _, s := range []string{
		"", "[", "[]", "[{}]", "[1]", "[[]]", `[{"primaryMetric":[]}]`,
		`[{"benchmark":"b","mode":"sample","primaryMetric":{"scoreUnit":"us/op","rawDataHistogram":[[[[1.0,2],[2.0,"x"],[3]]]]}}]`,
		`[{"benchmark":"b","mode":"thrpt","threads":-3,"primaryMetric":{"scoreUnit":"ops/s","rawData":[[0.0,1e400,-1]]}}]`,
		`[{"benchmark":"b","mode":"avgt","primaryMetric":{"scoreUnit":"ns/op","rawData":[["\ud800",-Infinity,+INF]]}}]`,
		"[\n<<<<<<< HEAD\n]\n", "\xEF\xBB\xBF[ ]", `[{"params":{"a":"` + "\n" + `"}}]`,
		"[{\"benchmark\":\"b\\n\xff\",\"mode\":\"bogus\",\"threads\":0,\"forks\":-5,\"params\":{\"k\\u0001\":\"v\xc3\"},\"primaryMetric\":{\"scoreUnit\":\"ns/op\",\"rawData\":[[1]]}}]",
		`[{"benchmark":"b","mode":"SampleTime","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1]]},"secondaryMetrics":{"\t":{"scoreUnit":"\u0085","rawData":[[2]]}}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole := fuzzRead(t, bytes.NewReader(data))
		chunked := fuzzRead(t, &chunkReader{bytes.NewReader(data), 1 + len(data)%13})
		if errString(whole.err) != errString(chunked.err) || whole.rows != chunked.rows || whole.report != chunked.report {
			t.Fatalf("single read: %v, %d rows\n%s\nchunked: %v, %d rows\n%s", whole.err, whole.rows, whole.report, chunked.err, chunked.rows, chunked.report)
		}
	})
}

type fuzzResult struct {
	err    error
	rows   int64
	report string
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func fuzzRead(t *testing.T, r io.Reader) fuzzResult {
	b := table.NewBuilder(memory.NewGoAllocator(), 256)
	defer b.Release()
	rep := &ingest.Summary{}
	err := format{}.Read(r, ingest.Source{File: "fuzz.json"}, b, rep)
	if err != nil {
		var pe *ingest.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not an *ingest.ParseError", err, err)
		}
		if pe.File != "fuzz.json" || pe.Msg == "" {
			t.Fatalf("ParseError without file or message: %#v", pe)
		}
	}
	tb := b.Finish()
	defer tb.Release()
	ingesttest.CheckClean(t, tb)
	if tb.NumRows() > 0 {
		tb.Rows(func(row *table.Row) error {
			if row.Fork < 1 || row.Iteration < 1 || row.Count < 1 || row.Line < 1 || row.Benchmark == "" || row.Mode == "" {
				t.Fatalf("malformed row %+v", row)
			}
			if row.Metric == table.Primary {
				if reason, ok := ingest.CheckTime(row.Mode, row.NsPerOp); !ok {
					t.Fatalf("primary row with %s kept: %+v", reason, row)
				}
			}
			return nil
		})
	}
	return fuzzResult{err: err, rows: tb.NumRows(), report: reportString(rep)}
}
