package stats

import (
	"math"
	"testing"
)

// Reference values from scipy 1.10.1 / numpy 1.24.2 (/usr/bin/python3,
// testdata/reference.py): scipy.stats.gaussian_kde with its bandwidth set to
// h, and the KLD pipeline written with gaussian_kde, np.quantile and
// scipy.special.rel_entr.

func TestBandwidth(t *testing.T) {
	// 1.06·min(np.std(x, ddof=1), IQR/1.34)·n^(−1/5), IQR by np.quantile
	checkClose(t, "nrd", bandwidthNRD.bandwidth(tSample, nil), 1.9730980819909056, 1e-12)
	checkClose(t, "nrd0", bandwidthNRD0.bandwidth(tSample, nil), 1.6752719564073726, 1e-12)
	checkClose(t, "nrd weighted (np.repeat)", bandwidthNRD.bandwidth(tSample, tCounts), 1.5145005723084466, 1e-12)
	// zero IQR falls back to s; constant data gives 0
	x := []float64{5, 5, 5, 5, 5, 5, 9}
	checkClose(t, "IQR 0", bandwidthNRD.bandwidth(x, nil), 1.06*StdDev(x, nil)*math.Pow(7, -0.2), 1e-15)
	if h := bandwidthNRD.bandwidth([]float64{3, 3, 3}, nil); h != 0 {
		t.Errorf("constant data: bandwidth %v", h)
	}
}

func TestKDE(t *testing.T) {
	pts := []float64{1000, 1015, 1020, 1022, 1030, 1050, 1090}
	want := []float64{1.0576300516332703e-14, 0.01136262187943512, 0.09055759038292745, 0.09766218013239705,
		0.017311735232119176, 3.1836412430501113e-16, 0.013128945385617855}
	wantW := []float64{1.8586786100725412e-14, 0.013452499063953467, 0.09803075537758554, 0.10843945425856052,
		0.011567621666289543, 2.0107207852036471e-16, 0.008291965506706089}
	k := newKDE(tSample, nil, 2.5)
	kw := newKDE(tSample, tCounts, 2.5)
	for i, p := range pts {
		checkRel(t, "Density", k.density(p), want[i], 1e-12)
		checkRel(t, "Density weighted", kw.density(p), wantW[i], 1e-12)
	}
	// The grid recurrence against scipy at grid points 0, 57, 100, 200 of
	// 1000 + 0.5·i, and against Density everywhere.
	grid := k.densityGrid(make([]float64, 201), 1000, 0.5)
	for i, w := range map[int]float64{0: 1.0576300516332703e-14, 57: 0.02327030536330967, 100: 3.1836412430501113e-16, 200: 8.352614829697985e-06} {
		checkRel(t, "densityGrid", grid[i], w, 1e-10)
	}
	for i, g := range grid {
		if d := k.density(1000 + 0.5*float64(i)); math.Abs(g-d) > 1e-10*d+1e-300 {
			t.Errorf("grid[%d] = %v, Density = %v", i, g, d)
		}
	}
	// Data just off a short grid, and a grid coarser than the bandwidth.
	for _, c := range []struct{ lo, step, h float64 }{{0, 0.01, 0.5}, {-3, 2, 0.5}, {-1, 0.3, 0.31}} {
		kk := newKDE([]float64{-1.5, 0.5, 0.5, 2, 7}, []float64{1, 2, 0, 3, 1}, c.h)
		g := kk.densityGrid(make([]float64, 100), c.lo, c.step)
		for i := range g {
			if d := kk.density(c.lo + c.step*float64(i)); math.Abs(g[i]-d) > 1e-12*d {
				t.Errorf("grid %+v point %d: %v, Density %v", c, i, g[i], d)
			}
		}
	}
	// A fine grid (many steps per bandwidth) and points far off the grid.
	fine := newKDE([]float64{-50, 0, 0.3, 1, 120}, nil, 0.7).densityGrid(make([]float64, 1000), -5, 0.01)
	kf := newKDE([]float64{-50, 0, 0.3, 1, 120}, nil, 0.7)
	for i := 0; i < 1000; i += 37 {
		checkRel(t, "fine grid", fine[i], kf.density(-5+0.01*float64(i)), 1e-11)
	}
}

var (
	kldA = []float64{100.01, 101.49, 98.63, 95.55, 97.73, 95.04, 100.3, 106.7, 97.54, 96.9, 102.45, 101.78, 100.53,
		95.35, 99.85, 103.48, 93.28, 97.71, 90.49, 93.55, 90.79, 98.82, 93.66, 101.36, 100.78, 99.07, 87.42, 97.31,
		99.76, 100.57, 92.35, 97.61, 95.11, 95.96, 105.3, 95.96, 99.84, 104.42, 97.08, 99.44}
	kldB = []float64{103.66, 103.38, 95.65, 103.46, 111.15, 93.72, 108.16, 103.72, 99.15, 115.0, 107.57, 95.8,
		103.45, 106.46, 101.87, 107.1, 102.6, 107.0, 111.63, 98.95, 104.22, 100.22, 103.76, 95.88, 99.52, 101.82,
		108.39, 109.87, 95.06, 98.23, 106.88, 91.05, 100.22, 102.42, 110.54, 107.14, 101.04, 100.79, 101.5, 112.14,
		100.43, 101.18, 105.12, 102.28, 101.82, 96.32, 102.93, 100.34, 110.0, 106.92}
	kldC = []float64{99.98, 100.67, 99.66, 101.05, 99.99, 100.58, 98.71, 100.35, 98.31, 97.96, 99.7, 99.1, 100.16,
		102.24, 99.17, 99.38, 100.21, 100.49, 99.82, 99.79, 100.7, 100.52, 98.97, 99.92, 100.04, 98.95, 100.26,
		99.14, 100.97, 100.19}
	kldD = []float64{130.09, 129.41, 129.88, 128.0, 128.87, 130.36, 127.87, 130.85, 128.25, 130.76, 129.15, 130.78,
		130.13, 128.46, 131.25, 131.44, 129.93, 129.73, 129.84, 129.02, 131.1, 129.46, 129.95, 129.21, 129.37,
		128.72, 131.26, 129.85, 130.97, 130.01}
)

func TestKLDStability(t *testing.T) {
	nrd0 := defaultKLD
	nrd0.bandwidth = bandwidthNRD0
	for _, c := range []struct {
		name     string
		x, xw    []float64
		y, yw    []float64
		opt      kldOptions
		d, p     float64 // reference D(P‖Q) + D(Q‖P) and p
		relTolD  float64
		relTolP  float64
		expanded bool
	}{
		{name: "N(100,5) vs N(103,6)", x: kldA, y: kldB, opt: defaultKLD, d: 1.4070771657583294, p: 0.37707484994384666},
		{name: "nrd0", x: kldA, y: kldB, opt: nrd0, d: 1.637762341285944, p: 0.3213545175299601},
		// disjoint samples: most strips use the 1e-12 floor
		{name: "disjoint", x: kldC, y: kldD, opt: defaultKLD, d: 45.5948812628625, p: 1.8817983835485897e-14},
		// histogram counts = the expanded samples in scipy
		{name: "histogram", x: []float64{41, 42, 43, 44, 46}, xw: []float64{10, 40, 30, 15, 5},
			y: []float64{41, 42, 43, 44, 46}, yw: []float64{5, 30, 40, 20, 5}, opt: defaultKLD,
			d: 0.11399534202473781, p: 0.9240255558085945},
	} {
		p, err := kldStability(c.x, c.xw, c.y, c.yw, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// np.linspace-free grid and the recurrence differ from scipy by ~1e-13
		checkRel(t, c.name+" D", -math.Log2(p), c.d, 1e-9)
		checkRel(t, c.name+" p", p, c.p, 1e-9)
	}
}

func TestKLDStabilityProperties(t *testing.T) {
	s := NewStream(4, "kld", 0)
	x := normals(s, 500, 100, 3)
	// identical samples: D = 0
	if p, err := kldStability(x, nil, x, nil, defaultKLD); err != nil || p != 1 {
		t.Errorf("identical samples: p = %v, %v", p, err)
	}
	// symmetric; two samples of one distribution are similar; for N(0, 1)
	// and N(1, 1) D(P‖Q) + D(Q‖P) = 1 nat, so p ≈ 2^−1 (a little more: the
	// KDEs are smoother than the normals)
	y := normals(s, 500, 100, 3)
	z := normals(s, 500, 103, 3)
	pxy, _ := kldStability(x, nil, y, nil, defaultKLD)
	pyx, _ := kldStability(y, nil, x, nil, defaultKLD)
	pxz, _ := kldStability(x, nil, z, nil, defaultKLD)
	if pxy != pyx {
		t.Errorf("not symmetric: %v vs %v", pxy, pyx)
	}
	if !(pxy > 0.95 && math.Abs(pxz-0.5) < 0.1) {
		t.Errorf("p(same) = %v, p(shifted by 1 sd) = %v", pxy, pxz)
	}
	// degenerate cases
	c := []float64{7, 7, 7}
	if p, _ := kldStability(c, nil, c, nil, defaultKLD); p != 1 {
		t.Errorf("equal constants: p = %v, want 1", p)
	}
	// two point masses: D = 2·(1−ε)·ln(1/ε) ≈ 55.26, p = 2^−55.26
	if p, _ := kldStability(c, nil, []float64{9, 9}, nil, defaultKLD); math.Abs(-math.Log2(p)-2*math.Log(1e12)) > 1e-6 {
		t.Errorf("different constants: p = %v, want 2^−%v", p, 2*math.Log(1e12))
	}
	if p, _ := kldStability(c, nil, x, nil, defaultKLD); !(p >= 0 && p < 1e-6) {
		t.Errorf("point mass vs spread sample: p = %v", p)
	}
	for name, f := range map[string]func() (float64, error){
		"empty": func() (float64, error) { return kldStability(nil, nil, x, nil, defaultKLD) },
		"NaN":   func() (float64, error) { return kldStability([]float64{1, math.NaN()}, nil, x, nil, defaultKLD) },
		"negative": func() (float64, error) {
			return kldStability([]float64{-5, -4, -3}, nil, []float64{-2, -1.5}, nil, defaultKLD)
		},
		"strips":  func() (float64, error) { o := defaultKLD; o.strips = 1; return kldStability(x, nil, y, nil, o) },
		"epsilon": func() (float64, error) { o := defaultKLD; o.epsilon = 0; return kldStability(x, nil, y, nil, o) },
	} {
		if _, err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// Without clamping, negative data work.
	o := defaultKLD
	o.nonNegative = false
	if p, err := kldStability([]float64{-5, -4, -3}, nil, []float64{-5, -4, -3}, nil, o); err != nil || p != 1 {
		t.Errorf("negative data unclamped: %v, %v", p, err)
	}
}
