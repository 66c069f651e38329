package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/internal/cliapp"
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
	if note != "" && !cliapp.GlobalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", name, note)
	}
	opt := changepoint.AnalyzeOptions{Cost: cost, MinSegLen: c.Int("min-seg-len")}
	if opt.Penalty, err = changepoint.ParsePenalty(c.String("penalty")); err != nil {
		return fmt.Errorf("--penalty: %w", err)
	}
	crops := opt.Penalty.Rule == changepoint.PenaltyCROPS || opt.Penalty.Rule == changepoint.PenaltyCROPSAscending
	if c.IsSet("pen-range") && !crops {
		return fmt.Errorf("--pen-range applies to --penalty crops or crops-ascending, not %q", c.String("penalty"))
	}
	if opt.Range, err = changepoint.ParsePenaltyRange(c.String("pen-range")); err != nil {
		return fmt.Errorf("--pen-range: %w", err)
	}
	if _, _, err := opt.Range.At(len(x)); crops && err != nil {
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
