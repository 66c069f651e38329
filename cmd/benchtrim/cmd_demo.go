package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/synth"
	"github.com/benchtrim/benchtrim/table"
)

// demoRun is what a demo step gets: the generated files and the table.
type demoRun struct {
	w, errw io.Writer
	g       globals
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

// File returns the generated file whose base name contains part.
func (d *demoRun) File(part string) (string, error) {
	for _, f := range d.Files {
		if strings.Contains(filepath.Base(f), part) {
			return f, nil
		}
	}
	return "", fmt.Errorf("demo: no generated file matching %q in %v", part, d.Files)
}

// FilesMatching returns the generated files whose base names contain part.
func (d *demoRun) FilesMatching(part string) []string {
	var out []string
	for _, f := range d.Files {
		if strings.Contains(filepath.Base(f), part) {
			out = append(out, f)
		}
	}
	return out
}

// Out is a path for a step's output inside Dir.
func (d *demoRun) Out(name string) string { return filepath.Join(d.Dir, name) }

// Run prints "$ benchtrim ARGS" and runs that command line, so the demo
// shows real invocations a user can copy.
func (d *demoRun) Run(args ...string) error {
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
		return run(full, d.w, d.errw)
	}
	fl := &firstLine{w: d.w}
	err := run(full, fl, d.errw)
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

type demoStep struct {
	name string
	run  func(d *demoRun) error
}

// demoSteps are the analyzers' parts of `benchtrim demo`, in the order they
// run after the data was generated and ingested.
func demoSteps() []demoStep {
	return []demoStep{
		{"optimize (µOpTime)", demoOptimize},
		{"compare (A/B and A/A)", demoCompare},
		{"reconfigure (dynamic reconfiguration)", demoReconfigure},
		{"changepoint (PELT, CROPS, Kneedle)", demoChangepoint},
		{"steady (steady state)", demoSteady},
		{"trim (steady-state warmup + µOpTime, HTML report)", demoTrim},
	}
}

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "generate a realistic synthetic suite and run every analyzer on it",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "directory for generated data and outputs (default: a new temporary directory, kept)"},
			&cli.StringFlag{Name: "only", Usage: "run only the steps whose names contain this (e.g. optimize)"},
		},
		Action: func(c *cli.Context) error {
			g := globalsOf(c)
			dir := c.String("dir")
			if dir == "" {
				var err error
				if dir, err = os.MkdirTemp("", "benchtrim-demo-"); err != nil {
					return err
				}
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			dir, _ = filepath.Abs(dir)
			w := c.App.Writer
			fmt.Fprintf(w, "benchtrim demo: generating synthetic results (seed %d) in %s\n", g.Seed, dir)
			files, err := synth.WriteDemoData(dir, g.Seed)
			if err != nil {
				return err
			}
			sort.Strings(files)
			d := &demoRun{w: w, errw: c.App.ErrWriter, g: g, Dir: dir, Files: files, TablePath: filepath.Join(dir, "demo.arrow")}
			var results []string
			for _, f := range files {
				if filepath.Base(f) != synth.DemoTruth {
					results = append(results, f)
				}
			}
			d.Files = results
			args := append([]string{"ingest", "-o", d.TablePath}, results...)
			if err := d.Run(args...); err != nil {
				return fmt.Errorf("demo ingest: %w", err)
			}
			if _, err := table.FormatOf(d.TablePath); err != nil {
				return err
			}
			var recap []string
			for _, s := range demoSteps() {
				if only := c.String("only"); only != "" && !strings.Contains(s.name, only) {
					continue
				}
				fmt.Fprintf(w, "\n== %s ==\n", s.name)
				d.Headline = ""
				if err := s.run(d); err != nil {
					return fmt.Errorf("demo step %s: %w", s.name, err)
				}
				name, _, _ := strings.Cut(s.name, " ")
				recap = append(recap, fmt.Sprintf("  %-12s %s", name, strings.TrimSuffix(d.Headline, ";")))
			}
			fmt.Fprintln(w, "\n== summary ==")
			for _, r := range recap {
				fmt.Fprintln(w, r)
			}
			fmt.Fprintf(w, "\ndemo done; inputs and outputs are in %s\n", dir)
			return nil
		},
	}
}
