package stats

import (
	"math"
	"slices"
	"testing"
)

// Reference values in this file come from numpy 1.24.2 and scipy 1.10.1
// (Debian's python3-numpy / python3-scipy at /usr/bin/python3) via
// testdata/reference.py; tolerance 1e-12 relative unless noted.

var (
	xq = []float64{3.1, 1.4, 1.4, 9.2, 2.6, 5.3, 5.8, 9.7, 9.3, 2.3, 8.4}
	ps = []float64{0, 0.1, 0.25, 0.5, 0.9, 0.995, 1}
	// timing sample (ns/op) and histogram counts for the weighted cases
	tSample = []float64{1021.5, 1019.8, 1030.2, 1018.7, 1025.1, 1090.4, 1022.3, 1020.9, 1023.8, 1019.5, 1021.1, 1024.6}
	tCounts = []float64{2, 1, 1, 3, 1, 1, 4, 1, 2, 1, 1, 1}
)

func TestQuantile(t *testing.T) {
	// np.quantile(xq, ps)
	want := []float64{1.4, 1.4, 2.45, 5.3, 9.3, 9.68, 9.7}
	orig := slices.Clone(xq)
	for i, p := range ps {
		checkClose(t, "Quantile(xq)", Quantile(xq, p, nil), want[i], 1e-12)
	}
	if !slices.Equal(xq, orig) {
		t.Error("Quantile modified its input")
	}
}

func TestQuantileWeighted(t *testing.T) {
	// np.quantile(np.repeat(vw, cw), ps): the type-7 quantile of the
	// expanded sample.
	vw := []float64{20, 10, 13, 12, 15}
	cw := []float64{5, 3, 4, 1, 1}
	want := []float64{10, 10, 12.25, 13, 20, 20, 20}
	for i, p := range ps {
		checkClose(t, "Quantile(vw, cw)", Quantile(vw, p, cw), want[i], 1e-12)
	}
	// Zero weights are ignored and integer weights equal repetition.
	var ex []float64
	for i, v := range vw {
		for k := 0; k < int(cw[i]); k++ {
			ex = append(ex, v)
		}
	}
	vz := append(slices.Clone(vw), 0, 99)
	cz := append(slices.Clone(cw), 0, 0)
	for p := 0.0; p <= 1; p += 0.01 {
		checkClose(t, "weighted vs expanded", Quantile(vz, p, cz), Quantile(ex, p, nil), 1e-12)
	}
}

func TestDescriptive(t *testing.T) {
	checkClose(t, "Median even", Median([]float64{4, 1, 3, 2}, nil), 2.5, 1e-15)
	checkClose(t, "Mean", Mean(tSample, nil), 1028.1583333333333, 1e-12)
	checkClose(t, "PopStdDev", popStdDev(tSample, nil), 19.005808688106118, 1e-12)
	checkClose(t, "StdDev", StdDev(tSample, nil), 19.8509197558077, 1e-12)
	checkClose(t, "CV", CV(tSample, nil), 0.018485293628354372, 1e-12)
	checkClose(t, "Median", Median(tSample, nil), 1021.9, 1e-12)
	// scipy.stats.median_abs_deviation(t, scale=1.0)
	checkClose(t, "mad", mad(tSample, nil), 2.25, 1e-12)
	checkClose(t, "RMAD", RMAD(tSample, nil), 0.0022017809961835796, 1e-12)
	// weighted = the same statistics of np.repeat(t, tc)
	checkClose(t, "Mean weighted", Mean(tSample, tCounts), 1025.6578947368419, 1e-12)
	checkClose(t, "CV weighted", CV(tSample, tCounts), 0.015106152533377664, 1e-12)
	checkClose(t, "Median weighted", Median(tSample, tCounts), 1022.3, 1e-12)
	checkClose(t, "MAD weighted", mad(tSample, tCounts), 1.5, 1e-12)
}

func TestDescriptiveEdges(t *testing.T) {
	for name, v := range map[string]float64{
		"Mean(nil)":        Mean(nil, nil),
		"Median(nil)":      Median(nil, nil),
		"StdDev(1 value)":  StdDev([]float64{3}, nil),
		"Mean(zero wts)":   Mean([]float64{1, 2}, []float64{0, 0}),
		"Quantile(zero w)": Quantile([]float64{1, 2}, 0.5, []float64{0, 0}),
	} {
		if !math.IsNaN(v) {
			t.Errorf("%s = %v, want NaN", name, v)
		}
	}
	for name, f := range map[string]func(){
		"p > 1":              func() { Quantile(xq, 1.5, nil) },
		"mismatched weights": func() { Mean(xq, []float64{1}) },
		"negative weight":    func() { Median([]float64{1, 2}, []float64{1, -1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestLerpInfinite(t *testing.T) {
	if got := lerp(1, math.Inf(1), 0.3); !math.IsInf(got, 1) {
		t.Errorf("lerp(1, +Inf) = %v", got)
	}
	if got := lerp(math.Inf(-1), 1, 0.3); !math.IsInf(got, -1) {
		t.Errorf("lerp(-Inf, 1) = %v", got)
	}
	if got := lerp(math.Inf(-1), math.Inf(-1), 0.3); !math.IsInf(got, -1) {
		t.Errorf("lerp(-Inf, -Inf) = %v", got)
	}
}
