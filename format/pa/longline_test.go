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
