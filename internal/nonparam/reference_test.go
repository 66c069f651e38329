package nonparam

import (
	"math"
	"testing"

	"github.com/benchtrim/benchtrim/estimate"
)

// Reference values in this file were computed once with scipy 1.10.1
// (Debian bookworm's python3-scipy, /usr/bin/python3) by
// testdata/scipy_reference.py, whose output is pasted below unchanged. The
// script's heart, for the record:
//
//	def gen(n, a, b, mod, scale, offset):
//	    return [((i * a + b) % mod) * scale + offset for i in range(n)]
//	r = stats.mannwhitneyu(x, y, use_continuity=cont, alternative=alt, method=method)
//	h, p = stats.kruskal(*groups)
//	# Dunn (1964), textbook formula in numpy (scipy has no Dunn test):
//	pooled = np.concatenate(groups); ranks = stats.rankdata(pooled); N = len(pooled)
//	_, t = np.unique(pooled, return_counts=True); T = (t**3 - t).sum()
//	se = np.sqrt((N*(N+1)/12 - T/(12*(N-1))) * (1/n_i + 1/n_j))
//	z = (rbar_i - rbar_j) / se; p = 2*stats.norm.sf(abs(z)); p_adj = min(1, p*k*(k-1)/2)
//	stats.rankdata(v); stats.tiecorrect(stats.rankdata(v))
//
// Tolerances: U and ranks exactly; exact-method p-values to a relative
// 1e-12; normal-approximation and chi-squared p-values, H and z to a
// relative 1e-9 (gonum's erfc and regularized incomplete gamma against
// scipy's cephes).

// genData returns n values ((i·a + b) mod mod)·scale + offset, the generator
// shared with testdata/scipy_reference.py.
func genData(n, a, b, mod int, scale, offset float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64((i*a+b)%mod)*scale + offset
	}
	return v
}

// mwuData are the samples of testdata/scipy_reference.py.
var mwuData = map[string][2][]float64{
	"exactAll":      {{1.1, 2.3, 3.7, 4.2, 5.9}, {6.1, 7.4, 8.8, 9.3}},
	"exactDoc":      {{19, 22, 16, 29, 24}, {20, 11, 17, 12}},
	"exactMixed":    {{3.1, 7.4, 1.2, 9.9, 5.5, 8.1, 0.3}, {2.2, 4.4, 6.6, 8.8, 1.0, 3.3}},
	"oneVsThree":    {{5}, {1, 2, 3}},
	"oneVsOne":      {{1}, {2}},
	"small5x40":     {genData(5, 3, 1, 11, 1.0, 20.5), genData(40, 7, 3, 41, 1.0, 0.0)},
	"forced30x40":   {genData(30, 17, 5, 31, 2.0, 7.0), genData(40, 23, 1, 41, 2.0, 1.0)},
	"tied":          {{1, 2, 2, 3, 3, 3, 4, 5}, {2, 3, 4, 4, 5, 5, 6, 7, 7}},
	"largeDistinct": {genData(1000, 7919, 13, 100003, 2.0, 0.0), genData(1200, 104729, 17, 100003, 2.0, 6001.0)},
	"largeTied":     {genData(600, 37, 11, 101, 1.0, 0.0), genData(500, 53, 7, 103, 1.0, 3.0)},
	"farApart":      {genData(200, 7919, 13, 100003, 1.0, 0.0), genData(150, 104729, 17, 100003, 1.0, 60000.5)},
	"identical":     {{3, 3, 3, 3}, {3, 3, 3, 3}},
	"sameValues":    {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}},
}

// mwuRef: scipy.stats.mannwhitneyu(x, y, use_continuity=!noContinuity,
// alternative=alt, method=method) → (statistic, pvalue).
var mwuRef = []struct {
	name         string
	method       Method
	alt          alternative
	noContinuity bool
	u, p         float64
}{
	{"exactAll", MethodAuto, twoSided, false, 0.0, 0.015873015873015872},
	{"exactAll", MethodAuto, greater, false, 0.0, 1.0},
	{"exactAll", MethodAuto, less, false, 0.0, 0.007936507936507936},
	{"exactDoc", MethodAuto, twoSided, false, 17.0, 0.1111111111111111},
	{"exactDoc", MethodAuto, greater, false, 17.0, 0.05555555555555555},
	{"exactDoc", MethodAuto, less, false, 17.0, 0.9682539682539684},
	{"exactMixed", MethodAuto, twoSided, false, 23.0, 0.8356643356643356},
	{"exactMixed", MethodAuto, greater, false, 23.0, 0.4178321678321678},
	{"exactMixed", MethodAuto, less, false, 23.0, 0.6346153846153846},
	{"oneVsThree", MethodAuto, twoSided, false, 3.0, 0.5},
	{"oneVsThree", MethodAuto, greater, false, 3.0, 0.25},
	{"oneVsThree", MethodAuto, less, false, 3.0, 1.0},
	{"oneVsOne", MethodAuto, twoSided, false, 0.0, 1.0},
	{"oneVsOne", MethodAuto, greater, false, 0.0, 1.0},
	{"oneVsOne", MethodAuto, less, false, 0.0, 0.5},
	{"small5x40", MethodAuto, twoSided, false, 129.0, 0.31352009684397664},
	{"small5x40", MethodAuto, greater, false, 129.0, 0.15676004842198832},
	{"small5x40", MethodAuto, less, false, 129.0, 0.8517530871473016},
	{"forced30x40", MethodExact, twoSided, false, 537.5, 0.4679251188954294},
	{"forced30x40", MethodExact, greater, false, 537.5, 0.7732287529391941},
	{"forced30x40", MethodExact, less, false, 537.5, 0.2339625594477147},
	{"forced30x40", MethodAsymptotic, twoSided, false, 537.5, 0.4617359498443393},
	{"forced30x40", MethodAsymptotic, greater, false, 537.5, 0.7727283596726843},
	{"forced30x40", MethodAsymptotic, less, false, 537.5, 0.23086797492216965},
	{"exactDoc", MethodAsymptotic, twoSided, false, 17.0, 0.11134688653314041},
	{"exactDoc", MethodAsymptotic, greater, false, 17.0, 0.055673443266570206},
	{"exactDoc", MethodAsymptotic, less, false, 17.0, 0.9669037101389033},
	{"exactDoc", MethodAsymptotic, twoSided, true, 17.0, 0.0864107329737},
	{"exactDoc", MethodAsymptotic, greater, true, 17.0, 0.04320536648685},
	{"exactDoc", MethodAsymptotic, less, true, 17.0, 0.95679463351315},
	{"tied", MethodAuto, twoSided, false, 13.5, 0.03175895714806371},
	{"tied", MethodAuto, greater, false, 13.5, 0.9876172774448116},
	{"tied", MethodAuto, less, false, 13.5, 0.015879478574031856},
	{"tied", MethodAuto, twoSided, true, 13.5, 0.028075012477371607},
	{"tied", MethodAuto, greater, true, 13.5, 0.9859624937613142},
	{"tied", MethodAuto, less, true, 13.5, 0.014037506238685804},
	{"tied", MethodExact, twoSided, false, 13.5, 0.03595228301110654},
	{"tied", MethodExact, greater, false, 13.5, 0.9896750308515013},
	{"tied", MethodExact, less, false, 13.5, 0.01797614150555327},
	{"largeDistinct", MethodAuto, twoSided, false, 565744.0, 0.0209446561215134},
	{"largeDistinct", MethodAuto, greater, false, 565744.0, 0.9895295420584178},
	{"largeDistinct", MethodAuto, less, false, 565744.0, 0.0104723280607567},
	{"largeTied", MethodAuto, twoSided, false, 138980.0, 0.03568664352540539},
	{"largeTied", MethodAuto, greater, false, 138980.0, 0.9821650520390962},
	{"largeTied", MethodAuto, less, false, 138980.0, 0.017843321762702695},
	{"farApart", MethodAuto, twoSided, false, 2426.0, 4.465430151277868e-41},
	{"farApart", MethodAuto, greater, false, 2426.0, 1.0},
	{"farApart", MethodAuto, less, false, 2426.0, 2.232715075638934e-41},
	{"identical", MethodAuto, twoSided, false, 8.0, 1.0},
	{"identical", MethodAuto, greater, false, 8.0, 1.0},
	{"identical", MethodAuto, less, false, 8.0, 1.0},
	{"sameValues", MethodAuto, twoSided, false, 12.5, 1.0},
	{"sameValues", MethodAuto, greater, false, 12.5, 0.5422350133116141},
	{"sameValues", MethodAuto, less, false, 12.5, 0.5422350133116141},
}

// kwGroups are the groups of testdata/scipy_reference.py: Hollander & Wolfe
// (1973, p. 116; also R's kruskal.test example), the scikit-posthocs
// posthoc_dunn docstring example, and five generated groups with ties.
var kwGroups = map[string][][]float64{
	"hollanderWolfe": {{2.9, 3.0, 2.5, 2.6, 3.2}, {3.8, 2.7, 4.0, 2.4}, {2.8, 3.4, 3.7, 2.2, 2.0}},
	"posthocsDoc":    {{1, 2, 3, 5, 1}, {12, 31, 54}, {10, 12, 6, 74, 11}},
	"fiveGroups":     fiveGroups(),
}

func fiveGroups() [][]float64 {
	g := make([][]float64, 5)
	for i := range g {
		g[i] = genData(50+10*i, 31+2*i, 7*i, 97, 1.0, 9.0*float64(i))
	}
	return g
}

// kwRef: scipy.stats.kruskal(*groups) → (H, p).
var kwRef = []struct {
	name string
	h, p float64
}{
	{"hollanderWolfe", 0.7714285714285722, 0.6799647735788936},
	{"posthocsDoc", 9.184530386740327, 0.010129886213908555},
	{"fiveGroups", 54.273710854570176, 4.611996731261849e-11},
}

// dunnRef: Dunn's z, p and Bonferroni p for pair (i, j), numpy formula above.
var dunnRef = []struct {
	name       string
	i, j       int
	z, p, padj float64
}{
	{"hollanderWolfe", 0, 1, -0.6414269805898184, 0.5212453081148148, 1.0},
	{"hollanderWolfe", 0, 2, 0.22677868380553654, 0.8205958397554408, 1.0},
	{"hollanderWolfe", 1, 2, 0.8552359741197582, 0.3924205244765818, 1.0},
	{"posthocsDoc", 0, 1, -2.7618404064933273, 0.0057476565867441405, 0.017242969760232423},
	{"posthocsDoc", 0, 2, -2.3205781333383664, 0.02030962348760679, 0.060928870462820375},
	{"posthocsDoc", 1, 2, 0.75216079155563, 0.45195436926737886, 1.0},
	{"fiveGroups", 0, 1, -1.1251498588039957, 0.2605255364651291, 1.0},
	{"fiveGroups", 0, 2, -2.955871405025129, 0.003117870563925191, 0.03117870563925191},
	{"fiveGroups", 0, 3, -4.662344570207642, 3.126271827487283e-06, 3.126271827487283e-05},
	{"fiveGroups", 0, 4, -6.252093194210588, 4.0498759342842534e-10, 4.049875934284253e-09},
	{"fiveGroups", 1, 2, -1.8863513312296816, 0.059247626341182726, 0.5924762634118272},
	{"fiveGroups", 1, 3, -3.6600136363099063, 0.00025220182654673526, 0.0025220182654673525},
	{"fiveGroups", 1, 4, -5.323894736063673, 1.015686966668302e-07, 1.015686966668302e-06},
	{"fiveGroups", 2, 3, -1.7914515835410951, 0.07322085749979021, 0.7322085749979022},
	{"fiveGroups", 2, 4, -3.4853869055121045, 0.0004914259096984065, 0.0049142590969840656},
	{"fiveGroups", 3, 4, -1.7066968871961576, 0.08787840609421732, 0.8787840609421732},
}

// upperTailRef: scipy.stats.norm.sf(z) → (z, 1 − Φ(z)).
var upperTailRef = [][2]float64{
	{0.5, 0.3085375387259869},
	{6.25, 2.0522634252189396e-10},
	{10.0, 7.61985302416047e-24},
	{20.0, 2.7536241186061556e-89},
}

// rankRef: scipy.stats.rankdata(rankInput) and
// scipy.stats.tiecorrect(scipy.stats.rankdata(rankInput)).
var (
	rankInput  = []float64{3.5, 1.0, 2.0, 3.5, 3.5, -7.0, 2.0, 10.0, math.Inf(1)}
	rankRef    = []float64{6.0, 2.0, 3.5, 6.0, 6.0, 1.0, 3.5, 8.0, 9.0}
	tieCorrRef = 0.9583333333333334
)

// closeRel reports whether got is within a relative tol of want (absolute
// tol when want is 0).
func closeRel(got, want, tol float64) bool {
	if got == want {
		return true
	}
	scale := math.Abs(want)
	if scale == 0 {
		scale = 1
	}
	return math.Abs(got-want) <= tol*scale
}

func TestMannWhitneyUScipy(t *testing.T) {
	for _, c := range mwuRef {
		name := c.name + "/" + c.method.String() + "/" + c.alt.String()
		if c.noContinuity {
			name += "/nocc"
		}
		t.Run(name, func(t *testing.T) {
			d, ok := mwuData[c.name]
			if !ok {
				t.Fatalf("no data %q", c.name)
			}
			res, err := mannWhitneyU(d[0], d[1], mannWhitneyOptions{
				alternative: c.alt, method: c.method, noContinuity: c.noContinuity,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.U != c.u {
				t.Errorf("U = %v, want %v", res.U, c.u)
			}
			tol := 1e-9
			if res.Method == MethodExact {
				tol = 1e-12
			}
			if !closeRel(res.P, c.p, tol) {
				t.Errorf("p = %.17g, want %.17g (rel tol %g; method %v)", res.P, c.p, tol, res.Method)
			}
			if res.n != len(d[0]) || res.m != len(d[1]) || res.alternative != c.alt {
				t.Errorf("N, M, Alternative = %d, %d, %v", res.n, res.m, res.alternative)
			}
		})
	}
}

func TestKruskalWallisScipy(t *testing.T) {
	for _, c := range kwRef {
		t.Run(c.name, func(t *testing.T) {
			g := kwGroups[c.name]
			res, err := KruskalWallis(g)
			if err != nil {
				t.Fatal(err)
			}
			if !closeRel(res.H, c.h, 1e-9) || !closeRel(res.P, c.p, 1e-9) {
				t.Errorf("H, p = %.17g, %.17g, want %.17g, %.17g", res.H, res.P, c.h, c.p)
			}
			if res.DF != len(g)-1 {
				t.Errorf("DF = %d, want %d", res.DF, len(g)-1)
			}
		})
	}
}

func TestDunnReference(t *testing.T) {
	got := map[string][]estimate.DunnPair{}
	for name, g := range kwGroups {
		pairs, err := Dunn(g, DunnOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if k := len(g); len(pairs) != k*(k-1)/2 {
			t.Fatalf("%s: %d pairs, want %d", name, len(pairs), k*(k-1)/2)
		}
		got[name] = pairs
	}
	seen := map[string]int{}
	rejected := 0
	for _, c := range dunnRef {
		pr := got[c.name][seen[c.name]]
		seen[c.name]++
		if pr.I != c.i || pr.J != c.j {
			t.Fatalf("%s: pair (%d,%d), want (%d,%d)", c.name, pr.I, pr.J, c.i, c.j)
		}
		if !closeRel(pr.Z, c.z, 1e-9) || !closeRel(pr.P, c.p, 1e-9) || !closeRel(pr.PAdjusted, c.padj, 1e-9) {
			t.Errorf("%s (%d,%d): z, p, padj = %.17g, %.17g, %.17g, want %.17g, %.17g, %.17g",
				c.name, c.i, c.j, pr.Z, pr.P, pr.PAdjusted, c.z, c.p, c.padj)
		}
		if want := c.padj <= defaultDunnAlpha; pr.Reject != want {
			t.Errorf("%s (%d,%d): Reject = %v, want %v at α = %v", c.name, c.i, c.j, pr.Reject, want, defaultDunnAlpha)
		}
		if pr.Reject {
			rejected++
		}
	}
	for name, n := range seen {
		if n != len(got[name]) {
			t.Errorf("%s: %d reference pairs for %d computed", name, n, len(got[name]))
		}
	}
	// fiveGroups has shifted groups: the references reject 5 of 10 pairs at 0.01.
	if rejected != 5 {
		t.Errorf("%d pairs rejected at α = 0.01, want 5", rejected)
	}
}

func TestRankScipy(t *testing.T) {
	got, err := rank(nil, rankInput)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != rankRef[i] {
			t.Errorf("rank[%d] = %v, want %v", i, got[i], rankRef[i])
		}
	}
	if c := tieCorrection(rankInput); !closeRel(c, tieCorrRef, 1e-15) {
		t.Errorf("tieCorrection(values) = %.17g, want %.17g", c, tieCorrRef)
	}
	if c := tieCorrection(got); !closeRel(c, tieCorrRef, 1e-15) {
		t.Errorf("tieCorrection(ranks) = %.17g, want %.17g", c, tieCorrRef)
	}
}

func TestUpperTailScipy(t *testing.T) {
	for _, c := range upperTailRef {
		if got := upperTail(c[0]); !closeRel(got, c[1], 1e-13) {
			t.Errorf("upperTail(%v) = %.17g, want %.17g", c[0], got, c[1])
		}
	}
}
