package changepoint

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PenaltyRule says how the PELT penalty of a series is chosen.
type PenaltyRule int

const (
	// PenaltyCROPS chooses the penalty per series with CROPS and Kneedle as
	// Traini et al.'s scripts do (SelectPenalty with TrainiProtocol); where
	// the protocol selects none, 15·log n is used.
	PenaltyCROPS PenaltyRule = iota
	// PenaltyBarrett is Barrett et al.'s fixed 15·log n.
	PenaltyBarrett
	// PenaltyManual is a fixed penalty (Penalty.Manual).
	PenaltyManual
	// PenaltyCROPSAscending is CROPS with the textbook Kneedle curve
	// (AscendingProtocol), 15·log n where it finds no knee.
	PenaltyCROPSAscending
)

// String returns "crops", "15log", "manual" or "crops-ascending".
func (r PenaltyRule) String() string {
	switch r {
	case PenaltyCROPS:
		return "crops"
	case PenaltyBarrett:
		return "15log"
	case PenaltyManual:
		return "manual"
	case PenaltyCROPSAscending:
		return "crops-ascending"
	}
	return fmt.Sprintf("PenaltyRule(%d)", int(r))
}

// PenaltyTerm is a penalty written as a number or as a multiple of log n
// ("10log"): Value, or Value·log n when PerLogN (n the series length).
type PenaltyTerm struct {
	Value   float64
	PerLogN bool
}

// At is the term's value for a series of n points:
//
//	Value            (PerLogN false)
//	Value · ln n     (PerLogN true)
func (t PenaltyTerm) At(n int) float64 {
	if t.PerLogN {
		return t.Value * math.Log(float64(n))
	}
	return t.Value
}

// String writes the term as parsePenaltyTerm reads it.
func (t PenaltyTerm) String() string {
	s := strconv.FormatFloat(t.Value, 'g', -1, 64)
	if t.PerLogN {
		s += "log"
	}
	return s
}

// parsePenaltyTerm reads a finite number ≥ 0, or NUMBERlog for NUMBER·log n.
func parsePenaltyTerm(s string) (PenaltyTerm, error) {
	s = strings.TrimSpace(s)
	var t PenaltyTerm
	num := s
	if rest, ok := strings.CutSuffix(s, "log"); ok {
		num, t.PerLogN = rest, true
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return t, fmt.Errorf("%q is not a number >= 0 or NUMBERlog", s)
	}
	t.Value = v
	return t, nil
}

// Penalty is a penalty rule and, for PenaltyManual, its value.
type Penalty struct {
	Rule   PenaltyRule
	Manual PenaltyTerm
}

// at is the penalty for a series of n points under PenaltyBarrett
// (BarrettPenalty) and PenaltyManual; the CROPS rules choose theirs per
// series (SelectPenalty), so At returns NaN for them.
func (p Penalty) at(n int) float64 {
	switch p.Rule {
	case PenaltyBarrett:
		return BarrettPenalty(n)
	case PenaltyManual:
		return p.Manual.At(n)
	}
	return math.NaN()
}

// String writes the penalty as ParsePenalty reads it.
func (p Penalty) String() string {
	if p.Rule == PenaltyManual {
		return p.Manual.String()
	}
	return p.Rule.String()
}

// ParsePenalty reads a penalty as the changepoint and steady commands take
// it: "crops" (CROPS + Kneedle, Traini's protocol), "crops-ascending",
// "15log" (Barrett's 15·log n; also "barrett" and "15*log(n)"), a number
// ≥ 0, or NUMBERlog for NUMBER·log n.
func ParsePenalty(s string) (Penalty, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "crops", "":
		return Penalty{Rule: PenaltyCROPS}, nil
	case "crops-ascending":
		return Penalty{Rule: PenaltyCROPSAscending}, nil
	case "15log", "15*log(n)", "barrett":
		return Penalty{Rule: PenaltyBarrett}, nil
	}
	t, err := parsePenaltyTerm(s)
	if err != nil {
		return Penalty{}, fmt.Errorf("penalty %q: want crops, crops-ascending, 15log, a number >= 0 or NUMBERlog", s)
	}
	return Penalty{Rule: PenaltyManual, Manual: t}, nil
}

// PenaltyRange is a CROPS penalty range [Min, Max]; the zero value means
// TrainiRange(n).
type PenaltyRange struct{ Min, Max PenaltyTerm }

// IsZero reports whether r is the zero value (TrainiRange).
func (r PenaltyRange) IsZero() bool { return r == PenaltyRange{} }

// At is the range for a series of n points: TrainiRange(n) for the zero
// value, else Min.At(n), Max.At(n), which must satisfy 0 ≤ min < max.
func (r PenaltyRange) At(n int) (min, max float64, err error) {
	if r.IsZero() {
		min, max = trainiRange(n)
		return min, max, nil
	}
	min, max = r.Min.At(n), r.Max.At(n)
	if !(min >= 0 && min < max) {
		return 0, 0, fmt.Errorf("penalty range %s,%s: want 0 <= a < b, got a = %g, b = %g at n = %d", r.Min, r.Max, min, max, n)
	}
	return min, max, nil
}

// ParsePenaltyRange reads "a,b", each bound a number ≥ 0 or NUMBERlog.
// The order of the bounds is checked by At (it may depend on n).
func ParsePenaltyRange(s string) (PenaltyRange, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok || strings.Contains(b, ",") {
		return PenaltyRange{}, fmt.Errorf("penalty range %q: want a,b", s)
	}
	lo, err := parsePenaltyTerm(a)
	if err != nil {
		return PenaltyRange{}, fmt.Errorf("penalty range %q: %w", s, err)
	}
	hi, err := parsePenaltyTerm(b)
	if err != nil {
		return PenaltyRange{}, fmt.Errorf("penalty range %q: %w", s, err)
	}
	return PenaltyRange{Min: lo, Max: hi}, nil
}
