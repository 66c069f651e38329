package changepoint_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchtrim/benchtrim/changepoint"
)

// warmupSeries is a fork that runs 3× slower for 8 iterations, then settles
// around 100 with a small deterministic wobble.
func warmupSeries() []float64 {
	x := make([]float64, 60)
	for i := range x {
		level := 100.0
		if i < 8 {
			level = 300
		}
		x[i] = level * (1 + 0.01*math.Sin(float64(i)*1.7))
	}
	return x
}

// PELT with Barrett et al.'s penalty 15·log n finds where the warmup ends.
// Change points follow R's convention: the 1-based index of the last point
// of every segment but the final one.
func ExamplePELT() {
	x := warmupSeries()
	seg, err := changepoint.PELT(x, changepoint.DefaultOptions(len(x)))
	if err != nil {
		panic(err)
	}
	fmt.Println("change points:", seg.Changepoints)
	for _, s := range seg.Segments {
		fmt.Printf("points %d–%d: mean %.1f\n", s.Start+1, s.End, s.Mean)
	}
	// Output:
	// change points: [8]
	// points 1–8: mean 299.9
	// points 9–60: mean 100.0
}

// SelectPenalty chooses the penalty as Traini et al. do: CROPS over
// [4·log n, 10⁵·log n], Kneedle on the change points against the penalty,
// and PELT at the chosen penalty. On this series CROPS finds only the
// segmentations with one and with no change point, where Traini's script
// (R's cpts.full transpose quirk) selects nothing, so SelectPenalty falls
// back to 15·log 60 = 61.4.
func ExampleSelectPenalty() {
	x := warmupSeries()
	sel, err := changepoint.SelectPenalty(x, changepoint.TrainiProtocol, 0, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("CROPS ran PELT %d times; penalty %.1f (fallback %v); change points %v\n",
		len(sel.CROPS.Runs), sel.Penalty, sel.Fallback, sel.Segmentation.Changepoints)
	// Output:
	// CROPS ran PELT 2 times; penalty 61.4 (fallback true); change points [8]
}

// Analyze is what `benchtrim changepoint` runs: here on a CSV column read
// with ReadSeries (a warmup of 8 slow iterations, then a steady state),
// with the penalty chosen by CROPS and Kneedle as Traini et al. do; CROPS
// finds too few segmentations for a knee on this series, so the penalty
// falls back to 15·log 60 (as in ExampleSelectPenalty).
func ExampleAnalyze() {
	var csv strings.Builder
	csv.WriteString("iteration,ns_per_op\n")
	for i, v := range warmupSeries() {
		fmt.Fprintf(&csv, "%d,%.3f\n", i+1, v)
	}
	x, note, err := changepoint.ReadSeries("fork1.csv", strings.NewReader(csv.String()), "ns_per_op")
	if err != nil {
		panic(err)
	}
	pen, err := changepoint.ParsePenalty("crops")
	if err != nil {
		panic(err)
	}
	rep, err := changepoint.Analyze(x, changepoint.AnalyzeOptions{Cost: changepoint.MeanVar, MinSegLen: 2, Penalty: pen})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d values (skipped: %q); penalty rule %s: %.1f (fallback %v); change points %v\n",
		rep.N, note, rep.PenaltyRule, float64(rep.Penalty), rep.Fallback, rep.Changepoints)
	// Output:
	// 60 values (skipped: ""); penalty rule crops: 61.4 (fallback true); change points [8]
}
