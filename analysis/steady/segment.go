package steady

import (
	"errors"
	"fmt"

	"github.com/benchtrim/benchtrim/changepoint"
)

// Segmentation is the change-point segmentation of one series (a fork
// without its outliers), in that series' 0-based index space.
type Segmentation struct {
	// Changepoints are the 0-based starts of the segments after the first
	// (equal to R's cpts(): the 1-based ends of all segments but the last).
	Changepoints []int
	// Penalty is the PELT penalty used (NaN when none was needed).
	Penalty float64
	// Rule says how the penalty was chosen: "crops", "crops-ascending",
	// either with "-fallback" (CROPS and Kneedle selected none and 15·log n
	// was used), "15log", "manual", or "none" (a series too short to split).
	Rule string
	// CROPS and Knee are set when CROPS ran (the crops rules).
	CROPS *changepoint.CROPSResult
	Knee  *changepoint.KneeSelection
}

// Segmenter finds the change points of a series. The analysis calls it
// once per fork with the fork's values (outliers removed, scaled by
// Options.SegmentScale); implementations must be safe for concurrent use.
type Segmenter interface {
	Segment(x []float64) (*Segmentation, error)
}

// peltSegmenter is the default Segmenter: PELT with the Normal
// mean-and-variance cost (R's cpt.meanvar, minimum segment length 2) at a
// penalty chosen by Rule.
type peltSegmenter struct {
	rule PenaltyRule
	// value is the manual penalty (penaltyManual), a number or NUMBER·log n.
	value changepoint.PenaltyTerm
	// Range bounds CROPS (the zero value: [4·log n, 10⁵·log n]).
	Range changepoint.PenaltyRange
}

var _ Segmenter = peltSegmenter{}

// Segment segments x. A series shorter than 4 points (2 × the minimum
// segment length) cannot hold a change point and gets none (Rule "none").
func (p peltSegmenter) Segment(x []float64) (*Segmentation, error) {
	const minSegLen = 2
	if len(x) < 2*minSegLen {
		return &Segmentation{Rule: "none", Penalty: nan}, nil
	}
	switch p.rule {
	case PenaltyCROPS, PenaltyCROPSAscending:
		protocol := changepoint.TrainiProtocol
		if p.rule == PenaltyCROPSAscending {
			protocol = changepoint.AscendingProtocol
		}
		lo, hi, err := p.Range.At(len(x))
		if err != nil {
			return nil, err
		}
		sel, err := changepoint.SelectPenalty(x, protocol, lo, hi)
		if err != nil {
			return nil, err
		}
		rule := p.rule.String()
		if sel.Fallback {
			rule += "-fallback"
		}
		return &Segmentation{
			Changepoints: sel.Segmentation.Changepoints, Penalty: sel.Penalty, Rule: rule,
			CROPS: sel.CROPS, Knee: sel.Knee,
		}, nil
	case PenaltyBarrett, penaltyManual:
		pen, rule := changepoint.BarrettPenalty(len(x)), "15log"
		if p.rule == penaltyManual {
			pen, rule = p.value.At(len(x)), "manual"
		}
		seg, err := changepoint.PELT(x, changepoint.Options{Cost: changepoint.MeanVar, MinSegLen: minSegLen, Penalty: pen})
		if errors.Is(err, changepoint.ErrTooShort) {
			return &Segmentation{Rule: "none", Penalty: nan}, nil
		}
		if err != nil {
			return nil, err
		}
		return &Segmentation{Changepoints: seg.Changepoints, Penalty: pen, Rule: rule}, nil
	}
	return nil, fmt.Errorf("steady: unknown penalty rule %d", int(p.rule))
}
