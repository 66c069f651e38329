package reports

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// fuzzFrame is a small frame with every column kind.
func fuzzFrame() *Frame {
	f := &Frame{}
	f.String("name", []string{"a", "b,c", ""})
	f.Int("n", []int64{1, -2, 3})
	f.OptionalInt("st_index", []int64{5, 0, 7}, []bool{true, false, true})
	f.Float("x", []float64{0.1, math.NaN(), 3})
	f.Bool("ok", []bool{true, false, true})
	f.IntList("changepoints", [][]int64{{3, 17}, nil, {1}})
	return f
}

// FuzzReadRows feeds ReadRows damaged CSV, Arrow IPC and Parquet files
// (seeded with a frame written in each format): it must return rows or an
// error naming the file, never panic or exhaust memory, and rows it
// returns must all have the header's width.
func FuzzReadRows(f *testing.F) {
	for i, write := range []func(*Frame, *bytes.Buffer) error{
		func(fr *Frame, b *bytes.Buffer) error { return fr.WriteCSV(b) },
		func(fr *Frame, b *bytes.Buffer) error { return fr.writeArrow(b) },
		func(fr *Frame, b *bytes.Buffer) error { return fr.writeParquet(b) },
	} {
		var b bytes.Buffer
		if err := write(fuzzFrame(), &b); err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b.Bytes())
	}
	exts := []string{".csv", ".arrow", ".parquet"}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		path := filepath.Join(t.TempDir(), "f"+exts[int(kind)%len(exts)])
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := ReadRows(path)
		if err != nil {
			if len(err.Error()) < len(path) || err.Error()[:len(path)] != path {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if filepath.Ext(path) == ".csv" {
			return // CSV rows may differ in width; the callers check
		}
		for i, r := range rows.Cells {
			if len(r) != len(rows.Header) {
				t.Fatalf("row %d has %d cells for %d columns", i, len(r), len(rows.Header))
			}
		}
	})
}
