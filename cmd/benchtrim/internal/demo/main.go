// Package demo is `benchtrim demo`: it generates a realistic synthetic
// suite with known truth (synth), ingests it, and runs every
// analyzer's step on it through the real command line, printing each
// command as "$ benchtrim ARGS" before its output, then a one-line summary
// per step. The steps are listed in Steps.
package demo

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/cliapp"
	"github.com/benchtrim/benchtrim/synth"
)

// Config is what Main needs from the command line.
type Config struct {
	Stdout, Stderr io.Writer
	// Exec runs a benchtrim command line (args[0] is the program name).
	Exec func(args []string, stdout, stderr io.Writer) error
	// Globals are the global flags the demo passes on to every command
	// (--seed, --workers, --quiet).
	Globals cliapp.Globals
	// Dir holds the generated data and every output; "" makes a new
	// temporary directory, which is kept.
	Dir string
	// Only, when set, runs only the steps whose names contain it.
	Only string
}

// Main generates the demo data into cfg.Dir, ingests it into one table and
// runs the steps, then prints the summary.
func Main(cfg Config) error {
	dir, err := demoDir(cfg.Dir)
	if err != nil {
		return err
	}
	w := cfg.Stdout
	fmt.Fprintf(w, "benchtrim demo: generating synthetic results (seed %d) in %s\n", cfg.Globals.Seed, dir)
	files, err := synth.WriteDemoData(dir, cfg.Globals.Seed)
	if err != nil {
		return err
	}
	sort.Strings(files)
	d := &session{w: w, errw: cfg.Stderr, g: cfg.Globals, Exec: cfg.Exec, Dir: dir, TablePath: filepath.Join(dir, "demo.arrow")}
	for _, f := range files {
		if filepath.Base(f) != synth.DemoTruth {
			d.Files = append(d.Files, f)
		}
	}
	if err := d.run(append([]string{"ingest", "-o", d.TablePath}, d.Files...)...); err != nil {
		return fmt.Errorf("demo ingest: %w", err)
	}
	var recap []string
	for _, s := range steps() {
		if cfg.Only != "" && !strings.Contains(s.Name, cfg.Only) {
			continue
		}
		fmt.Fprintf(w, "\n== %s ==\n", s.Name)
		d.Headline = ""
		if err := s.Run(d); err != nil {
			return fmt.Errorf("demo step %s: %w", s.Name, err)
		}
		name, _, _ := strings.Cut(s.Name, " ")
		recap = append(recap, fmt.Sprintf("  %-12s %s", name, strings.TrimSuffix(d.Headline, ";")))
	}
	fmt.Fprintln(w, "\n== summary ==")
	for _, r := range recap {
		fmt.Fprintln(w, r)
	}
	fmt.Fprintf(w, "\ndemo done; inputs and outputs are in %s\n", dir)
	return nil
}

// demoDir makes dir (or a new temporary directory when dir is "") and
// returns its absolute path.
func demoDir(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "benchtrim-demo-"); err != nil {
			return "", err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Abs(dir)
}
