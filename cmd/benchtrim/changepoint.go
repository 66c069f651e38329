package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/changepoint"
)

const changepointDescription = `Segments one numeric series with PELT (Killick et al. 2012), reproducing R changepoint 2.3
(cpt.meanvar / cpt.mean with test.stat="Normal", method="PELT").

Input: FILE (or - for stdin) with one value per line, or, with --column NAME, a CSV file
with a header line and the values in column NAME. A first line that is not a number is
taken as a header (and said so on stderr); blank lines are skipped and counted.

--penalty chooses the penalty per change point:
  crops            CROPS over --pen-range, then Kneedle on the "change points vs penalty"
                   curve as Traini et al.'s scripts do (Traini protocol, kneed 0.8.6); where
                   that protocol selects nothing (R's cpts.full transpose quirk, which
                   makes their script stop) it falls back to 15·log n
  crops-ascending  CROPS, then Kneedle on the textbook ascending curve (fallback 15·log n)
  15log            Barrett et al.'s 15·log n
  VALUE            a number, or NUMBERlog for NUMBER·log n (e.g. 10log)

--pen-range a,b gives the CROPS range; each bound is a number or NUMBERlog (NUMBER·log n).
The default, 4log,1e5log, is the range Traini et al.'s scripts pass to R; their paper
states [4, 1e5], i.e. --pen-range 4,1e5.

Output: the change points, one per line, in R's convention (the 1-based index of the last
point of every segment except the final one). --json prints instead an object with the
change points, the segments (start and end 1-based and inclusive, mean, maximum
likelihood variance), the penalty and, for crops, the CROPS table (penalty interval and
number of change points of every segmentation, R's pen.value.full).`

func changepointCommand() *cli.Command {
	return &cli.Command{
		Name:        "changepoint",
		Usage:       "segment a series with PELT (penalty fixed or chosen by CROPS + Kneedle)",
		ArgsUsage:   "FILE",
		Description: changepointDescription,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "column", Usage: "read CSV column `NAME` (the file has a header line)"},
			&cli.StringFlag{Name: "cost", Value: "meanvar", Usage: "segment cost: meanvar (Normal mean and variance) or mean (Normal mean, unit variance)"},
			&cli.StringFlag{Name: "penalty", Value: "crops", Usage: "crops, crops-ascending, 15log, a number, or NUMBERlog"},
			&cli.StringFlag{Name: "pen-range", Value: "4log,1e5log", Usage: "CROPS penalty range `a,b`; NUMBERlog means NUMBER·log n"},
			&cli.IntFlag{Name: "min-seg-len", Usage: "minimum segment length (0: 2 for meanvar, 1 for mean)"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON object with segments, penalty and the CROPS table"},
		},
		Action: runChangepoint,
	}
}

func runChangepoint(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("changepoint: want exactly one FILE (or -)")
	}
	cost, err := changepoint.ParseCost(c.String("cost"))
	if err != nil {
		return fmt.Errorf("--cost: %w", err)
	}
	if c.Int("min-seg-len") < 0 {
		return fmt.Errorf("--min-seg-len %d: must be >= 0", c.Int("min-seg-len"))
	}
	name := c.Args().First()
	x, note, err := readSeries(name, c.String("column"))
	if err != nil {
		return err
	}
	if note != "" && !globalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", name, note)
	}
	res, err := segmentSeries(x, cost, c.Int("min-seg-len"), c.String("penalty"), c.String("pen-range"), c.IsSet("pen-range"))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	w := bufio.NewWriter(c.App.Writer)
	if c.Bool("json") {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		for _, cp := range res.Changepoints {
			fmt.Fprintln(w, cp)
		}
	}
	if len(res.Changepoints) == 0 && !globalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", name, noChangepointReason(res))
	}
	return w.Flush()
}

// noChangepointReason says why a segmentation found no change point and
// which flag finds more.
func noChangepointReason(res *changepointJSON) string {
	msg := fmt.Sprintf("no change point: at penalty %.4g (%s) the series of %d values is best kept as one segment", float64(res.Penalty), res.PenaltyRule, res.N)
	switch {
	case res.CROPS != nil && res.CROPS.Protocol == "traini":
		return msg + "; --penalty crops-ascending or a smaller --penalty (e.g. 15log) may find change points"
	case res.CROPS != nil:
		return msg + "; a smaller --penalty (e.g. 4log) may find change points"
	}
	return msg + "; a smaller --penalty finds more change points"
}

// changepointJSON is the --json output.
type changepointJSON struct {
	N            int           `json:"n"`
	Cost         string        `json:"cost"`
	MinSegLen    int           `json:"min_seg_len"`
	PenaltyRule  string        `json:"penalty_rule"`
	Penalty      jsonFloat     `json:"penalty"`
	Changepoints []int         `json:"changepoints"`
	Objective    jsonFloat     `json:"objective"`
	Segments     []segmentJSON `json:"segments"`
	CROPS        *cropsJSON    `json:"crops,omitempty"`
	Fallback     bool          `json:"fallback_15log,omitempty"`
	Notes        []string      `json:"notes,omitempty"`
}

type segmentJSON struct {
	Start    int       `json:"start"`
	End      int       `json:"end"`
	Mean     jsonFloat `json:"mean"`
	Variance jsonFloat `json:"variance"`
}

type cropsJSON struct {
	PenMin       jsonFloat     `json:"pen_min"`
	PenMax       jsonFloat     `json:"pen_max"`
	Protocol     string        `json:"protocol"`
	Outcome      string        `json:"outcome"`
	PenValueFull []jsonFloat   `json:"pen_value_full"`
	Rows         []cropsRowJSN `json:"segmentations"`
	PELTRuns     int           `json:"pelt_runs"`
}

type cropsRowJSN struct {
	PenaltyLow   jsonFloat `json:"penalty_low"`
	PenaltyHigh  jsonFloat `json:"penalty_high"`
	NChangepts   int       `json:"n_changepoints"`
	Changepoints []int     `json:"changepoints"`
}

// jsonFloat encodes NaN and ±Inf as null (JSON has no such numbers).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// segmentSeries runs the requested penalty rule on x (penalty and
// penRange as changepoint.ParsePenalty and ParsePenaltyRange read them).
func segmentSeries(x []float64, cost changepoint.Cost, minSegLen int, penalty, penRange string, rangeSet bool) (*changepointJSON, error) {
	n := len(x)
	if n == 0 {
		return nil, errors.New("no values")
	}
	pen, err := changepoint.ParsePenalty(penalty)
	if err != nil {
		return nil, fmt.Errorf("--penalty: %w", err)
	}
	out := &changepointJSON{N: n, Cost: strings.TrimSuffix(cost.String(), ".norm")}
	var seg *changepoint.Segmentation
	switch pen.Rule {
	case changepoint.PenaltyCROPS, changepoint.PenaltyCROPSAscending:
		r, err := changepoint.ParsePenaltyRange(penRange)
		if err != nil {
			return nil, fmt.Errorf("--pen-range: %w", err)
		}
		lo, hi, err := r.At(n)
		if err != nil {
			return nil, fmt.Errorf("--pen-range: %w", err)
		}
		opt := changepoint.SelectOptions{CROPS: changepoint.CROPSOptions{Cost: cost, MinSegLen: minSegLen, PenMin: lo, PenMax: hi}}
		if pen.Rule == changepoint.PenaltyCROPSAscending {
			opt.Protocol = changepoint.AscendingProtocol
		}
		sel, err := changepoint.SelectPenalty(x, opt)
		if err != nil {
			return nil, err
		}
		seg = sel.Segmentation
		out.PenaltyRule = pen.Rule.String()
		out.Fallback = sel.Fallback
		cr := sel.CROPS
		cj := &cropsJSON{PenMin: jsonFloat(cr.PenMin), PenMax: jsonFloat(cr.PenMax), Protocol: opt.Protocol.String(),
			Outcome: sel.Knee.Outcome.String(), PELTRuns: len(cr.Runs)}
		for _, p := range cr.PenValueFull {
			cj.PenValueFull = append(cj.PenValueFull, jsonFloat(p))
		}
		for _, r := range cr.Segmentations {
			cj.Rows = append(cj.Rows, cropsRowJSN{PenaltyLow: jsonFloat(r.PenaltyLow), PenaltyHigh: jsonFloat(r.PenaltyHigh),
				NChangepts: len(r.Changepoints), Changepoints: r.Changepoints})
		}
		out.CROPS = cj
		if sel.Fallback {
			out.Notes = append(out.Notes, fmt.Sprintf("the %s protocol selected no penalty (%s); used 15·log n", opt.Protocol, sel.Knee.Outcome))
		}
	default:
		if rangeSet {
			return nil, fmt.Errorf("--pen-range applies to --penalty crops or crops-ascending, not %q", penalty)
		}
		s, err := changepoint.PELT(x, changepoint.Options{Cost: cost, MinSegLen: minSegLen, Penalty: pen.At(n)})
		if err != nil {
			return nil, err
		}
		seg = s
		out.PenaltyRule = pen.Rule.String()
	}
	out.MinSegLen = seg.MinSegLen
	out.Penalty = jsonFloat(seg.Penalty)
	out.Objective = jsonFloat(seg.Objective)
	out.Changepoints = append([]int{}, seg.Changepoints...)
	for _, s := range seg.Segments {
		out.Segments = append(out.Segments, segmentJSON{Start: s.Start + 1, End: s.End, Mean: jsonFloat(s.Mean), Variance: jsonFloat(s.Variance)})
	}
	return out, nil
}

// readSeries reads the values of name ("-" is stdin) with
// changepoint.ReadSeries: one per line, or CSV column `column`.
func readSeries(name, column string) ([]float64, string, error) {
	var r io.Reader
	if name == "-" {
		r = os.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		r = f
	}
	return changepoint.ReadSeries(name, r, column)
}
