package changepoint

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Protocol is a way of turning a CROPS result into a Kneedle curve.
type Protocol int

const (
	// TrainiProtocol emulates find_penalty() of Traini et al.'s
	// changepoint.py (SEALABQualityGroup/steady-state), see
	// applyTrainiProtocol. It is the default: the steady-state analysis
	// replicates their study.
	TrainiProtocol Protocol = iota
	// AscendingProtocol is the textbook curve: the lower penalty bound of
	// every segmentation (ascending) against its number of change points,
	// see applyAscendingProtocol.
	AscendingProtocol
)

// String returns "traini" or "ascending".
func (p Protocol) String() string {
	switch p {
	case TrainiProtocol:
		return "traini"
	case AscendingProtocol:
		return "ascending"
	}
	return fmt.Sprintf("Protocol(%d)", int(p))
}

// Outcome says how a protocol ended.
type Outcome int

const (
	// ElbowFound: Kneedle found an elbow; Penalty is its x.
	ElbowFound Outcome = iota
	// NoElbowDefault (Traini protocol): no elbow (or kneed 0.7.0's
	// IndexError), so the script's default 15·log n is the Penalty.
	NoElbowDefault
	// AssertionFailure (Traini protocol): the penalty and count lists
	// differ in length because of the cpts.full transpose quirk, and the
	// original script stops with an AssertionError. Penalty is NaN.
	AssertionFailure
	// NoElbow (ascending protocol): no elbow; Penalty is NaN.
	NoElbow
	// TooFewPoints (ascending protocol): a single segmentation, so there
	// is no curve; Penalty is NaN.
	TooFewPoints
)

// String returns the outcome as the reference files word it.
func (o Outcome) String() string {
	switch o {
	case ElbowFound:
		return "elbow found"
	case NoElbowDefault:
		return "no elbow -> default 15*log(n)"
	case AssertionFailure:
		return "AssertionError (len(penalties) != len(ncpts))"
	case NoElbow:
		return "no elbow"
	case TooFewPoints:
		return "fewer than 2 points"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// KneeSelection is the result of applying a protocol to a CROPS result.
type KneeSelection struct {
	Protocol Protocol
	// Penalties and NCpts are the protocol's lists before Kneedle (for the
	// Traini protocol in pen.value.full order; Kneedle sees them reversed).
	Penalties []float64
	NCpts     []int
	// Kneedle is nil when Kneedle was not run.
	Kneedle *KneedleResult
	Outcome Outcome
	// Penalty is the selected penalty, NaN when the protocol selects none.
	Penalty float64
}

// trainiNCpts returns the change-point counts the Traini protocol reads
// from R's cpts.full. With fixTranspose false it replicates R's transpose
// quirk: when no segmentation has more than one change point, R builds
// cpts.full as a 1×k matrix (sapply returns a vector, t() turns it into
// one row), so counting the entries > 0 of each row gives a single count,
// the number of segmentations with one change point. Otherwise, and with
// fixTranspose true, it is each segmentation's number of change points.
func trainiNCpts(r *CROPSResult, fixTranspose bool) []int {
	counts := r.NumChangepoints()
	if fixTranspose || len(counts) == 0 || slices.Max(counts) > 1 {
		return counts
	}
	ones := 0
	for _, c := range counts {
		ones += c
	}
	return []int{ones}
}

// applyTrainiProtocol chooses a penalty from a CROPS result the way
// find_penalty() in Traini et al.'s changepoint.py does (README
// "traini_protocol"):
//
//  1. penalties = pen.value.full; ncpts = trainiNCpts(r, fixTranspose).
//  2. If len(penalties) == len(ncpts)+1, append 0 to ncpts.
//  3. If the lengths still differ the script fails its assertion:
//     Outcome AssertionFailure, Penalty NaN. This happens exactly when
//     the transpose quirk fires with more than one segmentation; the
//     caller decides what to do (SelectPenalty falls back to 15·log n).
//  4. Kneedle(reverse(penalties), reverse(ncpts)), convex, decreasing,
//     S = 1, offline; the elbow is the penalty.
//  5. No elbow (or a zero elbow, which Python treats as false, or kneed
//     0.7.0's IndexError): Penalty = 15·log n, Outcome noElbowDefault.
//
// version selects kneed 0.8.6 or 0.7.0. The elbow usually falls exactly
// on a CROPS breakpoint, where two segmentations tie (docs/changepoint.md, quirk 7).
func applyTrainiProtocol(r *CROPSResult, version kneedVersion, fixTranspose bool) (*KneeSelection, error) {
	sel := &KneeSelection{Protocol: TrainiProtocol, Penalty: math.NaN()}
	sel.Penalties = slices.Clone(r.PenValueFull)
	sel.NCpts = trainiNCpts(r, fixTranspose)
	if len(sel.Penalties) == len(sel.NCpts)+1 {
		sel.NCpts = append(sel.NCpts, 0)
	}
	if len(sel.Penalties) != len(sel.NCpts) {
		sel.Outcome = AssertionFailure
		return sel, nil
	}
	x := slices.Clone(sel.Penalties)
	slices.Reverse(x)
	y := make([]float64, len(sel.NCpts))
	for i, c := range sel.NCpts {
		y[len(y)-1-i] = float64(c)
	}
	opt := defaultKneedleOptions
	opt.Version = version
	kn, err := kneedle(x, y, opt)
	switch {
	case errors.Is(err, errKneedIndex):
		// Traini's script catches IndexError and uses the default.
	case err != nil:
		return nil, err
	}
	sel.Kneedle = kn
	if err == nil && kn.Found && kn.Knee != 0 {
		sel.Outcome = ElbowFound
		sel.Penalty = kn.Knee
		return sel, nil
	}
	sel.Outcome = NoElbowDefault
	sel.Penalty = BarrettPenalty(r.N)
	return sel, nil
}

// applyAscendingProtocol chooses a penalty the textbook way (README
// "ascending_protocol"): x = the lower penalty bound of every
// segmentation (the first len(Segmentations) entries of pen.value.full,
// ascending), y = its number of change points, Kneedle convex, decreasing,
// S = 1; the knee is the penalty. With one segmentation the Outcome is
// tooFewPoints, without a knee noElbow; both leave Penalty NaN.
func applyAscendingProtocol(r *CROPSResult, version kneedVersion) (*KneeSelection, error) {
	k := len(r.Segmentations)
	sel := &KneeSelection{Protocol: AscendingProtocol, Penalty: math.NaN()}
	sel.Penalties = slices.Clone(r.PenValueFull[:min(k, len(r.PenValueFull))])
	sel.NCpts = r.NumChangepoints()[:len(sel.Penalties)]
	if len(sel.Penalties) < 2 {
		sel.Outcome = TooFewPoints
		return sel, nil
	}
	y := make([]float64, len(sel.NCpts))
	for i, c := range sel.NCpts {
		y[i] = float64(c)
	}
	opt := defaultKneedleOptions
	opt.Version = version
	kn, err := kneedle(sel.Penalties, y, opt)
	if err != nil && !errors.Is(err, errKneedIndex) {
		return nil, err
	}
	sel.Kneedle = kn
	if err == nil && kn.Found && kn.Knee != 0 {
		sel.Outcome = ElbowFound
		sel.Penalty = kn.Knee
		return sel, nil
	}
	sel.Outcome = NoElbow
	return sel, nil
}

// selectOptions configures selectPenalty.
type selectOptions struct {
	// CROPS configures the CROPS run (cost, minimum segment length, range,
	// workers); the PELT run at the chosen penalty uses the same cost,
	// minimum segment length and sum mode.
	CROPS    cropsOptions
	Protocol Protocol
	version  kneedVersion
	// fixTranspose counts change points per segmentation instead of
	// replicating R's cpts.full transpose quirk (Traini protocol only).
	fixTranspose bool
}

// defaultSelectOptions is Traini et al.'s procedure: CROPS over
// [4·log n, 10⁵·log n] with the MeanVar cost, the Traini protocol with
// kneed 0.8.6, R's transpose quirk replicated.
var defaultSelectOptions = selectOptions{CROPS: defaultCROPSOptions}

// Selection is the penalty SelectPenalty chose and the segmentation at it.
type Selection struct {
	// Penalty is the chosen penalty.
	Penalty float64
	// Fallback is true when the protocol selected no penalty (Traini:
	// AssertionFailure; ascending: noElbow, tooFewPoints) and Penalty is
	// BarrettPenalty(n). (The Traini protocol's own noElbowDefault is not a
	// fallback: the script itself uses 15·log n there.)
	Fallback bool
	Knee     *KneeSelection
	CROPS    *CROPSResult
	// Segmentation is PELT at Penalty.
	Segmentation *Segmentation
}

// SelectPenalty picks one PELT penalty for the series x, as Traini,
// Cortellessa, Di Pompeo and Tucci ("Towards effective assessment of
// steady state performance in Java software: are we there yet?", EMSE
// 2022) do: CROPS over a penalty range, Kneedle on the resulting
// "change points vs penalty" curve, and PELT at the elbow.
//
// Where the protocol selects no penalty, SelectPenalty uses Barrett's
// 15·log n and sets Fallback. For the Traini protocol this covers the
// AssertionFailure outcome: Traini's script would stop there (the cpts.full
// transpose quirk, which fires when no segmentation has more than one
// change point); falling back to the script's own default keeps the
// analysis running and gives the sensible answer on such series (a single
// step, or none).
//
// protocol is TrainiProtocol or AscendingProtocol; penMin and penMax bound
// the penalty range of CROPS (both 0: TrainiRange(n); see cropsOptions).
// CROPS and PELT use the MeanVar cost with segments of at least 2 points.
func SelectPenalty(x []float64, protocol Protocol, penMin, penMax float64) (*Selection, error) {
	opt := defaultSelectOptions
	opt.Protocol = protocol
	opt.CROPS.PenMin, opt.CROPS.PenMax = penMin, penMax
	return selectPenalty(x, opt)
}

// selectPenalty is SelectPenalty with the options opt (set fixTranspose to
// count change points correctly instead of falling back).
func selectPenalty(x []float64, opt selectOptions) (*Selection, error) {
	cr, err := crops(x, opt.CROPS)
	if err != nil {
		return nil, err
	}
	var ks *KneeSelection
	switch opt.Protocol {
	case TrainiProtocol:
		ks, err = applyTrainiProtocol(cr, opt.version, opt.fixTranspose)
	case AscendingProtocol:
		ks, err = applyAscendingProtocol(cr, opt.version)
	default:
		return nil, fmt.Errorf("changepoint: unknown protocol %d", int(opt.Protocol))
	}
	if err != nil {
		return nil, err
	}
	sel := &Selection{Penalty: ks.Penalty, Knee: ks, CROPS: cr}
	if math.IsNaN(sel.Penalty) {
		sel.Penalty = BarrettPenalty(len(x))
		sel.Fallback = true
	}
	sel.Segmentation, err = PELT(x, Options{
		Cost: opt.CROPS.cost, MinSegLen: opt.CROPS.minSegLen,
		Penalty: sel.Penalty, sumMode: opt.CROPS.sumMode,
	})
	if err != nil {
		return nil, err
	}
	return sel, nil
}
