package changepoint

import (
	"reflect"
	"testing"
)

// TestAnalyzeWorkers: Analyze with CROPS gives the same report with 1 and
// 4 workers (the PELT calls of a CROPS round run concurrently).
func TestAnalyzeWorkers(t *testing.T) {
	x := warmupSeries(7, 300, 30)
	var reps []*Report
	for _, w := range []int{1, 4} {
		rep, err := Analyze(x, AnalyzeOptions{Cost: MeanVar, Penalty: Penalty{Rule: PenaltyCROPSAscending}, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	if !reflect.DeepEqual(reps[0], reps[1]) {
		t.Errorf("workers 1 and 4 differ:\n%+v\n%+v", reps[0], reps[1])
	}
	if len(reps[0].Changepoints) == 0 {
		t.Error("no change points on a warming-up series")
	}
}
