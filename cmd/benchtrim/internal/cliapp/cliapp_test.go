package cliapp

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func testApp() *cli.App {
	return &cli.App{
		Name:  "benchtrim",
		Flags: globalFlags(),
		Commands: []*cli.Command{{
			Name: "compare",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}},
				&cli.BoolFlag{Name: "aa"},
				&cli.IntFlag{Name: "resamples"},
			},
		}},
	}
}

// TestNormalizeArgs: flags after files move before them, global flags
// after the command move before it, "--" and "-" stay arguments.
func TestNormalizeArgs(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"benchtrim", "compare", "a.json", "-o", "x.csv", "b.json", "--aa"},
			[]string{"benchtrim", "compare", "-o", "x.csv", "--aa", "--", "a.json", "b.json"}},
		{[]string{"benchtrim", "compare", "--seed", "7", "a.json"},
			[]string{"benchtrim", "--seed", "7", "compare", "--", "a.json"}},
		{[]string{"benchtrim", "compare", "a.json", "--", "-o"},
			[]string{"benchtrim", "compare", "--", "a.json", "-o"}},
		{[]string{"benchtrim", "compare", "-"}, []string{"benchtrim", "compare", "--", "-"}},
	} {
		got, err := NormalizeArgs(testApp(), tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("NormalizeArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	_, err := NormalizeArgs(testApp(), []string{"benchtrim", "comapre", "a.json"})
	var u *usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), `did you mean "compare"?`) {
		t.Errorf("misspelled command: %v", err)
	}
}

// TestRangeChecks: a value outside the flag's range is a usage error naming
// the flag and the range; a value inside passes.
func TestRangeChecks(t *testing.T) {
	app := testApp()
	addRangeChecks(app.Commands[0].Flags, map[string]flagRange{"resamples": atLeastOne})
	app.Commands[0].Action = func(*cli.Context) error { return nil }
	app.ExitErrHandler = func(*cli.Context, error) {}
	err := app.Run([]string{"benchtrim", "compare", "--resamples", "0"})
	var u *usageError
	if !errors.As(err, &u) || u.cmd != "compare" || err.Error() != "--resamples 0: must be at least 1" {
		t.Errorf("--resamples 0: %v", err)
	}
	if err := app.Run([]string{"benchtrim", "compare", "--resamples", "10"}); err != nil {
		t.Errorf("--resamples 10: %v", err)
	}
}

// TestAnySet: AnySet holds when one of the named flags is given on the
// command line (its alias counts), not for a default or another flag.
func TestAnySet(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"x"}, false},
		{[]string{"--aa", "x"}, false},
		{[]string{"-o", "r.csv", "x"}, true},
		{[]string{"--summary-out", "s.csv", "x"}, true},
	} {
		got := false
		app := &cli.App{Name: "benchtrim", Commands: []*cli.Command{{
			Name: "optimize",
			Flags: []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}}, &cli.StringFlag{Name: "summary-out", Value: "none"},
				&cli.BoolFlag{Name: "aa"}},
			Action: func(c *cli.Context) error { got = AnySet(c, "output", "summary-out", "partial-out"); return nil },
		}}}
		if err := app.Run(append([]string{"benchtrim", "optimize"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("AnySet with %q = %v, want %v", tc.args, got, tc.want)
		}
	}
}
