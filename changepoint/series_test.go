package changepoint

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestReadSeries(t *testing.T) {
	cases := []struct {
		name, in, column string
		want             []float64
		note, err        string
	}{
		{"lines", "1\n2.5\n\n-3e2\n", "", []float64{1, 2.5, -300}, "1 blank line(s) skipped", ""},
		{"header line", "ns\n4\n5\n", "", []float64{4, 5}, `line 1 ("ns") is not a number: taken as a header`, ""},
		{"bad line", "1\noops\n", "", nil, "", `s.txt:2: "oops" is not a number`},
		{"non-finite", "1\nNaN\n", "", nil, "", "s.txt:2: value NaN is not finite"},
		{"csv column", "a,b\n1,2\n3,\n5,6,7\n", "b", []float64{2, 6}, `1 row(s) with an empty "b" skipped`, ""},
		{"csv no column", "a,b\n1,2\n", "y", nil, "", `s.txt:1: no column "y" (columns: a, b)`},
		{"csv short row", "a,b\n1\n", "b", nil, "", `s.txt:2: 1 fields, no column "b"`},
		{"csv bad value", "a,b\n1,2\n3,oops\n", "b", nil, "", `s.txt:3: column "b": "oops" is not a finite number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, note, err := ReadSeries("s.txt", strings.NewReader(c.in), c.column)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("err = %v, want %s", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(x, c.want) || note != c.note {
				t.Errorf("got %v, %q, %v; want %v, %q", x, note, err, c.want, c.note)
			}
		})
	}
}

// FuzzReadSeries feeds arbitrary bytes (and column names) to ReadSeries,
// the changepoint command's input reader. It must not panic, must name the
// input in its errors, and a series it returns holds only finite values.
//
//	go test -run '^$' -fuzz '^FuzzReadSeries$' -fuzztime 60s ./changepoint/
func FuzzReadSeries(f *testing.F) {
	f.Add([]byte("1\n2.5\n\n-3e2\n"), "")
	f.Add([]byte("ns_per_op\n4\n5\n"), "")
	f.Add([]byte("a,b\n1,2\n3,\n5,6,7\n"), "b")
	f.Add([]byte("a,\"b\nc\"\n1,\"2\"\n"), "b\nc")
	f.Fuzz(func(t *testing.T, data []byte, column string) {
		x, _, err := ReadSeries("in.csv", strings.NewReader(string(data)), column)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.csv:") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("value %d is %v", i, v)
			}
		}
	})
}
