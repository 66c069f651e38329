package pa

import (
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestLongLine: a data line that never ends is an error at its line, with
// bounded memory (issue 47, class 5: a 1 GiB line was a fatal out-of-memory).
func TestLongLine(t *testing.T) {
	ingesttest.CheckLongLine(t, Format(), "p;c;b.B.ok;;m1;1;1;1;avgt;ns/op;1;", Header)
}

// FuzzLongLines: a line past the (lowered) bound anywhere in a file is
// never accepted (ingesttest.FuzzLongLines).
//
//	go test -run '^$' -fuzz '^FuzzLongLines$' -fuzztime 60s -fuzzminimizetime 100x ./format/pa/
func FuzzLongLines(f *testing.F) {
	ingesttest.FuzzLongLines(f, Format(), "testdata/*.csv")
}
