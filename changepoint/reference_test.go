package changepoint

// Reference tests against ../shared/reference/changepoint: outputs of R
// changepoint 2.3 (R 4.2.2) and Python kneed 0.8.6 / 0.7.0 (numpy 1.24.2,
// scipy 1.10.1) on 10 series; see that folder's README. They are skipped
// when the folder is absent.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/benchtrim/benchtrim/internal/testenv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// relTol is the tolerance on objective values, segment statistics and
// penalties: R sums in long double and glibc's log may differ from Go's
// in the last bit (docs/changepoint.md, quirk 2).
const relTol = 1e-9

// referenceDir is testdata/reference: the ten reference series and the R
// changepoint 2.3 / kneed outputs on them, copied from
// ../shared/reference/changepoint (see testdata/reference/README.md for
// their provenance), so every clone checks them.
func referenceDir(t testing.TB) string {
	t.Helper()
	return filepath.Join("testdata", "reference")
}

// timingDir is ../shared/reference/changepoint, which also holds the
// n = 30000 speed-anchor series (not copied: 600 KB); skips visibly when
// absent.
func timingDir(t testing.TB) string {
	t.Helper()
	return testenv.Shared(t, "reference", "changepoint")
}

// jfloat is a float64 that decodes JSON null as NaN (kneed's NaN arrays).
type jfloat float64

func (f *jfloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jfloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jfloat(v)
	return nil
}

func floats(js []jfloat) []float64 {
	out := make([]float64, len(js))
	for i, v := range js {
		out[i] = float64(v)
	}
	return out
}

type refPELT struct {
	PenValue       float64   `json:"pen_value"`
	MinSegLen      int       `json:"minseglen"`
	Cpts           []int     `json:"cpts"`
	SegEnds        []int     `json:"seg_ends"`
	SegMeans       []float64 `json:"seg_means"`
	SegVariances   []float64 `json:"seg_variances_mle"`
	SegCosts       []float64 `json:"seg_costs_cumsum_formula"`
	FN             float64   `json:"internal_F_n"`
	Unpenalised    float64   `json:"internal_unpenalised_cost"`
	SameWithDouble bool      `json:"same_result_with_double_cumsum"`
	DoubleFN       float64   `json:"double_cumsum_F_n"`
	ExactOPFN      float64   `json:"exact_op_F_n"`
	ExactOPEnds    []int     `json:"exact_op_seg_ends"`
	PELTEqualsOP   bool      `json:"pelt_equals_exact_op"`
}

type refKneeLocator struct {
	X           []float64 `json:"x"`
	Y           []float64 `json:"y"`
	Knee        *float64  `json:"knee"`
	KneeY       *float64  `json:"knee_y"`
	NormKnee    *float64  `json:"norm_knee"`
	XNormalized []jfloat  `json:"x_normalized"`
	YNormalized []jfloat  `json:"y_normalized_transformed"`
	YDifference []jfloat  `json:"y_difference"`
	Maxima      []int     `json:"maxima_indices"`
	Minima      []int     `json:"minima_indices"`
	Tmx         []jfloat  `json:"Tmx"`
	Exception   *string   `json:"exception"`
}

type refProtocol struct {
	DefaultPen      *float64        `json:"default_pen_15logn"`
	Penalties       []float64       `json:"penalties"`
	NCpts           []int           `json:"ncpts"`
	KneeLocator     *refKneeLocator `json:"kneelocator"`
	Outcome         string          `json:"outcome"`
	SelectedPenalty *float64        `json:"selected_penalty"`
	Knee            *float64        `json:"knee"`
	Exception       *string         `json:"exception"`
}

type refAtPenalty struct {
	PenValue     float64   `json:"pen_value"`
	Cpts         []int     `json:"cpts"`
	SegMeans     []float64 `json:"seg_means"`
	SegVariances []float64 `json:"seg_variances_mle"`
}

type refSelected struct {
	refAtPenalty
	Minus refAtPenalty `json:"at_pen_times_1_minus_1e6"`
	Plus  refAtPenalty `json:"at_pen_times_1_plus_1e6"`
}

type refCROPS struct {
	PenValue        []float64 `json:"pen_value"`
	PenValueFull    []float64 `json:"pen_value_full"`
	Quirk           bool      `json:"cpts_full_transposed_quirk"`
	BetaInterval    []float64 `json:"cpt_out_beta_interval"`
	NSegRow         []int     `json:"cpt_out_numberofchangepoints_row"`
	CostRow         []float64 `json:"cpt_out_penalised_cost_row"`
	Segmentations   [][]int   `json:"segmentations"`
	PrintedMessages []string  `json:"printed_messages"`
	PELTCalls       struct {
		Rows [][]float64 `json:"rows"`
	} `json:"pelt_calls_in_order"`
	NRuns    int                                `json:"n_pelt_runs"`
	Kneedle  map[string]map[string]*refProtocol `json:"kneedle"`
	Selected []refSelected                      `json:"pelt_meanvar_at_selected_penalties"`
}

type refSeries struct {
	Series    string   `json:"series"`
	N         int      `json:"n"`
	CSV       string   `json:"csv_file"`
	MeanVar   refPELT  `json:"pelt_meanvar_manual"`
	Mean      refPELT  `json:"pelt_mean_manual"`
	CROPS4    refCROPS `json:"crops_meanvar_4_1e5"`
	CROPSTrai refCROPS `json:"crops_meanvar_traini"`
	x         []float64
}

// readSeriesCSV reads a one-column CSV with a header line.
func readSeriesCSV(t testing.TB, path string) []float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var x []float64
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(sc.Text()), 64)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line+1, err)
		}
		x = append(x, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return x
}

func loadReferences(t *testing.T) []*refSeries {
	t.Helper()
	dir := referenceDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "s*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no s*.json in %s (%v)", dir, err)
	}
	var out []*refSeries
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r refSeries
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r.x = readSeriesCSV(t, filepath.Join(dir, r.CSV))
		if len(r.x) != r.N {
			t.Fatalf("%s: %d values, JSON says n = %d", r.CSV, len(r.x), r.N)
		}
		out = append(out, &r)
	}
	return out
}

// degenerate marks s08_constant: zero variance, results are rounding noise
// (docs/changepoint.md, quirk 5); it must only not crash.
func degenerate(r *refSeries) bool { return r.Series == "s08_constant" }

func closeRel(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), math.Abs(got))
}

func checkClose(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !closeRel(got, want, relTol) {
		t.Errorf("%s = %.17g, want %.17g (rel diff %.3g)", what, got, want, math.Abs(got-want)/math.Abs(want))
	}
}

func checkCloseSlice(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: len %d, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !closeRel(got[i], want[i], relTol) {
			t.Errorf("%s[%d] = %.17g, want %.17g", what, i, got[i], want[i])
			return
		}
	}
}

// sameBits compares float slices exactly, NaN equal to NaN.
func sameBits(got, want []float64) bool {
	return slices.EqualFunc(got, want, func(a, b float64) bool {
		return a == b || (math.IsNaN(a) && math.IsNaN(b))
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func TestReferencePELT(t *testing.T) {
	for _, r := range loadReferences(t) {
		for _, tc := range []struct {
			cost Cost
			ref  *refPELT
		}{{MeanVar, &r.MeanVar}, {Mean, &r.Mean}} {
			t.Run(r.Series+"/"+tc.cost.String(), func(t *testing.T) {
				opt := Options{Cost: tc.cost, Penalty: tc.ref.PenValue}
				got, err := PELT(r.x, opt)
				if err != nil {
					t.Fatal(err)
				}
				opt.sumMode = doubleSum
				gotD, err := PELT(r.x, opt)
				if err != nil {
					t.Fatal(err)
				}
				if degenerate(r) {
					t.Logf("s08 (must not crash): cpts %v (R %v), F %.17g (R %.17g)", got.Changepoints, tc.ref.Cpts, got.objective, tc.ref.FN)
					return
				}
				checkClose(t, "penalty 15·log n", BarrettPenalty(r.N), tc.ref.PenValue)
				if got.minSegLen != tc.ref.MinSegLen {
					t.Errorf("MinSegLen = %d, want %d", got.minSegLen, tc.ref.MinSegLen)
				}
				if !slices.Equal(got.Changepoints, nonNil(tc.ref.Cpts)) {
					t.Fatalf("cpts = %v, want %v", got.Changepoints, tc.ref.Cpts)
				}
				checkClose(t, "F(n)", got.objective, tc.ref.FN)
				checkClose(t, "unpenalised cost", got.cost, tc.ref.Unpenalised)
				var means, vars, costs []float64
				for k, s := range got.Segments {
					if s.End != tc.ref.SegEnds[k] {
						t.Errorf("segment %d ends at %d, want %d", k, s.End, tc.ref.SegEnds[k])
					}
					means = append(means, s.Mean)
					vars = append(vars, s.Variance)
					costs = append(costs, s.Cost)
				}
				checkCloseSlice(t, "seg means", means, tc.ref.SegMeans)
				checkCloseSlice(t, "seg MLE variances", vars, tc.ref.SegVariances)
				checkCloseSlice(t, "seg costs", costs, tc.ref.SegCosts)
				// Plain double sums: R's double_cumsum run.
				checkClose(t, "F(n) with double sums", gotD.objective, tc.ref.DoubleFN)
				if tc.ref.SameWithDouble && !slices.Equal(gotD.Changepoints, got.Changepoints) {
					t.Errorf("double sums: cpts %v, want %v", gotD.Changepoints, got.Changepoints)
				}
				// The driver's exact OP must agree with ours.
				op := optimalPartitioning(r.x, tc.cost, got.minSegLen, tc.ref.PenValue)
				checkClose(t, "exact OP F(n)", op.objective, tc.ref.ExactOPFN)
				if !slices.Equal(op.ends, tc.ref.ExactOPEnds) {
					t.Errorf("exact OP ends %v, want %v", op.ends, tc.ref.ExactOPEnds)
				}
			})
		}
	}
}

func TestReferenceCROPS(t *testing.T) {
	for _, r := range loadReferences(t) {
		for name, ref := range map[string]*refCROPS{"4_1e5": &r.CROPS4, "traini": &r.CROPSTrai} {
			t.Run(r.Series+"/"+name, func(t *testing.T) {
				if testing.Short() && len(ref.PELTCalls.Rows) > 100 {
					testenv.Skip(t, "long CROPS run skipped in -short mode")
				}
				opt := cropsOptions{cost: MeanVar, PenMin: ref.PenValue[0], PenMax: ref.PenValue[1]}
				if name == "traini" {
					lo, hi := trainiRange(r.N)
					checkClose(t, "Traini range low", lo, ref.PenValue[0])
					checkClose(t, "Traini range high", hi, ref.PenValue[1])
					opt.PenMin, opt.PenMax = 0, 0 // the default must be the Traini range
				}
				got, err := crops(r.x, opt)
				if err != nil {
					t.Fatal(err)
				}
				if degenerate(r) {
					t.Logf("s08 (must not crash): %d rows (R %d), %d runs (R %d)", len(got.Segmentations), len(ref.Segmentations), len(got.Runs), ref.NRuns)
					return
				}
				checkCROPS(t, got, ref)
			})
		}
	}
}

func checkCROPS(t *testing.T, got *CROPSResult, ref *refCROPS) {
	t.Helper()
	if len(got.Runs) != ref.NRuns {
		t.Errorf("%d PELT runs, want %d", len(got.Runs), ref.NRuns)
	}
	for i, row := range ref.PELTCalls.Rows {
		if i >= len(got.Runs) {
			break
		}
		g := got.Runs[i]
		if !closeRel(g.Penalty, row[0], relTol) || g.NumSegments != int(row[1]) ||
			!closeRel(g.Objective, row[2], relTol) || !closeRel(g.Cost, row[3], relTol) {
			t.Errorf("run %d = {pen %.17g, nseg %d, F %.17g, cost %.17g}, want %v", i, g.Penalty, g.NumSegments, g.Objective, g.Cost, row)
			break
		}
	}
	var maxRuns int
	if _, err := fmt.Sscanf(ref.PrintedMessages[0], `[1] "Maximum number of runs of algorithm = %d"`, &maxRuns); err != nil {
		t.Fatalf("parse %q: %v", ref.PrintedMessages[0], err)
	}
	if got.MaxRuns != maxRuns {
		t.Errorf("MaxRuns = %d, want %d", got.MaxRuns, maxRuns)
	}
	checkCloseSlice(t, "pen.value.full", got.PenValueFull, ref.PenValueFull)
	if len(got.Segmentations) != len(ref.Segmentations) {
		t.Fatalf("%d segmentations, want %d", len(got.Segmentations), len(ref.Segmentations))
	}
	var lows, costs []float64
	var nsegs []int
	for k, s := range got.Segmentations {
		if !slices.Equal(s.Changepoints, nonNil(ref.Segmentations[k])) {
			t.Errorf("segmentation %d = %v, want %v", k, s.Changepoints, ref.Segmentations[k])
		}
		if s.PenaltyLow != got.PenValueFull[k] || s.PenaltyHigh != got.PenValueFull[k+1] {
			t.Errorf("row %d interval [%v, %v) not from pen.value.full", k, s.PenaltyLow, s.PenaltyHigh)
		}
		lows = append(lows, s.PenaltyLow)
		costs = append(costs, s.Cost)
		nsegs = append(nsegs, s.NumSegments)
	}
	checkCloseSlice(t, "cpt.out beta_interval", lows, ref.BetaInterval)
	checkCloseSlice(t, "cpt.out penalised_cost", costs, ref.CostRow)
	if !slices.Equal(nsegs, ref.NSegRow) {
		t.Errorf("cpt.out numberofchangepoints = %v, want %v", nsegs, ref.NSegRow)
	}
	// R's sapply returns a vector (and t() a 1×k matrix) when no row has
	// more than one change point.
	quirk := slices.Max(got.NumChangepoints()) <= 1
	if quirk != ref.Quirk {
		t.Errorf("transpose quirk = %v, want %v", quirk, ref.Quirk)
	}
}

// TestReferenceKneedle feeds kneed's own inputs to Kneedle and compares
// every intermediate array bit for bit.
func TestReferenceKneedle(t *testing.T) {
	for _, r := range loadReferences(t) {
		for name, ref := range map[string]*refCROPS{"4_1e5": &r.CROPS4, "traini": &r.CROPSTrai} {
			for _, proto := range []string{"traini_protocol", "ascending_protocol"} {
				p := ref.Kneedle["kneed_0.8.6"][proto]
				if p == nil || p.KneeLocator == nil {
					continue
				}
				kl := p.KneeLocator
				t.Run(r.Series+"/"+name+"/"+proto, func(t *testing.T) {
					for _, v := range []kneedVersion{kneed086, kneed070} {
						opt := defaultKneedleOptions
						opt.Version = v
						got, err := kneedle(kl.X, kl.Y, opt)
						if v == kneed070 {
							want := ref.Kneedle["kneed_0.7.0"][proto]
							wantIndexErr := want.Exception != nil && strings.Contains(*want.Exception, "IndexError")
							if (err != nil) != wantIndexErr {
								t.Errorf("0.7.0: err = %v, want IndexError %v", err, wantIndexErr)
							}
							checkKnee(t, "0.7.0", got, want.Knee)
							continue
						}
						if err != nil {
							t.Fatal(err)
						}
						if !sameBits(got.XNormalized, floats(kl.XNormalized)) {
							t.Errorf("x_normalized = %v, want %v", got.XNormalized, kl.XNormalized)
						}
						if !sameBits(got.YNormalized, floats(kl.YNormalized)) {
							t.Errorf("y_normalized = %v, want %v", got.YNormalized, kl.YNormalized)
						}
						if !sameBits(got.YDifference, floats(kl.YDifference)) {
							t.Errorf("y_difference = %v, want %v", got.YDifference, kl.YDifference)
						}
						if !slices.Equal(got.MaximaIndices, kl.Maxima) || !slices.Equal(got.MinimaIndices, kl.Minima) {
							t.Errorf("maxima %v minima %v, want %v %v", got.MaximaIndices, got.MinimaIndices, kl.Maxima, kl.Minima)
						}
						if !sameBits(got.Tmx, floats(kl.Tmx)) {
							t.Errorf("Tmx = %v, want %v", got.Tmx, kl.Tmx)
						}
						checkKnee(t, "0.8.6", got, kl.Knee)
						if kl.Knee != nil {
							if got.NormKnee != *kl.NormKnee || got.KneeY != *kl.KneeY {
								t.Errorf("norm_knee, knee_y = %v, %v, want %v, %v", got.NormKnee, got.KneeY, *kl.NormKnee, *kl.KneeY)
							}
						}
					}
				})
			}
		}
	}
}

func checkKnee(t *testing.T, what string, got *KneedleResult, want *float64) {
	t.Helper()
	switch {
	case want == nil && got.Found:
		t.Errorf("%s: knee %v, want none", what, got.Knee)
	case want != nil && !got.Found:
		t.Errorf("%s: no knee, want %v", what, *want)
	case want != nil && got.Knee != *want:
		t.Errorf("%s: knee %.17g, want %.17g", what, got.Knee, *want)
	}
}

// TestReferenceProtocols runs both protocols on our own CROPS output and
// compares outcome and selected penalty with both kneed versions, then
// checks PELT at the selected penalties (either neighbour accepted exactly
// at a breakpoint, docs/changepoint.md, quirk 7), and SelectPenalty end to end.
func TestReferenceProtocols(t *testing.T) {
	for _, r := range loadReferences(t) {
		for name, ref := range map[string]*refCROPS{"4_1e5": &r.CROPS4, "traini": &r.CROPSTrai} {
			t.Run(r.Series+"/"+name, func(t *testing.T) {
				if testing.Short() && len(ref.PELTCalls.Rows) > 100 {
					testenv.Skip(t, "long CROPS run skipped in -short mode")
				}
				cr, err := crops(r.x, cropsOptions{cost: MeanVar, PenMin: ref.PenValue[0], PenMax: ref.PenValue[1]})
				if err != nil {
					t.Fatal(err)
				}
				for _, ver := range []struct {
					key string
					v   kneedVersion
				}{{"kneed_0.8.6", kneed086}, {"kneed_0.7.0", kneed070}} {
					for _, proto := range []string{"traini_protocol", "ascending_protocol"} {
						want := ref.Kneedle[ver.key][proto]
						var sel *KneeSelection
						if proto == "traini_protocol" {
							sel, err = applyTrainiProtocol(cr, ver.v, false)
						} else {
							sel, err = applyAscendingProtocol(cr, ver.v)
						}
						if err != nil {
							t.Fatalf("%s %s: %v", ver.key, proto, err)
						}
						if degenerate(r) {
							continue
						}
						if !strings.HasPrefix(want.Outcome, sel.Outcome.String()) {
							t.Errorf("%s %s: outcome %q, want %q", ver.key, proto, sel.Outcome, want.Outcome)
						}
						if want.SelectedPenalty == nil {
							if !math.IsNaN(sel.Penalty) {
								t.Errorf("%s %s: penalty %v, want none", ver.key, proto, sel.Penalty)
							}
						} else if !closeRel(sel.Penalty, *want.SelectedPenalty, relTol) {
							t.Errorf("%s %s: penalty %.17g, want %.17g", ver.key, proto, sel.Penalty, *want.SelectedPenalty)
						}
						if want.NCpts != nil && !slices.Equal(sel.NCpts, want.NCpts) {
							t.Errorf("%s %s: ncpts %v, want %v", ver.key, proto, sel.NCpts, want.NCpts)
						}
					}
				}
				for _, s := range ref.Selected {
					checkSelected(t, r, s)
				}
				// End to end with the default (Traini) protocol.
				opt := defaultSelectOptions
				opt.CROPS.PenMin, opt.CROPS.PenMax = ref.PenValue[0], ref.PenValue[1]
				got, err := selectPenalty(r.x, opt)
				if err != nil {
					t.Fatal(err)
				}
				if degenerate(r) {
					return
				}
				want := ref.Kneedle["kneed_0.8.6"]["traini_protocol"]
				if want.SelectedPenalty == nil {
					if !got.Fallback || got.Penalty != BarrettPenalty(r.N) {
						t.Errorf("SelectPenalty: penalty %v fallback %v, want fallback to 15·log n", got.Penalty, got.Fallback)
					}
					return
				}
				if got.Fallback || !closeRel(got.Penalty, *want.SelectedPenalty, relTol) {
					t.Errorf("SelectPenalty: penalty %.17g (fallback %v), want %.17g", got.Penalty, got.Fallback, *want.SelectedPenalty)
				}
				for _, s := range ref.Selected {
					if closeRel(s.PenValue, got.Penalty, relTol) {
						c := got.Segmentation.Changepoints
						if !slices.Equal(c, nonNil(s.Cpts)) && !slices.Equal(c, nonNil(s.Minus.Cpts)) && !slices.Equal(c, nonNil(s.Plus.Cpts)) {
							t.Errorf("SelectPenalty segmentation %v, want %v (or neighbours %v / %v)", c, s.Cpts, s.Minus.Cpts, s.Plus.Cpts)
						}
					}
				}
			})
		}
	}
}

func checkSelected(t *testing.T, r *refSeries, s refSelected) {
	t.Helper()
	at := func(pen float64) *Segmentation {
		seg, err := PELT(r.x, Options{Cost: MeanVar, Penalty: pen})
		if err != nil {
			t.Fatal(err)
		}
		return seg
	}
	if degenerate(r) {
		at(s.PenValue)
		return
	}
	// Away from the breakpoint the answer is unambiguous.
	for _, nb := range []refAtPenalty{s.Minus, s.Plus} {
		seg := at(nb.PenValue)
		if !slices.Equal(seg.Changepoints, nonNil(nb.Cpts)) {
			t.Errorf("PELT at %.17g: cpts %v, want %v", nb.PenValue, seg.Changepoints, nb.Cpts)
		}
	}
	seg := at(s.PenValue)
	c := seg.Changepoints
	if slices.Equal(c, nonNil(s.Cpts)) {
		var means, vars []float64
		for _, sg := range seg.Segments {
			means = append(means, sg.Mean)
			vars = append(vars, sg.Variance)
		}
		checkCloseSlice(t, "means at selected penalty", means, s.SegMeans)
		checkCloseSlice(t, "variances at selected penalty", vars, s.SegVariances)
		return
	}
	if !slices.Equal(c, nonNil(s.Minus.Cpts)) && !slices.Equal(c, nonNil(s.Plus.Cpts)) {
		t.Errorf("PELT at selected %.17g: cpts %v, want %v or a neighbour's (%v / %v)", s.PenValue, c, s.Cpts, s.Minus.Cpts, s.Plus.Cpts)
	} else {
		t.Logf("PELT at breakpoint %.17g gives a neighbour's segmentation %v (R: %v)", s.PenValue, c, s.Cpts)
	}
}

// TestReferenceTiming30000 checks PELT on the n = 30000 speed-anchor series
// (its CROPS runs are benchmarked, not tested: minutes in R).
func TestReferenceTiming30000(t *testing.T) {
	if testing.Short() {
		testenv.Skip(t, "n = 30000 PELT skipped in -short mode")
	}
	dir := timingDir(t)
	b, err := os.ReadFile(filepath.Join(dir, "timing_n30000_warmup.json"))
	if err != nil {
		testenv.Skip(t, "%v", err)
	}
	var ref struct {
		MeanVar struct {
			PenValue float64   `json:"pen_value"`
			Cpts     []int     `json:"cpts"`
			Means    []float64 `json:"seg_means"`
			Vars     []float64 `json:"seg_variances_mle"`
		} `json:"pelt_meanvar_manual"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	x := readSeriesCSV(t, filepath.Join(dir, "timing_n30000_warmup.csv"))
	seg, err := PELT(x, DefaultOptions(len(x)))
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "15·log n", seg.penalty, ref.MeanVar.PenValue)
	if !slices.Equal(seg.Changepoints, ref.MeanVar.Cpts) {
		t.Fatalf("cpts = %v, want %v", seg.Changepoints, ref.MeanVar.Cpts)
	}
	var means, vars []float64
	for _, s := range seg.Segments {
		means = append(means, s.Mean)
		vars = append(vars, s.Variance)
	}
	checkCloseSlice(t, "means", means, ref.MeanVar.Means)
	checkCloseSlice(t, "variances", vars, ref.MeanVar.Vars)
}
