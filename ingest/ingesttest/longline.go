package ingesttest

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/linecap"
	"github.com/benchtrim/benchtrim/table"
)

// endless is a reader of b's bytes repeated without end: a line that
// never ends when b holds no line break.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// LongLineAlloc bounds what a reader may allocate on a line that never
// ends (CheckLongLine): a few times the 16 MiB linecap holds, never the line.
const LongLineAlloc = 256 << 20

// CheckLongLine reads through f the lines head (with a line break after
// each; none for a header that never ends) and then a line that never
// ends, starting with prefix: the reader
// must stop within a minute with a *ingest.ParseError at that line saying
// it is too long, having allocated at most LongLineAlloc bytes (issue 47:
// a 1 GiB line in a CSV file was a fatal out-of-memory).
func CheckLongLine(t *testing.T, f ingest.Format, prefix string, head ...string) {
	t.Helper()
	text := prefix
	if len(head) > 0 {
		text = strings.Join(head, "\n") + "\n" + prefix
	}
	r := io.MultiReader(strings.NewReader(text), endless{'7'})
	done := make(chan error, 1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	go func() {
		b := table.NewBuilder(memory.NewGoAllocator(), 16)
		defer b.Release()
		done <- f.Read(r, ingest.Source{File: "long.csv"}, b, &ingest.Summary{})
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: reading a line that never ends has not stopped after a minute", f.Name())
	}
	runtime.ReadMemStats(&after)
	var pe *ingest.ParseError
	if !errors.As(err, &pe) || pe.File != "long.csv" || pe.Line != len(head)+1 || !strings.Contains(pe.Msg, "longer than") {
		t.Errorf("%s: error %v, want one at long.csv:%d saying the line is too long", f.Name(), err, len(head)+1)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > LongLineAlloc {
		t.Errorf("%s: %d MB allocated for the line, want at most %d", f.Name(), grew>>20, LongLineAlloc>>20)
	}
}

// FuzzLongLines fuzzes f's reader on result files in which one line is
// longer than the bound: linecap's bounds are lowered to 256 bytes a line
// and 1 KiB a record, and each input is data (seeded with the seeds, whole
// files) with its line number at replaced by that line padded with pad+1
// bytes past 256; the seeds are the files pattern matches (testdata). The
// reader must not panic and must not accept the file:
// it returns an error (a line too long, or an earlier error that ends the
// reading) that names the file, at a line no later than the long one.
func FuzzLongLines(f *testing.F, format ingest.Format, pattern string) {
	restore := linecap.SetLimits(256, 1024)
	f.Cleanup(restore)
	files, _ := filepath.Glob(pattern)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint16(1), uint16(0))
		f.Add(b, uint16(0), uint16(700))
	}
	f.Fuzz(func(t *testing.T, data []byte, at, pad uint16) {
		lines := strings.Split(string(data), "\n")
		i := int(at) % len(lines)
		lines[i] += strings.Repeat("7", 257+int(pad)%2048)
		text := strings.Join(lines, "\n")
		b := table.NewBuilder(memory.NewGoAllocator(), 16)
		defer b.Release()
		err := format.Read(strings.NewReader(text), ingest.Source{File: "long.csv"}, b, &ingest.Summary{})
		if err == nil {
			t.Fatalf("%s: a line of %d bytes (line %d) was accepted", format.Name(), len(lines[i]), i+1)
		}
		var pe *ingest.ParseError
		if errors.As(err, &pe) && (pe.File != "long.csv" || pe.Line > i+1) {
			t.Fatalf("%s: error %v, want one at long.csv:%d or before", format.Name(), err, i+1)
		}
		if !strings.Contains(err.Error(), "long.csv") {
			t.Fatalf("%s: error %q does not name the file", format.Name(), err)
		}
	})
}
