package table

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
)

// countingCopier is an atomicfile.Copier that counts the bytes it copies
// from a file and leaves as holes.
type countingCopier struct {
	atomicfile.Copier
	copied, skipped int64
}

func (c *countingCopier) Skip(n int64) error {
	c.skipped += n
	return c.Copier.Skip(n)
}

func (c *countingCopier) CopyFrom(src *os.File, off, n int64) error {
	c.copied += n
	return c.Copier.CopyFrom(src, off, n)
}

// TestRawSpoolCopies checks that rawSpool.writeTo writes an uncompressed
// file through an atomicfile.Copier by copying the records' large
// buffers from the scratch file (most of the file's bytes) and leaving
// their zero buffers as holes, and that the file is byte for byte the one
// it writes from records read back whole (to a writer that only writes).
func TestRawSpoolCopies(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := NewBuilder(mem, 1<<14)
	defer b.Release()
	appendSpillRows(t, b, 1<<14*3+5)
	tb := b.Finish()
	defer tb.Release()
	dir := t.TempDir()
	write := func(direct bool) ([]byte, *countingCopier) {
		sp, err := newRawSpool(filepath.Join(dir, "t.arrow"))
		if err != nil {
			t.Fatal(err)
		}
		defer sp.remove()
		var c coder
		for _, rec := range tb.Records {
			coded := c.encode(rec)
			err := sp.add(coded)
			coded.Release()
			if err != nil {
				t.Fatal(err)
			}
		}
		schema, err := tb.schemaWithMetadata()
		if err != nil {
			t.Fatal(err)
		}
		if !direct {
			var buf bytes.Buffer
			if err := sp.writeTo(&buf, schema, c.dictionaries(), ""); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes(), nil
		}
		out, err := os.Create(filepath.Join(dir, "out.arrow"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		w, done := atomicfile.SparseWriter(out)
		cc := &countingCopier{Copier: w}
		if err := sp.writeTo(cc, schema, c.dictionaries(), ""); err != nil {
			t.Fatal(err)
		}
		if err := done(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out.Name())
		if err != nil {
			t.Fatal(err)
		}
		return data, cc
	}
	readBack, _ := write(false)
	copied, cc := write(true)
	if !bytes.Equal(copied, readBack) {
		t.Fatalf("the file written by copying differs from the one written from records read back (%d and %d bytes)", len(copied), len(readBack))
	}
	// Per row: value, ns_per_op, count, line (8 bytes each), the codes of
	// benchmark and the levels (4 each) are copied; the codes of project,
	// version, mode, pair and source are zeros (holes), and so are the
	// timestamps, but on every seventh row.
	rows := tb.NumRows()
	if min := rows * 8 * 4; cc.copied < min || cc.copied > int64(len(copied)) {
		t.Errorf("copied %d bytes of a %d-byte file, want at least %d", cc.copied, len(copied), min)
	}
	// Holes: buffers of 64 KiB or more, so those of the full records of
	// 2¹⁴ rows.
	if full := rows - rows%(1<<14); cc.skipped < full*4*5 {
		t.Errorf("left %d bytes as holes, want at least the zero codes' %d", cc.skipped, full*4*5)
	}
}
