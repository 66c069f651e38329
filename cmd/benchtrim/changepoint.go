package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
)

func changepointCommand() *cli.Command {
	return command("changepoint", "FILE", "segment a series with PELT (penalty fixed or chosen by CROPS + Kneedle)", runChangepoint,
		cliapp.Group("Segmentation",
			&cli.StringFlag{Name: "cost", Value: "meanvar", Usage: "segment cost: meanvar (Normal mean and variance) or mean (Normal mean, unit variance)"},
			&cli.StringFlag{Name: "penalty", Value: "crops", Usage: "crops, crops-ascending, 15log, a number, or NUMBERlog"},
			&cli.StringFlag{Name: "pen-range", Value: "4log,1e5log", Usage: "CROPS penalty range `a,b`; NUMBERlog means NUMBER·log n"},
			&cli.IntFlag{Name: "min-seg-len", Usage: "minimum segment length (0: 2 for meanvar, 1 for mean)"},
			&cli.IntFlag{Name: "binseg", Usage: "binary segmentation with at most `Q` change points instead of PELT (R's BinSeg; time Q·n, for long series without change points; a fixed --penalty)"},
		),
		cliapp.Group("Input",
			&cli.StringFlag{Name: "column", Usage: "read CSV column `NAME` (the file has a header line)"},
		),
		cliapp.Group("Output",
			&cli.BoolFlag{Name: "json", Usage: "print a JSON object with segments, penalty and the CROPS table"},
		),
	)
}

func runChangepoint(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("changepoint: want exactly one FILE (or -)")
	}
	cost, err := changepoint.ParseCost(c.String("cost"))
	if err != nil {
		return fmt.Errorf("--cost: %w", err)
	}
	if c.Int("binseg") < 0 {
		return fmt.Errorf("--binseg %d: must be >= 1 (0: PELT)", c.Int("binseg"))
	}
	name := c.Args().First()
	x, err := cliapp.ReadSeries(c, name, c.String("column"))
	if err != nil {
		return err
	}
	opt, crops, err := changepointOptions(c, cost)
	if err != nil {
		return err
	}
	// A series of fewer than 2 values has no penalty range (log n ≤ 0):
	// Analyze says what is wrong with it ("no values", "series shorter
	// than …") instead.
	if _, _, err := opt.Range.At(len(x)); crops && len(x) >= 2 && err != nil {
		return fmt.Errorf("%s: --pen-range: %w", name, err)
	}
	res, err := changepoint.Analyze(x, opt)
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
	if len(res.Changepoints) == 0 && !cliapp.GlobalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", name, res.NoChangepointReason())
	}
	return w.Flush()
}

// changepointOptions reads the segmentation flags; crops says whether the
// penalty is chosen by CROPS.
func changepointOptions(c *cli.Context, cost changepoint.Cost) (opt changepoint.AnalyzeOptions, crops bool, err error) {
	opt = changepoint.AnalyzeOptions{Cost: cost, MinSegLen: c.Int("min-seg-len"), Workers: cliapp.GlobalsOf(c).Workers, BinSegQ: c.Int("binseg")}
	if opt.Penalty, err = changepoint.ParsePenalty(c.String("penalty")); err != nil {
		return opt, false, fmt.Errorf("--penalty: %w", err)
	}
	crops = opt.Penalty.Rule == changepoint.PenaltyCROPS || opt.Penalty.Rule == changepoint.PenaltyCROPSAscending
	if c.Int("binseg") > 0 && crops {
		if c.IsSet("penalty") {
			return opt, false, fmt.Errorf("--binseg takes a fixed --penalty (15log, a number or NUMBERlog), not %q", c.String("penalty"))
		}
		opt.Penalty, crops = changepoint.Penalty{Rule: changepoint.PenaltyBarrett}, false
	}
	if c.IsSet("pen-range") && !crops {
		return opt, false, fmt.Errorf("--pen-range applies to --penalty crops or crops-ascending, not %q", c.String("penalty"))
	}
	if opt.Range, err = changepoint.ParsePenaltyRange(c.String("pen-range")); err != nil {
		return opt, false, fmt.Errorf("--pen-range: %w", err)
	}
	return opt, crops, nil
}
