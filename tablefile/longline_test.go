package tablefile

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/linecap"
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

// FuzzCSVLongLines reads canonical CSV tables and setups sidecars in which
// one line is past the (lowered) bound: never accepted, the error naming
// the file at a line no later than the long one.
//
//	go test -run '^$' -fuzz '^FuzzCSVLongLines$' -fuzztime 60s -fuzzminimizetime 100x ./table/
func FuzzCSVLongLines(f *testing.F) {
	restore := linecap.SetLimits(256, 1024)
	f.Cleanup(restore)
	row := "p,v1,b.A,,avgt,primary,ns/op,5,5,1,1,1,1,1,1,false,,,,r.json,3"
	f.Add([]byte(strings.Join(csvHeader(), ",")+"\n"+row+"\n"+row+"\n"), uint16(2), uint16(0), false)
	f.Add([]byte(strings.Join(setupsHeader, ",")+"\np,v1,b.A,,avgt,jmh,1.37,2,5,1000000000,5,1000000000,false,1,1,1,1,1,0,,r.json\n"), uint16(1), uint16(9), true)
	f.Fuzz(func(t *testing.T, data []byte, at, pad uint16, sidecar bool) {
		lines := strings.Split(string(data), "\n")
		i := int(at) % len(lines)
		lines[i] += strings.Repeat("7", 257+int(pad)%2048)
		r := strings.NewReader(strings.Join(lines, "\n"))
		var err error
		if sidecar {
			_, err = readSetupsCSV(r, "t.setups.csv")
		} else {
			_, err = readCSVGuarded(r, "t.csv", memory.NewGoAllocator())
		}
		if err == nil {
			t.Fatalf("a line of %d bytes (line %d) was accepted", len(lines[i]), i+1)
		}
		var line int
		name := "t.csv"
		if sidecar {
			name = "t.setups.csv"
		}
		if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), name+":"), "%d:", &line); !strings.HasPrefix(err.Error(), name+":") || e == nil && line > i+1 {
			t.Fatalf("error %q, want one naming %s at line %d or before", err, name, i+1)
		}
	})
}
