package table

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// sevens is an endless reader of '7's: a line that never ends.
type sevens struct{}

func (sevens) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '7'
	}
	return len(p), nil
}

// TestCSVLongLine reads a canonical CSV table and a setups sidecar whose
// second line never ends, and a table whose header never ends: each is an
// error naming the line, within a minute and a bounded allocation (issue
// 47, class 5: a 1 GiB line in a canonical .csv was a fatal out-of-memory).
func TestCSVLongLine(t *testing.T) {
	row := "p,v1,b.A,,avgt,primary,ns/op,"
	for _, c := range []struct {
		name string
		read func(r io.Reader) error
		text string
		line string
	}{
		{"table", func(r io.Reader) error { _, err := readCSV(r, "t.csv", memory.NewGoAllocator(), nil); return err },
			strings.Join(csvHeader(), ",") + "\n" + row, "t.csv:2: line 2 is longer than 16777216 bytes"},
		{"table header", func(r io.Reader) error { _, err := readCSV(r, "t.csv", memory.NewGoAllocator(), nil); return err },
			"project,", "t.csv:1: line 1 is longer than 16777216 bytes"},
		{"sidecar", func(r io.Reader) error { _, err := readSetupsCSV(r, "t.setups.csv"); return err },
			strings.Join(setupsHeader, ",") + "\np,", "t.setups.csv:2: line 2 is longer than 16777216 bytes"},
		{"open quote", func(r io.Reader) error { _, err := readCSV(r, "t.csv", memory.NewGoAllocator(), nil); return err },
			strings.Join(csvHeader(), ",") + "\n\"" + strings.Repeat(strings.Repeat("x", 1000)+"\n", 70_000), "t.csv:2: the record starting on line 2 is longer than 67108864 bytes"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		done := make(chan error, 1)
		go func() { done <- c.read(io.MultiReader(strings.NewReader(c.text), sevens{})) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: reading has not stopped after a minute", c.name)
		}
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), c.line) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.line)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 512<<20 {
			t.Errorf("%s: %d MB allocated", c.name, grew>>20)
		}
	}
}
