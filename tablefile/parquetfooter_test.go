package tablefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile/internal/thrift"
)

// sampleParquet writes the sample table as benchtrim writes a table file
// (WriteFile, through Stream) and returns the file's bytes and rows.
func sampleParquet(t *testing.T) ([]byte, []table.Row) {
	t.Helper()
	tab := buildSample(t, memory.NewGoAllocator(), 3)
	defer tab.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := writeTable(path, tab, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, rowsOf(t, tab)
}

// withFooterInt returns data, a Parquet file, with the integer of its
// footer at s replaced by v (encoded as s.Kind is), and the footer length
// updated.
func withFooterInt(data []byte, s thrift.Site, v int64) []byte {
	n := int(binary.LittleEndian.Uint32(data[len(data)-parquetTail:]))
	start := len(data) - parquetTail - n
	footer := data[start : start+n]
	var enc []byte
	switch s.Kind {
	case thrift.SiteZigzag:
		enc = binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
	case thrift.SiteByte:
		enc = []byte{byte(v)}
	case thrift.SiteLength, thrift.SiteList:
		u := uint64(v)
		if v < 0 {
			u = uint64(uint32(v)) // what a reader of 32-bit sizes takes for -1
		}
		enc = binary.AppendUvarint(nil, u)
		if s.Kind == thrift.SiteList {
			enc = append([]byte{0xf0 | s.ListElem}, enc...)
		}
	}
	out := append([]byte(nil), data[:start]...)
	out = append(out, footer[:s.Start]...)
	out = append(out, enc...)
	out = append(out, footer[s.End:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(out)-start))
	return append(out, parquetMagic...)
}

// countField matches the footer fields that count, size or place
// something: a damaged one must be caught by the footer check itself.
var countField = regexp.MustCompile(`(\.size|\.length|num_children|num_rows|num_values|_size|_offset|_length|count)$`)

// TestParquetFooterSweep damages every integer of the footer of a small
// table file benchtrim wrote, one at a time, to 2³⁰, 2⁶², −1 (list and
// string lengths: 2³⁰, 2⁶², 2³²−1, what a 32-bit reader takes for −1;
// one-byte integers: −1 and 127). Reading it must give an error naming
// the file, never a panic (recovered or not) nor a large allocation, or,
// for a field the reader does not use, the same rows. Every count, size
// and offset must be refused by the footer check, naming the field: a root
// num_children of 2³⁰ made the parquet library ask for 16 GiB, a fatal
// error no recover catches.
func TestParquetFooterSweep(t *testing.T) {
	data, want := sampleParquet(t)
	var sites []thrift.Site
	if err := checkParquetFooter(bytes.NewReader(data), int64(len(data)), func(s thrift.Site) { sites = append(sites, s) }); err != nil {
		t.Fatalf("footer of a file benchtrim wrote: %v", err)
	}
	if len(sites) < 300 {
		t.Fatalf("%d integers in the footer, want the sample's 300 or more", len(sites))
	}
	saved := maxAllocation
	maxAllocation = fuzzMaxAllocation
	defer func() { maxAllocation = saved }()
	var mutations, refused, harmless int
	var ms runtime.MemStats
	for _, s := range sites {
		values := []int64{1 << 30, 1 << 62, -1}
		if s.Kind == thrift.SiteByte {
			values = []int64{-1, 127}
		}
		for _, v := range values {
			mutations++
			damaged := withFooterInt(data, s, v)
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			tab, err := decodeBinary(bytes.NewReader(damaged), formatParquet, "t.parquet", mem)
			runtime.ReadMemStats(&ms)
			if alloc := ms.TotalAlloc - before; alloc > 64<<20 {
				t.Errorf("%s = %d: reading allocated %d MiB", s.Field, v, alloc>>20)
			}
			if err == nil {
				if got := rowsOf(t, tab); !sameRows(got, want) {
					t.Errorf("%s = %d: read without error, but the rows differ", s.Field, v)
				}
				tab.Release()
				harmless++
				// arrow v15 writes a negative null_count for dictionary
				// columns: statistics' counts are bounded from above only.
				if countField.MatchString(s.Field) && !(v < 0 && strings.Contains(s.Field, ".statistics.")) {
					t.Errorf("%s = %d: a count read without error", s.Field, v)
				}
				continue
			}
			mem.AssertSize(t, 0)
			var pe *panicError
			switch msg := err.Error(); {
			case !strings.HasPrefix(msg, "t.parquet: "):
				t.Errorf("%s = %d: error %q does not name the file", s.Field, v, msg)
			case errors.As(err, &pe):
				t.Errorf("%s = %d: the reader panicked (recovered): %v", s.Field, v, err)
			case strings.Contains(msg, "Parquet footer: "):
				refused++
			case countField.MatchString(s.Field):
				t.Errorf("%s = %d: error %q, not from the footer check", s.Field, v, msg)
			}
		}
	}
	t.Logf("%d integers of the footer, %d damaged files: %d refused by the footer check, %d read with the same rows, %d refused later",
		len(sites), mutations, refused, harmless, mutations-refused-harmless)
}

// TestParquetFooterErrors checks the messages of the footer check on
// single damaged fields, among them the root's num_children of 2³⁰.
func TestParquetFooterErrors(t *testing.T) {
	data, _ := sampleParquet(t)
	sites := map[string]thrift.Site{}
	checkParquetFooter(bytes.NewReader(data), int64(len(data)), func(s thrift.Site) { sites[s.Field] = s })
	for _, c := range []struct {
		field string
		v     int64
		want  string
	}{
		{"schema[0].num_children", 1 << 30, "t.parquet: corrupt table file: Parquet footer: schema[0].num_children: 1073741824, but only 21 schema elements follow"},
		{"schema[0].num_children", -1, "t.parquet: corrupt table file: Parquet footer: schema[0].num_children: -1, outside [0, 2147483647]"},
		{"schema[0].num_children", 1 << 62, "t.parquet: corrupt table file: Parquet footer: schema[0].num_children: value 9223372036854775808 does not fit in 32 bits"},
		{"schema.size", 1 << 30, "t.parquet: corrupt table file: Parquet footer: schema: 1073741824 elements, but "},
		{"num_rows", 1 << 30, "t.parquet: corrupt table file: Parquet footer: num_rows: 1073741824, but the row groups hold 7"},
		{"row_groups[0].num_rows", 1 << 62, "t.parquet: corrupt table file: Parquet footer: row_groups[0].num_rows: 4611686018427387904, more than "},
		{"row_groups[0].columns[4].meta_data.num_values", 1 << 30, "t.parquet: corrupt table file: Parquet footer: row_groups[0].columns[4].meta_data.num_values: 1073741824 values in a row group of 7 rows"},
		{"row_groups[0].columns[4].meta_data.data_page_offset", -1, "t.parquet: corrupt table file: Parquet footer: row_groups[0].columns[4].meta_data.data_page_offset: -1, outside"},
		{"row_groups[0].columns[4].meta_data.total_compressed_size", 1 << 30, "t.parquet: corrupt table file: Parquet footer: row_groups[0].columns[4].meta_data.total_compressed_size: offset "},
		{"key_value_metadata[0].value.length", 1 << 30, "t.parquet: corrupt table file: Parquet footer: key_value_metadata[0].value: length 1073741824, but "},
	} {
		s, ok := sites[c.field]
		if !ok {
			t.Errorf("no field %s in the footer", c.field)
			continue
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		_, err := decodeBinary(bytes.NewReader(withFooterInt(data, s, c.v)), formatParquet, "t.parquet", mem)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s = %d: error %v, want %q…", c.field, c.v, err, c.want)
		}
		mem.AssertSize(t, 0)
	}
	if err := checkParquetFooter(bytes.NewReader(data[:len(data)-1]), int64(len(data)-1), nil); err == nil {
		t.Errorf("a file without its last byte passed the footer check")
	}
}

// FuzzParquetFooter feeds arbitrary bytes, starting from small table files
// benchtrim wrote, to the footer check: no panic, and a file it accepts
// the parquet library opens (the footer decodes) without a panic.
//
//	go test -run '^$' -fuzz '^FuzzParquetFooter$' -fuzztime 60s -fuzzminimizetime 100x ./table/
func FuzzParquetFooter(f *testing.F) {
	for i, tab := range seedTables() {
		path := filepath.Join(f.TempDir(), fmt.Sprintf("%d.parquet", i))
		if err := writeTable(path, tab, WriteOptions{}); err != nil {
			f.Fatal(err)
		}
		tab.Release()
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := checkParquetFooter(bytes.NewReader(data), int64(len(data)), nil); err != nil {
			return
		}
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err == nil {
			pf.Close()
		}
	})
}
