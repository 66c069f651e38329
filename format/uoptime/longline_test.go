package uoptime

import (
	"testing"

	"github.com/benchtrim/benchtrim/ingest/ingesttest"
)

// TestLongLine: a data line that never ends is an error at its line, with
// bounded memory (issue 47, class 5: a 1 GiB line was a fatal out-of-memory).
func TestLongLine(t *testing.T) {
	ingesttest.CheckLongLine(t, Format(), "BenchmarkA/x=1,1,1,1,1,",
		"b_name,ir_pos,sr_pos,it_pos,bed_pos,ns_per_op,n,ir_setup,sr_setup,it_setup,bed_setup,m_id")
	ingesttest.CheckLongLine(t, format{jmhLayout}, "0,16476.0,15726.4,2,2,1,1,", "m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name")
}

// FuzzLongLines: a line past the (lowered) bound anywhere in a file is
// never accepted (ingesttest.FuzzLongLines).
//
//	go test -run '^$' -fuzz '^FuzzLongLines$' -fuzztime 60s -fuzzminimizetime 100x ./format/uoptime/
func FuzzLongLines(f *testing.F) {
	ingesttest.FuzzLongLines(f, Format(), "testdata/*.csv")
}
