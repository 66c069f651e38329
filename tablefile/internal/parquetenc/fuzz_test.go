package parquetenc

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// FuzzWriter writes a row group built from the bytes: runs of indices
// into a dictionary of 1 to 300 values (the hybrid encoding's runs,
// literal groups and bit widths), int64 values DELTA_BINARY_PACKED (any
// differences), and nullable doubles; Arrow's Parquet reader must give
// every value back.
func FuzzWriter(f *testing.F) {
	f.Add([]byte{3, 1, 0, 2, 9, 0, 255, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1, 2})
	f.Add(bytes.Repeat([]byte{200, 17, 0, 255}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		nd := 1 + int(binary.LittleEndian.Uint16(append(data[:2:2], 0))%300)
		data = data[2:]
		var runs []Run
		var idx []int32
		var ints []int64
		var floats []float64
		var valid []bool
		for i := 0; i+1 < len(data) && len(idx) < 1<<16; i += 2 {
			j, n := int32(int(data[i])%nd), 1+int(data[i+1])%40
			runs = append(runs, Run{Index: j, Len: int32(n)})
			for range n {
				idx = append(idx, j)
			}
		}
		for k := range idx {
			var x int64
			for b := 0; b < 8; b++ {
				x = x<<8 | int64(data[(k*8+b)%len(data)])
			}
			if k%5 == 0 {
				x = int64(k) // stretches of small differences
			}
			ints = append(ints, x)
			floats = append(floats, float64(x)/3)
			valid = append(valid, data[k%len(data)]&1 == 0)
		}
		rows := len(idx)
		if rows == 0 {
			return
		}
		dict := make([]int32, nd)
		for j := range dict {
			dict[j] = int32(j*7 - 3)
		}
		cols := []Column{{Name: "d", Type: Int32}, {Name: "i", Type: Int64}, {Name: "f", Type: Double, Optional: true}}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, cols, []Codec{Snappy}, nil)
		must(t, err)
		mem := memory.NewGoAllocator()
		ib := array.NewInt64Builder(mem)
		ib.AppendValues(ints, nil)
		fb := array.NewFloat64Builder(mem)
		fb.AppendValues(floats, valid)
		must(t, w.BeginRowGroup(int64(rows)))
		must(t, w.WriteInt32Dict(dict, runs))
		must(t, w.WriteArrays([]arrow.Array{ib.NewArray()}, true))
		must(t, w.WriteArrays([]arrow.Array{fb.NewArray()}, false))
		must(t, w.EndRowGroup())
		must(t, w.Close())
		tbl, _ := readTable(t, buf.Bytes())
		defer tbl.Release()
		k := 0
		for ci, c := range tbl.Column(0).Data().Chunks() {
			ic := tbl.Column(1).Data().Chunks()[ci]
			fc := tbl.Column(2).Data().Chunks()[ci]
			for r := 0; r < c.Len(); r, k = r+1, k+1 {
				if got := int32At(c, r); got != dict[idx[k]] {
					t.Fatalf("row %d: dictionary value %d, want %d", k, got, dict[idx[k]])
				}
				if got := ic.(*array.Int64).Value(r); got != ints[k] {
					t.Fatalf("row %d: int64 %d, want %d", k, got, ints[k])
				}
				if fc.IsValid(r) != valid[k] || valid[k] && fc.(*array.Float64).Value(r) != floats[k] {
					t.Fatalf("row %d: double %v, want %v (valid %v)", k, fc, floats[k], valid[k])
				}
			}
		}
		if k != rows {
			t.Fatalf("read %d rows, want %d", k, rows)
		}
	})
}
