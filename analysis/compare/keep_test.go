package compare

import (
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/table"
)

func TestKeepExplainsAnEmptySelection(t *testing.T) {
	all := []*table.Series{handSeries("BenchmarkA", "v1", []float64{1, 2}), handSeries("BenchmarkB", "v1", []float64{1, 2})}
	f, err := ParseFilter("Nothing")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.keep(all); err == nil || !strings.Contains(err.Error(), `filter "Nothing" matches none of the 2 benchmarks; some that exist: BenchmarkA, BenchmarkB`) {
		t.Errorf("err %v", err)
	}
	var none *Filter
	if got, err := none.keep(all); err != nil || len(got) != 2 {
		t.Errorf("nil filter: %d series, %v", len(got), err)
	}
	if m, err := wantedMetrics(nil); err != nil || len(m) != 0 {
		t.Errorf("Metrics of no table: %v, %v", m, err)
	}
}
