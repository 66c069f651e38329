package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/tablefile"
)

func init() {
	extraCommands = append(extraCommands, func() *cli.Command {
		return &cli.Command{Name: "print-globals", Hidden: true, Action: func(c *cli.Context) error {
			g := cliapp.GlobalsOf(c)
			fmt.Fprintf(c.App.Writer, "seed=%d workers=%d quiet=%v", g.Seed, g.Workers, g.Quiet)
			return nil
		}}
	})
}

// runCLI runs a command line and returns stdout, stderr and the error.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(append([]string{"benchtrim"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

// generated writes `benchtrim generate ARGS... -o DIR/NAME` and returns
// the path; a failure ends the test.
func generated(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if _, stderr, err := runCLI(t, append(append([]string{"generate"}, args...), "-o", p)...); err != nil {
		t.Fatalf("generate %s: %v\n%s", name, err, stderr)
	}
	return p
}

func TestGlobalFlagsBeforeOrAfterTheCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"print-globals"}, "seed=1 workers="},
		{[]string{"--seed", "7", "--workers", "3", "print-globals"}, "seed=7 workers=3 quiet=false"},
		{[]string{"print-globals", "--seed", "9", "--workers", "2", "--quiet"}, "seed=9 workers=2 quiet=true"},
		{[]string{"--seed", "7", "print-globals", "--workers", "5"}, "seed=7 workers=5 quiet=false"},
	} {
		out, _, err := runCLI(t, tc.args...)
		if err != nil || !strings.HasPrefix(out, tc.want) {
			t.Errorf("%v: got %q, %v; want prefix %q", tc.args, out, err, tc.want)
		}
	}
}

func repoFile(parts ...string) string {
	return filepath.Join(append([]string{"..", ".."}, parts...)...)
}

func TestIngestWritesEveryTableFormat(t *testing.T) {
	inputs := []string{repoFile("testdata", "jmh", "small_avgt.json"), repoFile("testdata", "jmh", "small_sample.json"),
		repoFile("testdata", "uoptime", "small_ragged.csv"), repoFile("testdata", "gobench", "small.txt")}
	dir := t.TempDir()
	var rows []int64
	for _, ext := range []string{".arrow", ".parquet", ".csv"} {
		out := filepath.Join(dir, "t"+ext)
		stdout, _, err := runCLI(t, append([]string{"--quiet", "ingest", "-o", out}, inputs...)...)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		for _, want := range []string{"small_avgt.json: jmh,", "small_ragged.csv: uoptime,", "small.txt: gobench,", "benchmarks:", "levels seen", "ragged data", "wrote " + out} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: summary lacks %q:\n%s", ext, want, stdout)
			}
		}
		tab, err := tablefile.ReadFile(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, tab.NumRows())
		if len(tab.Setups) == 0 {
			t.Errorf("%s: no setups written", ext)
		}
		tab.Release()
	}
	if rows[0] == 0 || rows[0] != rows[1] || rows[1] != rows[2] {
		t.Errorf("row counts differ between formats: %v", rows)
	}
	// A table file is itself an input.
	stdout, _, err := runCLI(t, "--quiet", "ingest", "-o", filepath.Join(dir, "again.arrow"), filepath.Join(dir, "t.parquet"))
	if err != nil || !strings.Contains(stdout, fmt.Sprintf("t.parquet: table, %d rows", rows[0])) {
		t.Errorf("re-ingesting a table: %v\n%s", err, stdout)
	}
}

func TestIngestFailsOnBadInputWithThePlace(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.json")
	good, _ := os.ReadFile(repoFile("testdata", "jmh", "small_avgt.json"))
	os.WriteFile(bad, good[:len(good)/2], 0o644)
	out := filepath.Join(dir, "out.arrow")
	_, _, err := runCLI(t, "--quiet", "ingest", "-o", out, bad)
	if err == nil || !strings.Contains(err.Error(), "broken.json:") {
		t.Fatalf("err = %v, want one naming broken.json", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("output written despite the error")
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	if _, _, err := runCLI(t, "--quiet", "ingest", "-o", out, empty); err == nil || !strings.Contains(err.Error(), "empty file") {
		t.Errorf("empty file: err = %v", err)
	}
	if _, _, err := runCLI(t, "--quiet", "ingest", "-o", filepath.Join(dir, "x.xlsx"), bad); err == nil || !strings.Contains(err.Error(), "unsupported extension \".xlsx\"") {
		t.Errorf("bad output extension: err = %v", err)
	}
}

func TestGenerateThenIngest(t *testing.T) {
	dir := t.TempDir()
	for format, ext := range map[string]string{"jmh": ".json", "uoptime": ".csv", "gobench": ".txt"} {
		f := filepath.Join(dir, "gen-"+format+ext)
		preset := "default"
		if format == "uoptime" {
			preset = "uoptime"
		}
		if _, _, err := runCLI(t, "--seed", "3", "generate", "--format", format, "--preset", preset, "--benchmarks", "2", "--iterations", "5", "-o", f); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		out, _, err := runCLI(t, "--quiet", "ingest", "-o", f+".arrow", f)
		if err != nil || !strings.Contains(out, ": "+format+",") || !strings.Contains(out, "benchmarks: 2") {
			t.Errorf("%s: ingest of generated file: %v\n%s", format, err, out)
		}
	}
	if _, _, err := runCLI(t, "generate", "--preset", "huge", "-o", filepath.Join(dir, "x.json")); err == nil {
		t.Error("unknown preset accepted")
	}
	// The extension picks the format; a contradiction is a usage error.
	out, _, err := runCLI(t, "generate", "--preset", "uoptime", "--benchmarks", "1", "-o", filepath.Join(dir, "u.csv"))
	if err != nil || !strings.Contains(out, "(uoptime, preset uoptime") {
		t.Errorf("--preset uoptime -o u.csv: %q, %v", out, err)
	}
	for _, tc := range [][]string{{"-o", "x.csv"}, {"--format", "pa", "-o", "x.json"}, {"-o", "x.xlsx"}} {
		_, _, err := runCLI(t, append([]string{"generate"}, tc...)...)
		if !isUsageError(err) {
			t.Errorf("generate %v: err %v, want a usage error", tc, err)
		}
	}
}

func TestExportToPAReadsBack(t *testing.T) {
	dir := t.TempDir()
	in := repoFile("testdata", "jmh", "small_avgt.json")
	out := filepath.Join(dir, "small.csv")
	if _, _, err := runCLI(t, "--quiet", "export", "--to", "pa", "-o", out, in); err != nil {
		t.Fatal(err)
	}
	a, _, err := runCLI(t, "--quiet", "ingest", "-o", filepath.Join(dir, "a.arrow"), in)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := runCLI(t, "--quiet", "ingest", "-o", filepath.Join(dir, "b.arrow"), out)
	if err != nil || !strings.Contains(b, ": pa,") {
		t.Fatalf("%v\n%s", err, b)
	}
	primary := func(s string) string {
		i := strings.Index(s, "(primary ")
		j := strings.IndexAny(s[i+9:], ";)")
		return s[i : i+9+j]
	}
	if primary(a) != primary(b) {
		t.Errorf("primary rows: JSON %s, exported pa %s", primary(a), primary(b))
	}
	if _, _, err := runCLI(t, "export", "--to", "xml", "-o", out, in); err == nil {
		t.Error("--to xml accepted")
	}
}

func TestFlagsAfterPositionalArguments(t *testing.T) {
	in := repoFile("testdata", "jmh", "small_avgt.json")
	dir := t.TempDir()
	for i, args := range [][]string{
		{"ingest", in, "-o", filepath.Join(dir, "a.parquet"), "--quiet"},
		{"ingest", "-o", filepath.Join(dir, "b.parquet"), in, "--seed", "4"},
		{"--quiet", "ingest", in, "--output=" + filepath.Join(dir, "c.parquet")},
	} {
		stdout, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%d %v: %v", i, args, err)
		}
		if !strings.Contains(stdout, "small_avgt.json: jmh, 48 rows") {
			t.Errorf("%d: stdout %q lacks the file line", i, stdout)
		}
	}
	// "--" ends the flags: a file called like a flag is a file.
	_, _, err := runCLI(t, "ingest", "-o", filepath.Join(dir, "d.csv"), "--", "--no-such-file")
	if err == nil || !strings.Contains(err.Error(), "--no-such-file") || strings.Contains(err.Error(), "unknown flag") {
		t.Errorf("after --: err %v, want a missing-file error naming --no-such-file", err)
	}
}

// isUsageError reports whether benchtrim exits with status 2, a usage
// error, on err.
func isUsageError(err error) bool { return cliapp.ExitCode(err, io.Discard) == 2 }

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // stderr after exitCode
	}{
		{[]string{"optimise", "x"}, "benchtrim: unknown command \"optimise\"; did you mean \"optimize\"?\nsee 'benchtrim --help'\n"},
		{[]string{"optimize", "x", "--metrc", "cv"}, "benchtrim optimize: unknown flag --metrc; did you mean --metric?\nsee 'benchtrim optimize --help'\n"},
		{[]string{"help", "optimze"}, "benchtrim: unknown command \"optimze\"; did you mean \"optimize\"?\nsee 'benchtrim --help'\n"},
		{[]string{"ingest", "--bogus"}, "benchtrim ingest: unknown flag --bogus\nsee 'benchtrim ingest --help'\n"},
		{[]string{"ingest", "x", "-o", "y.csv", "--workers", "-3"}, "benchtrim: --workers -3: must be at least 0\nsee 'benchtrim --help'\n"},
		{[]string{"generate", "--benchmarks", "-1", "-o", "x.json"}, "benchtrim generate: --benchmarks -1: must be at least 1\nsee 'benchtrim generate --help'\n"},
		{[]string{"steady", "x", "--r", "-2s"}, "benchtrim steady: --r -2s: must be greater than 0\nsee 'benchtrim steady --help'\n"},
	} {
		stdout, stderr, err := runCLI(t, tc.args...)
		var buf bytes.Buffer
		code := exitCode(err, &buf)
		if code != 2 || buf.String() != tc.want || stdout != "" || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q, app stderr %q; want exit 2 and %q", tc.args, code, buf.String(), stdout, stderr, tc.want)
		}
	}
	_, _, err := runCLI(t, "ingest", "-o", filepath.Join(t.TempDir(), "x.csv"), "/no/such/file.json")
	if code := exitCode(err, io.Discard); code != 1 {
		t.Errorf("missing input: exit %d, want 1", code)
	}
}

func TestVersionAndHelpCommand(t *testing.T) {
	stdout, _, err := runCLI(t, "--version")
	if err != nil || !strings.HasPrefix(stdout, "benchtrim version ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("--version: %q, %v", stdout, err)
	}
	if cmd, _, err := runCLI(t, "version"); err != nil || cmd != stdout {
		t.Errorf("benchtrim version: %q, %v; want what --version prints, %q", cmd, err, stdout)
	}
	stdout, _, err = runCLI(t, "help", "ingest")
	if err != nil || !strings.Contains(stdout, "benchtrim ingest - read result files") {
		t.Errorf("help ingest: %q, %v", stdout, err)
	}
	// Global flags are listed once, under the program, not per command.
	stdout, _, _ = runCLI(t, "optimize", "--help")
	if strings.Contains(stdout, "--seed") {
		t.Errorf("optimize --help repeats the global flags:\n%s", stdout)
	}
}

// TestHelpWithin100Columns: the program's and every command's help fit in
// reports.Width columns.
func TestHelpWithin100Columns(t *testing.T) {
	names := []string{""}
	for _, c := range commands() {
		names = append(names, c.Name)
	}
	for _, name := range names {
		args := []string{"--help"}
		if name != "" {
			args = []string{name, "--help"}
		}
		stdout, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%s --help: %v", name, err)
		}
		for _, l := range strings.Split(stdout, "\n") {
			if n := len([]rune(l)); n > 100 {
				t.Errorf("%s --help: a line of %d columns: %q", name, n, l)
			}
		}
	}
}

// TestHelpTexts: every command with a help/NAME.txt file shows it, and the
// long-description commands have one.
func TestHelpTexts(t *testing.T) {
	for _, name := range []string{"benchtrim", "ingest", "export", "optimize", "compare", "reconfigure", "steady", "changepoint", "duet", "generate", "trim", "report", "merge", "demo"} {
		if help(name) == "" {
			t.Errorf("no help/%s.txt", name)
		}
	}
	if help("nosuchcommand") != "" {
		t.Error("help of a command without a file is not empty")
	}
	out, _, err := runCLI(t, "compare", "--help")
	if err != nil || !strings.Contains(out, "Three ways to name the two result sets") {
		t.Errorf("compare --help: %v\n%s", err, out)
	}
}

// TestIngestStreamFailureLeavesNothing: rows of a good first file are
// already in the temporary output (ingest streams) when the second file
// fails; the output, its sidecar and the Arrow scratch file must not remain.
func TestIngestStreamFailureLeavesNothing(t *testing.T) {
	for _, ext := range []string{".arrow", ".parquet", ".csv"} {
		dir := t.TempDir()
		bad := filepath.Join(dir, "broken.json")
		good, _ := os.ReadFile(repoFile("testdata", "jmh", "small_sample.json"))
		os.WriteFile(bad, good[:len(good)/2], 0o644)
		out := filepath.Join(dir, "out"+ext)
		_, _, err := runCLI(t, "--quiet", "ingest", "-o", out, repoFile("testdata", "jmh", "small_sample.json"), bad)
		if err == nil || !strings.HasPrefix(err.Error(), bad+":") {
			t.Errorf("%s: err = %v, want one starting with %s:", ext, err, bad)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("%s: directory holds %v, want only broken.json", ext, names)
		}
	}
}
