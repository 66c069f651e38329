package changepoint

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// fuzzInput encodes a PELT call for the fuzzer: byte 0 the cost, byte 1
// the minimum segment length, bytes 2..9 the penalty, then the series as
// little-endian float64s.
func fuzzInput(c Cost, m byte, pen float64, x []float64) []byte {
	b := []byte{byte(c), m}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(pen))
	for _, v := range x {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// FuzzPELT checks that PELT never panics on arbitrary input, returns an
// error for what it cannot segment, and otherwise returns a well-formed
// segmentation equal, bit for bit, to the plain reference loop (so the
// SIMD kernels and their error bounds are exercised on hostile data:
// huge, tiny, subnormal, constant and alternating values).
//
//	go test -run XXX -fuzz FuzzPELT ./changepoint
func FuzzPELT(f *testing.F) {
	f.Add(fuzzInput(MeanVar, 2, 10, []float64{1, 2, 3, 4, 10, 11, 12, 13}))
	f.Add(fuzzInput(Mean, 1, 1, []float64{0, 0, 10, 10}))
	f.Add(fuzzInput(MeanVar, 0, 0, slices.Repeat([]float64{0.1}, 12)))
	f.Add(fuzzInput(MeanVar, 3, 5, []float64{1e300, -1e300, 5, 6, 7, 8}))
	f.Add(fuzzInput(MeanVar, 2, 1e-300, []float64{5e-324, 0, -5e-324, 1e-310, 2, 3}))
	f.Add(fuzzInput(Mean, 2, math.NaN(), []float64{1, 2, 3, 4}))
	f.Add(fuzzInput(MeanVar, 2, 3, []float64{1, math.Inf(1), 3, 4}))
	f.Add(fuzzInput(MeanVar, 2, 40, warmupSeries(1, 60, 5)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 10 {
			return
		}
		c := Cost(b[0] % 3) // 2 is invalid on purpose
		m := int(b[1] % 6)
		pen := math.Float64frombits(binary.LittleEndian.Uint64(b[2:10]))
		var x []float64
		for r := b[10:]; len(r) >= 8 && len(x) < 300; r = r[8:] {
			x = append(x, math.Float64frombits(binary.LittleEndian.Uint64(r)))
		}
		seg, err := PELT(x, Options{Cost: c, MinSegLen: m, Penalty: pen})
		if err != nil {
			return // every rejection is an error value, never a panic
		}
		n := len(x)
		mm := seg.minSegLen
		prev := 0
		for _, cp := range seg.Changepoints {
			if cp-prev < mm || cp > n-mm {
				t.Fatalf("change point %d violates MinSegLen %d (n = %d): %v", cp, mm, n, seg.Changepoints)
			}
			prev = cp
		}
		if len(seg.Segments) != len(seg.Changepoints)+1 || seg.Segments[len(seg.Segments)-1].End != n {
			t.Fatalf("segments do not tile the series: %+v", seg.Segments)
		}
		wantF, wantC := peltPlain(x, c, mm, pen)
		if n <= 80 {
			fuzzCROPS(t, x, c, m, pen)
		}
		for _, km := range kernelModes() {
			restore := useKernels(km)
			got, err := PELT(x, Options{Cost: c, MinSegLen: m, Penalty: pen})
			restore()
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got.objective) != math.Float64bits(wantF) || !slices.Equal(got.Changepoints, nonNil(wantC)) {
				t.Fatalf("%s: F=%.17g %v, plain F=%.17g %v", km.name, got.objective, got.Changepoints, wantF, wantC)
			}
		}
	})
}

// fuzzCROPS checks that CROPS over [pen, 10·pen+1] gives the same runs
// with every kernel mode, and that each run is the plain loop's.
func fuzzCROPS(t *testing.T, x []float64, c Cost, m int, pen float64) {
	var ref *CROPSResult
	for _, km := range kernelModes() {
		restore := useKernels(km)
		r, err := crops(x, cropsOptions{cost: c, minSegLen: m, PenMin: pen, PenMax: 10*pen + 1})
		restore()
		if err != nil {
			return
		}
		if ref == nil {
			ref = r
			for i, run := range r.Runs {
				f, cpts := peltPlain(x, c, max(m, c.defaultMinSegLen()), run.Penalty)
				if math.Float64bits(run.Objective) != math.Float64bits(f) || !slices.Equal(run.Changepoints, nonNil(cpts)) {
					t.Fatalf("CROPS run %d = %+v, plain loop F = %.17g %v", i, run, f, cpts)
				}
			}
			continue
		}
		if len(r.Runs) != len(ref.Runs) {
			t.Fatalf("CROPS %s: %d runs, portable %d", km.name, len(r.Runs), len(ref.Runs))
		}
		for i := range r.Runs {
			if math.Float64bits(r.Runs[i].Objective) != math.Float64bits(ref.Runs[i].Objective) || !slices.Equal(r.Runs[i].Changepoints, ref.Runs[i].Changepoints) {
				t.Fatalf("CROPS %s: run %d %+v, portable %+v", km.name, i, r.Runs[i], ref.Runs[i])
			}
		}
	}
}
