package reports

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRowsParquetHugeSchema reads a frame whose Parquet footer claims
// 2³⁰ children of the root schema element: the parquet library allocated
// 16 GiB for them (a fatal out-of-memory, not a panic); the footer check
// refuses the file first, naming it and the field.
func TestReadRowsParquetHugeSchema(t *testing.T) {
	f := &Frame{}
	f.String("name", []string{"a", "b"})
	f.IntList("changepoints", [][]int64{{3, 17}, nil})
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	// The root element: its name "schema", then num_children (field 5, an
	// i32 after field 4: header 0x15) as a one-byte zigzag varint.
	i := bytes.Index(data[start:], []byte("schema\x15"))
	if i < 0 {
		t.Fatal("no root schema element named schema in the footer")
	}
	at := start + i + len("schema\x15")
	huge := binary.AppendUvarint(nil, 1<<31) // zigzag(2³⁰)
	damaged := append(append(append([]byte(nil), data[:at]...), huge...), data[at+1:len(data)-8]...)
	damaged = binary.LittleEndian.AppendUint32(damaged, uint32(n+len(huge)-1))
	damaged = append(damaged, "PAR1"...)
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadRows(path)
	want := path + ": corrupt file: Parquet footer: schema[0].num_children: 1073741824, but only "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want %q…", err, want)
	}
}
