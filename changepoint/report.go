package changepoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// NoChangepointReason says why a segmentation found no change point and
// which benchtrim flag finds more.
func (res *Report) NoChangepointReason() string {
	msg := fmt.Sprintf("no change point: at penalty %.4g (%s) the series of %d values is best kept as one segment", float64(res.Penalty), res.PenaltyRule, res.N)
	switch {
	case res.CROPS != nil && res.CROPS.Protocol == "traini":
		return msg + "; --penalty crops-ascending or a smaller --penalty (e.g. 15log) may find change points"
	case res.CROPS != nil:
		return msg + "; a smaller --penalty (e.g. 4log) may find change points"
	}
	return msg + "; a smaller --penalty finds more change points"
}

// Report is one segmentation as benchtrim changepoint prints it; the JSON
// field names are its --json output. Change points follow R's convention
// (the 1-based index of the last point of every segment but the final one)
// and segments are 1-based and inclusive.
type Report struct {
	N            int             `json:"n"`
	Cost         string          `json:"cost"`
	MinSegLen    int             `json:"min_seg_len"`
	PenaltyRule  string          `json:"penalty_rule"`
	Penalty      JSONFloat       `json:"penalty"`
	Changepoints []int           `json:"changepoints"`
	Objective    JSONFloat       `json:"objective"`
	Segments     []ReportSegment `json:"segments"`
	CROPS        *ReportCROPS    `json:"crops,omitempty"`
	BinSeg       *ReportBinSeg   `json:"binseg,omitempty"`
	Fallback     bool            `json:"fallback_15log,omitempty"`
	Notes        []string        `json:"notes,omitempty"`
}

// ReportSegment is one segment of the chosen segmentation: observations
// [Start, End) (0-based) with their mean and variance.
type ReportSegment struct {
	Start    int       `json:"start"`
	End      int       `json:"end"`
	Mean     JSONFloat `json:"mean"`
	Variance JSONFloat `json:"variance"`
}

// ReportBinSeg is the binary segmentation's search (BinSeg): the change
// points in the order found and their gains (R's cps matrix).
type ReportBinSeg struct {
	Q     int         `json:"q"`
	Found []int       `json:"found"`
	Gains []JSONFloat `json:"gains"`
}

// ReportCROPS is the CROPS search (Haynes et al. 2017): the penalty range,
// how it ended, R's pen.value.full, one row per distinct segmentation and
// the PELT runs it took.
type ReportCROPS struct {
	PenMin       JSONFloat        `json:"pen_min"`
	PenMax       JSONFloat        `json:"pen_max"`
	Protocol     string           `json:"protocol"`
	Outcome      string           `json:"outcome"`
	PenValueFull []JSONFloat      `json:"pen_value_full"`
	Rows         []ReportCROPSRow `json:"segmentations"`
	PELTRuns     int              `json:"pelt_runs"`
}

// ReportCROPSRow is one segmentation CROPS found: the penalty interval
// that selects it and its change points.
type ReportCROPSRow struct {
	PenaltyLow   JSONFloat `json:"penalty_low"`
	PenaltyHigh  JSONFloat `json:"penalty_high"`
	NChangepts   int       `json:"n_changepoints"`
	Changepoints []int     `json:"changepoints"`
}

// JSONFloat is a float64 that encodes NaN and ±Inf as null (JSON has no
// such numbers).
type JSONFloat float64

func (f JSONFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// AnalyzeOptions configure Analyze.
type AnalyzeOptions struct {
	Cost      Cost
	MinSegLen int
	Penalty   Penalty
	// Range is the CROPS range of the CROPS rules (zero: TrainiRange).
	Range PenaltyRange
	// Workers runs the PELT calls of one CROPS round concurrently
	// (cropsOptions.workers); the result does not depend on it.
	Workers int
	// BinSegQ > 0 segments by binary segmentation (BinSeg) with at most
	// BinSegQ change points instead of PELT, at a fixed penalty (not with
	// the CROPS rules): O(Q·n) where PELT on a series without change
	// points is O(n²).
	BinSegQ int
}

// Analyze segments x under opt.Penalty: PELT at 15·log n or a manual
// penalty, or CROPS over opt.Range and Kneedle (SelectPenalty) for the
// CROPS rules, and reports the segmentation with its segments and, for
// CROPS, every segmentation CROPS found (R's cpts.full and pen.value.full).
func Analyze(x []float64, opt AnalyzeOptions) (*Report, error) {
	n := len(x)
	if n == 0 {
		return nil, errors.New("no values")
	}
	cost, minSegLen, pen := opt.Cost, opt.MinSegLen, opt.Penalty
	// Too short a series is the first thing to say: a CROPS range at
	// n < 2 (log n ≤ 0) would otherwise be reported instead.
	if m, err := resolveMinSegLen(cost, minSegLen); err != nil {
		return nil, err
	} else if n < 2*m {
		return nil, fmt.Errorf("%w: n = %d, MinSegLen = %d", ErrTooShort, n, m)
	}
	out := &Report{N: n, Cost: strings.TrimSuffix(cost.String(), ".norm")}
	var seg *Segmentation
	switch crops := pen.Rule == PenaltyCROPS || pen.Rule == PenaltyCROPSAscending; {
	case opt.BinSegQ > 0 && crops:
		return nil, fmt.Errorf("binary segmentation takes a fixed penalty (15log, a number or NUMBERlog), not %s", pen.Rule)
	case opt.BinSegQ > 0:
		b, err := binSeg(x, binSegOptions{Cost: cost, MinSegLen: minSegLen, Penalty: pen.at(n), Q: opt.BinSegQ})
		if err != nil {
			return nil, err
		}
		seg = b.Segmentation
		out.PenaltyRule = pen.Rule.String()
		out.BinSeg = &ReportBinSeg{Q: opt.BinSegQ, Found: b.Found}
		for _, g := range b.Gains {
			out.BinSeg.Gains = append(out.BinSeg.Gains, JSONFloat(g))
		}
		if len(b.Changepoints) == opt.BinSegQ {
			out.Notes = append(out.Notes, fmt.Sprintf("binary segmentation kept all Q = %d change points: a larger Q may find more", opt.BinSegQ))
		}
	case crops:
		lo, hi, err := opt.Range.At(n)
		if err != nil {
			return nil, err
		}
		opt := selectOptions{CROPS: cropsOptions{cost: cost, minSegLen: minSegLen, PenMin: lo, PenMax: hi, workers: opt.Workers}}
		if pen.Rule == PenaltyCROPSAscending {
			opt.Protocol = AscendingProtocol
		}
		sel, err := selectPenalty(x, opt)
		if err != nil {
			return nil, err
		}
		seg = sel.Segmentation
		out.PenaltyRule = pen.Rule.String()
		out.Fallback = sel.Fallback
		cr := sel.CROPS
		cj := &ReportCROPS{PenMin: JSONFloat(cr.PenMin), PenMax: JSONFloat(cr.PenMax), Protocol: opt.Protocol.String(),
			Outcome: sel.Knee.Outcome.String(), PELTRuns: len(cr.Runs)}
		for _, p := range cr.PenValueFull {
			cj.PenValueFull = append(cj.PenValueFull, JSONFloat(p))
		}
		for _, r := range cr.Segmentations {
			cj.Rows = append(cj.Rows, ReportCROPSRow{PenaltyLow: JSONFloat(r.PenaltyLow), PenaltyHigh: JSONFloat(r.PenaltyHigh),
				NChangepts: len(r.Changepoints), Changepoints: r.Changepoints})
		}
		out.CROPS = cj
		if sel.Fallback {
			out.Notes = append(out.Notes, fmt.Sprintf("the %s protocol selected no penalty (%s); used 15·log n", opt.Protocol, sel.Knee.Outcome))
		}
	default:
		s, err := PELT(x, Options{Cost: cost, MinSegLen: minSegLen, Penalty: pen.at(n)})
		if err != nil {
			return nil, err
		}
		seg = s
		out.PenaltyRule = pen.Rule.String()
	}
	out.MinSegLen = seg.minSegLen
	out.Penalty = JSONFloat(seg.penalty)
	out.Objective = JSONFloat(seg.objective)
	out.Changepoints = append([]int{}, seg.Changepoints...)
	for _, s := range seg.Segments {
		out.Segments = append(out.Segments, ReportSegment{Start: s.Start + 1, End: s.End, Mean: JSONFloat(s.Mean), Variance: JSONFloat(s.Variance)})
	}
	return out, nil
}
