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
	// CROPS and Knee are set when CROPS ran.
	CROPS *changepoint.CROPSResult
	Knee  *changepoint.KneeSelection
}

// Segmenter finds the change points of a series. The analysis calls it
// once per fork with the fork's values (outliers removed, scaled by
// Options.SegmentScale); implementations must be safe for concurrent use.
type Segmenter interface {
	Segment(x []float64) (*Segmentation, error)
}

// PELTSegmenter is the default Segmenter: PELT with the Normal
// mean-and-variance cost (R's cpt.meanvar, minimum segment length 2) at a
// penalty chosen by Rule.
type PELTSegmenter struct {
	Rule PenaltyRule
	// Value is the manual penalty (PenaltyManual), a number or NUMBER·log n.
	Value changepoint.PenaltyTerm
	// Range bounds CROPS (the zero value: [4·log n, 10⁵·log n]).
	Range changepoint.PenaltyRange
}

var _ Segmenter = PELTSegmenter{}

// Segment segments x. A series shorter than 4 points (2 × the minimum
// segment length) cannot hold a change point and gets none (Rule "none").
func (p PELTSegmenter) Segment(x []float64) (*Segmentation, error) {
	const minSegLen = 2
	if len(x) < 2*minSegLen {
		return &Segmentation{Rule: "none", Penalty: nan}, nil
	}
	switch p.Rule {
	case PenaltyCROPS, PenaltyCROPSAscending:
		opt := changepoint.DefaultSelectOptions
		if p.Rule == PenaltyCROPSAscending {
			opt.Protocol = changepoint.AscendingProtocol
		}
		lo, hi, err := p.Range.At(len(x))
		if err != nil {
			return nil, err
		}
		opt.CROPS.PenMin, opt.CROPS.PenMax = lo, hi
		sel, err := changepoint.SelectPenalty(x, opt)
		if err != nil {
			return nil, err
		}
		rule := p.Rule.String()
		if sel.Fallback {
			rule += "-fallback"
		}
		return &Segmentation{
			Changepoints: sel.Segmentation.Changepoints, Penalty: sel.Penalty, Rule: rule,
			CROPS: sel.CROPS, Knee: sel.Knee,
		}, nil
	case PenaltyBarrett, PenaltyManual:
		pen, rule := changepoint.BarrettPenalty(len(x)), "15log"
		if p.Rule == PenaltyManual {
			pen, rule = p.Value.At(len(x)), "manual"
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
	return nil, fmt.Errorf("steady: unknown penalty rule %d", int(p.Rule))
}
