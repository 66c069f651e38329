package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/synth"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// session is what a demo step gets: the generated files and the table.
type session struct {
	w, errw io.Writer
	g       cliapp.Globals
	// Exec runs a benchtrim command line (args[0] is the program name).
	Exec func(args []string, stdout, stderr io.Writer) error
	// Dir holds the generated inputs and the outputs of every step.
	Dir string
	// Files are the generated result files.
	Files []string
	// TablePath is the canonical table of all Files (Arrow IPC).
	TablePath string
	// Headline is the first output line of the step's first command (a
	// step may set it itself); the demo's closing summary lists them.
	Headline string
}

// file returns the generated file whose base name contains part.
func (d *session) file(part string) (string, error) {
	for _, f := range d.Files {
		if strings.Contains(filepath.Base(f), part) {
			return f, nil
		}
	}
	return "", fmt.Errorf("demo: no generated file matching %q in %v", part, d.Files)
}

// filesMatching returns the generated files whose base names contain part.
func (d *session) filesMatching(part string) []string {
	var out []string
	for _, f := range d.Files {
		if strings.Contains(filepath.Base(f), part) {
			out = append(out, f)
		}
	}
	return out
}

// out is a path for a step's output inside Dir.
func (d *session) out(name string) string { return filepath.Join(d.Dir, name) }

// run prints "$ benchtrim ARGS" and runs that command line, so the demo
// shows real invocations a user can copy.
func (d *session) run(args ...string) error {
	shown := make([]string, len(args))
	for i, a := range args {
		if rel, err := filepath.Rel(d.Dir, a); err == nil && !strings.HasPrefix(rel, "..") && filepath.IsAbs(a) {
			a = filepath.Join("$DEMO", rel)
		}
		if strings.ContainsAny(a, " '\"$*?^") && !strings.HasPrefix(a, "$DEMO") {
			a = strconv.Quote(a)
		}
		shown[i] = a
	}
	fmt.Fprintf(d.w, "\n$ benchtrim %s\n", strings.Join(shown, " "))
	full := append([]string{"benchtrim", "--seed", strconv.FormatUint(d.g.Seed, 10), "--workers", strconv.Itoa(d.g.Workers)}, args...)
	if d.g.Quiet {
		full = append(full[:1], append([]string{"--quiet"}, full[1:]...)...)
	}
	if d.Headline != "" {
		return d.Exec(full, d.w, d.errw)
	}
	fl := &firstLine{w: d.w}
	err := d.Exec(full, fl, d.errw)
	d.Headline = strings.TrimSpace(fl.line.String())
	return err
}

// firstLine passes writes on to w and keeps the first non-empty line.
type firstLine struct {
	w    io.Writer
	line strings.Builder
	done bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	for _, b := range p {
		if f.done {
			break
		}
		if b == '\n' {
			f.done = f.line.Len() > 0
			continue
		}
		f.line.WriteByte(b)
	}
	return f.w.Write(p)
}

// step is one analyzer's part of the demo.
type step struct {
	Name string
	Run  func(d *session) error
}

// steps are the analyzers' parts of `benchtrim demo`, in the order they
// run after the data was generated and ingested.
func steps() []step {
	return []step{
		{"optimize (µOpTime)", stepOptimize},
		{"compare (A/B and A/A)", stepCompare},
		{"reconfigure (dynamic reconfiguration)", stepReconfigure},
		{"changepoint (PELT, CROPS, Kneedle)", stepChangepoint},
		{"steady (steady state)", stepSteady},
		{"duet (duet benchmarking)", stepDuet},
		{"trim (steady-state warmup + µOpTime, HTML report)", stepTrim},
	}
}

// stepDuet generates duet benchmarking data with known truth (two A/A and
// two A/B benchmarks with B 5 % slower, seqn, syncduet and duet runs with
// shared interference), analyses it with the duet method, and compares the
// pairs with compare's hierarchical bootstrap.
func stepDuet(d *session) error {
	in := d.out("duet.csv")
	if err := d.run("generate", "--preset", "duet", "-o", in); err != nil {
		return err
	}
	d.Headline = ""
	err := d.run("duet", "-o", d.out("duet-benchmarks.csv"), "--mds-out", d.out("duet-mds.csv"),
		"--plots", d.out("duet-plots"), "--plot-format", "png", in)
	if err != nil {
		return err
	}
	headline := d.Headline
	if err := d.run("compare", "--statistic", "mean", "--base-pair", "A", "--test-pair", "B", "--discard-warmup", "12", "--resamples", "2000", in); err != nil {
		return err
	}
	d.Headline = headline
	return nil
}

// stepOptimize runs µOpTime on the demo's three µOpTime Go versions (all
// metrics, change detection across versions, reduced commands) and on the
// JMH avgt file recorded with -wi 0 (discarding the first 50 iterations).
func stepOptimize(d *session) error {
	files := d.filesMatching("uoptime-")
	if len(files) == 0 {
		return fmt.Errorf("demo: no µOpTime files")
	}
	args := []string{"optimize", "--metric", "all",
		"-o", d.out("optimize.csv"), "--summary-out", d.out("optimize-summary.csv"),
		"--versions-out", d.out("optimize-versions.csv"), "--commands-out", d.out("optimize-go.sh")}
	if err := d.run(append(args, files...)...); err != nil {
		return err
	}
	jmh, err := d.file("jmh-avgt")
	if err != nil {
		return err
	}
	return d.run("optimize", "--metric", "rmad,rciw-mean", "--discard-warmup", "50",
		"--commands-out", d.out("optimize-jmh.sh"), jmh)
}

// stepCompare compares consecutive µOpTime versions of the demo (whose
// known changes it prints from truth.json first), the same pair chosen by
// version labels from one table, and runs A/A tests on the JMH avgt file
// (by fork, warmup discarded) and on one µOpTime version (by trial).
func stepCompare(d *session) error {
	truthPath := d.out(synth.DemoTruth)
	raw, err := os.ReadFile(truthPath)
	if err != nil {
		return err
	}
	var truth synth.DemoTruthFile
	if err := json.Unmarshal(raw, &truth); err != nil {
		return fmt.Errorf("%s: %w", truthPath, err)
	}
	if len(truth.UOpTimeVersions) < 3 {
		return fmt.Errorf("demo: %s lists %d µOpTime versions, want 3", truthPath, len(truth.UOpTimeVersions))
	}
	fmt.Fprintln(d.w, "known changes in the generated µOpTime versions (truth.json):")
	for _, ch := range truth.UOpTimeChanges {
		fmt.Fprintf(d.w, "  %s: %s → %s, ratio %.2f\n", ch.GoName, ch.From, ch.To, ch.Ratio)
	}
	var files []string
	for _, v := range truth.UOpTimeVersions {
		f, err := d.file(synth.DemoUOpTimeFile(v))
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	v := truth.UOpTimeVersions
	if err := d.run("compare", "-o", d.out("compare-"+v[0]+"-"+v[1]+".csv"), files[0], files[1]); err != nil {
		return err
	}
	if err := d.run(append([]string{"compare", "--base-version", v[1], "--test-version", v[2]}, files...)...); err != nil {
		return err
	}
	jmh, err := d.file(synth.DemoJMHAvgt)
	if err != nil {
		return err
	}
	if err := d.run("compare", "--aa", "--split", "fork", "--discard-warmup", "30", jmh); err != nil {
		return err
	}
	return d.run("compare", "--aa", "--split", "trial", "--aa-repeats", "5", "-o", d.out("compare-aa-"+v[0]+".csv"), files[0])
}

// stepReconfigure replays the demo's avgt suite (4 forks × 150 iterations).
func stepReconfigure(d *session) error {
	in, err := d.file("avgt")
	if err != nil {
		return err
	}
	return d.run("reconfigure", "--aa-resamples", "2000",
		"-o", d.out("reconfigure-benchmarks.csv"), "--configs-out", d.out("dynamic.csv"),
		"--table2", d.out("reconfigure-table2.md"), "--table3", d.out("reconfigure-table3.md"), in)
}

// stepSteady runs the steady-state analysis on the generated JMH avgt file
// (4 forks × 150 iterations of 1 s recorded with -wi 0), with a steady
// window of 30 iterations (a fifth of the fork, as 500 of Traini's 3,000),
// evaluating a developer-like configuration and, when the reconfigure step
// ran before, the dynamic configurations it wrote.
func stepSteady(d *session) error {
	in, err := d.file("avgt")
	if err != nil {
		return err
	}
	args := []string{"steady", "--steady-window", "30",
		"--wi", "5", "--w", "1s", "--i", "10", "--r", "1s", "--f", "3",
		"--forks-out", d.out("steady-forks.csv"), "--benchmarks-out", d.out("steady-benchmarks.csv"),
		"--eval-out", d.out("steady-eval.csv"), "--plots", d.out("steady-plots"), "--plot-format", "png"}
	if dyn := d.out("dynamic.csv"); fileExists(dyn) {
		args = append(args, "--configs", dyn)
	}
	return d.run(append(args, in)...)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// stepChangepoint writes the iteration series of the demo's most strongly
// warming-up JMH fork to a file and segments it with Barrett's penalty and
// with CROPS + Kneedle.
func stepChangepoint(d *session) error {
	t, err := tablefile.ReadFile(d.TablePath, nil)
	if err != nil {
		return err
	}
	defer t.Release()
	var best []float64
	var bestName string
	bestRatio := 0.0
	for _, s := range t.Collect(table.Filter{}) {
		if s.Mode != "avgt" {
			continue
		}
		var fork []float64
		for _, sp := range s.Units(table.LevelIteration) {
			if s.Levels[table.LevelFork][sp.Start] == 1 {
				fork = append(fork, s.WeightedMean(sp))
			}
		}
		if len(fork) < 20 {
			continue
		}
		if r := fork[0] / fork[len(fork)-1]; r > bestRatio {
			best, bestRatio, bestName = fork, r, s.Key.String()
		}
	}
	if best == nil {
		return fmt.Errorf("no avgt series with 20 iterations in the demo table")
	}
	path := d.out("changepoint-series.txt")
	if err := atomicfile.Write(path, func(w io.Writer) error {
		for _, v := range best {
			if _, err := io.WriteString(w, strconv.FormatFloat(v, 'g', -1, 64)+"\n"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "series: fork 1 of %s, %d iterations (ns/op), first/last = %.2f\n", bestName, len(best), bestRatio)
	if err := d.run("changepoint", "--penalty", "15log", path); err != nil {
		return err
	}
	fmt.Fprintln(d.w, "\nCROPS + Kneedle as Traini et al.'s scripts apply it often picks a large penalty (the elbow of a skewed")
	fmt.Fprintln(d.w, "curve), so fewer change points; the textbook ascending protocol picks a smaller one:")
	if err := d.run("changepoint", "--penalty", "crops", path); err != nil {
		return err
	}
	if err := d.run("changepoint", "--penalty", "crops-ascending", path); err != nil {
		return err
	}
	d.Headline = fmt.Sprintf("one warming-up fork of %d iterations segmented by 15·log n, CROPS + Kneedle (Traini) and ascending", len(best))
	return nil
}

// stepTrim runs trim last: on the JMH avgt file (steady window 100, so its
// 150-iteration forks take the steady-state path), the go test -bench file
// and the duet step's duet.csv (generated here when the duet step did not
// run), writing the plan, frames and report into $DEMO/trim, and prints
// the report's path and the one-line answer.
func stepTrim(d *session) error {
	jmh, err := d.file("jmh-avgt")
	if err != nil {
		return err
	}
	gob, err := d.file("gobench")
	if err != nil {
		return err
	}
	duet := d.out("duet.csv")
	if _, err := os.Stat(duet); errors.Is(err, fs.ErrNotExist) {
		if err := d.run("generate", "--preset", "duet", "-o", duet); err != nil {
			return err
		}
		d.Headline = ""
	} else if err != nil {
		return err
	}
	dir := d.out("trim")
	if err := d.run("trim", "--steady-window", "100", "--resamples", "2000", "--out-dir", dir, jmh, gob, duet); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "\nreport: %s\nanswer: %s\n", filepath.Join(dir, "report.html"), strings.TrimSuffix(d.Headline, ";"))
	return nil
}
