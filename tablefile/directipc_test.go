package tablefile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestDirectIPC checks the .arrow files directIPC writes in one pass
// against the file written from records held in memory: the same rows
// and setups through ReadFile (Arrow's file reader, which takes the
// schema and the blocks from the footer), the same record batch
// messages, and a valid IPC stream after the magic (what a stream reader
// sees: the padded schema message, the dictionaries, the records). With
// the default region, the file's start is padded to it; with a region of
// 64 bytes the start is longer and the records move.
func TestDirectIPC(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := table.NewBuilder(mem, 1<<14)
	defer b.Release()
	appendSpillRows(t, b, 1<<14*5/2)
	if err := b.AddSetup(table.Setup{Key: table.Key{Project: "p", Version: "v1", Benchmark: "A", Params: "", Mode: "avgt"}, Tool: "jmh", Forks: 1, Source: "f.json"}); err != nil {
		t.Fatal(err)
	}
	tb := b.Finish()
	defer tb.Release()
	dir := t.TempDir()
	held := writeHolding(t, tb, filepath.Join(dir, "held.arrow"), 1<<30, WriteOptions{})
	want := readRows(t, filepath.Join(dir, "held.arrow"), mem)
	heldBatches := batchMessages(t, held)
	for _, reserve := range []int64{1 << 20, 64} {
		path := filepath.Join(dir, "direct.arrow")
		func() {
			defer func(h, r int64) { directHoldBytes, directReserve = h, r }(directHoldBytes, directReserve)
			directHoldBytes, directReserve = 0, reserve
			if err := writeTable(path, tb, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := readRows(t, path, mem); !reflect.DeepEqual(got, want) {
			t.Errorf("region %d: ReadFile gives other rows or setups than the held file's", reserve)
		}
		if got := batchMessages(t, data); !reflect.DeepEqual(got, heldBatches) {
			t.Errorf("region %d: %d record batch messages, want the held file's %d, byte for byte", reserve, len(got), len(heldBatches))
		}
		if reserve > 64 && int64(len(data)) <= reserve {
			t.Errorf("region %d: a file of %d bytes", reserve, len(data))
		}
		// The stream after the magic: schema, dictionaries, records, then
		// the footer, which is no message.
		r, err := ipc.NewReader(bytes.NewReader(data[8:]), ipc.WithAllocator(mem))
		if err != nil {
			t.Fatalf("region %d: as a stream: %v", reserve, err)
		}
		var rows int64
		for r.Next() {
			rows += r.Record().NumRows()
		}
		r.Release()
		if rows != tb.NumRows() {
			t.Errorf("region %d: a stream reader reads %d rows, want %d", reserve, rows, tb.NumRows())
		}
	}
}

// readRows reads the table file path and returns its rows and setups.
func readRows(t *testing.T, path string, mem memory.Allocator) struct {
	Rows   []table.Row
	Setups []table.Setup
} {
	t.Helper()
	tb, err := ReadFile(path, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Release()
	var out struct {
		Rows   []table.Row
		Setups []table.Setup
	}
	tb.Rows(func(r *table.Row) error { out.Rows = append(out.Rows, *r); return nil })
	out.Setups = tb.Setups
	return out
}

// batchMessages returns the record batch messages (prefix, metadata and
// body) of the Arrow IPC file data, in the footer's order.
func batchMessages(t *testing.T, data []byte) [][]byte {
	t.Helper()
	f, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := len(data)
	flen := int(binary.LittleEndian.Uint32(data[n-10:]))
	footer := data[n-10-flen : n-10]
	at, nrec := blockVector(footer, footerRecordBatches)
	if nrec != f.NumRecords() {
		t.Fatalf("%d record blocks, the reader counts %d", nrec, f.NumRecords())
	}
	var out [][]byte
	for i := 0; i < nrec; i++ {
		b := footer[at+i*blockBytes:]
		off := int64(binary.LittleEndian.Uint64(b))
		end := off + int64(int32(binary.LittleEndian.Uint32(b[8:]))) + int64(binary.LittleEndian.Uint64(b[16:]))
		if off < 0 || end > int64(n) {
			t.Fatalf("block %d: [%d, %d) outside a file of %d bytes", i, off, end, n)
		}
		out = append(out, data[off:end])
	}
	return out
}
