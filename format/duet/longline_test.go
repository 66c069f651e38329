package duet

import (
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestLongLine: a data line that never ends is an error at its line, with
// bounded memory (issue 47, class 5: a 1 GiB line was a fatal out-of-memory),
// and so is a header line that never ends.
func TestLongLine(t *testing.T) {
	head := strings.Join(columns[:], ",")
	ingesttest.CheckLongLine(t, Format(), "dacapo,h2,duet,A,0,1,AB,", head)
	ingesttest.CheckLongLine(t, Format(), "pair,suite")
}

// FuzzLongLines: a line past the (lowered) bound anywhere in a file is
// never accepted (ingesttest.FuzzLongLines).
//
//	go test -run '^$' -fuzz '^FuzzLongLines$' -fuzztime 60s -fuzzminimizetime 100x ./format/duet/
func FuzzLongLines(f *testing.F) {
	ingesttest.FuzzLongLines(f, Format(), "testdata/*.csv")
}
