package cliapp

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/changepoint"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/partial"
	"github.com/benchtrim/benchtrim/cmd/benchtrim/internal/progress"
	"github.com/benchtrim/benchtrim/format/all"
	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/linecap"
	"github.com/benchtrim/benchtrim/table"
	"github.com/urfave/cli/v2"
)

// formatNames is the --format names of format/all's registry, in the
// order detection tries them, comma-separated.
func formatNames() string {
	var names []string
	for _, f := range all.Formats() {
		names = append(names, f.Name())
	}
	return strings.Join(names, ", ")
}

// InputFlags are the flags of every command that reads result files.
func InputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "force the input format (" + formatNames() + "); default: detect per file"},
		&cli.StringFlag{Name: "project", Usage: "project label of every row (default: from file names PROJECT-VERSION.ext; files of one suite: their common name prefix)"},
		&cli.StringFlag{Name: "version", Usage: "version label of every row (default: from file names; NAME=FILE arguments name it; files of one format holding the same benchmarks are versions named by their base names)"},
		&cli.StringFlag{Name: "runs-as", Value: ingest.RunsPooled, Usage: "what files holding the same run (project, version, benchmark) are: pooled (their rows pool by instance, trial and fork numbers, with a warning) or instances (each file's instances follow the earlier files', as daily runs of one release)"},
	}
}

// readOptions are the ingest options of the input flags for reading
// each list of files, with a progress bar of the files read per list,
// ended once its last file is read (the next list's started then) or by
// done; or, before anything is read, the error of a list without files,
// a usage error for a --runs-as value ingest does not know or for
// standard input named twice in a list.
func readOptions(c *cli.Context, lists ...[]string) (opts []ingest.ReadOptions, done func(), err error) {
	if len(lists) == 0 {
		return nil, nil, fmt.Errorf("no input files")
	}
	g := GlobalsOf(c)
	bars := make([]*progress.Bar, len(lists))
	done = func() {
		for i, b := range bars {
			if b != nil {
				b.Done()
				bars[i] = nil
			}
		}
	}
	for i, paths := range lists {
		if len(paths) == 0 {
			return nil, nil, fmt.Errorf("no input files")
		}
		opt := ingest.ReadOptions{Formats: all.Formats(), Format: c.String("format"), Project: c.String("project"), Version: c.String("version"),
			RunsAs: c.String("runs-as"), Stdin: stdinOf(c)}
		if opt.RunsAs != "" && opt.RunsAs != ingest.RunsPooled && opt.RunsAs != ingest.RunsInstances {
			return nil, nil, Usagef(commandName(c), "--runs-as %q: want %s or %s", opt.RunsAs, ingest.RunsPooled, ingest.RunsInstances)
		}
		if n := countStdin([][]string{paths}); n > 1 {
			return nil, nil, Usagef(commandName(c), "standard input (-) given %d times: it can be read once", n)
		}
		read := 0
		opt.OnFile = func(string, int64) {
			bars[i].Add(1)
			if read++; read == len(paths) {
				bars[i].Done()
				bars[i] = nil
				if i+1 < len(lists) {
					bars[i+1] = progress.New(c.App.ErrWriter, g.Quiet, "reading", len(lists[i+1]))
				}
			}
		}
		opts = append(opts, opt)
	}
	bars[0] = progress.New(c.App.ErrWriter, g.Quiet, "reading", len(lists[0]))
	return opts, done, nil
}

// BenchFlag is the --bench filter of the analyzer commands.
func BenchFlag() cli.Flag {
	return &cli.StringFlag{Name: "bench", Usage: "only benchmarks whose name matches this regular expression"}
}

// shardFlag is the --shard K/N of the analyzer commands.
func shardFlag() cli.Flag {
	return &cli.StringFlag{Name: "shard", Usage: "analyse only shard `K/N` (K = 0 … N−1) of the benchmarks, split by a hash of each benchmark's project, name, params and mode (a job array's index; --partial-out and benchtrim merge combine the shards)"}
}

// parseShard parses "K/N" with 0 ≤ K < N ≤ partial.MaxShards.
func parseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(strings.TrimSpace(ks))
		if err == nil {
			n, err = strconv.Atoi(strings.TrimSpace(ns))
		}
	}
	if !ok || err != nil || n < 1 || k < 0 || k >= n || n > partial.MaxShards {
		return 0, 0, fmt.Errorf("--shard %q: want K/N with 0 ≤ K < N ≤ %d, e.g. 0/4", s, partial.MaxShards)
	}
	return k, n, nil
}

// benchFilter is the table filter of --bench and --shard.
func benchFilter(c *cli.Context) (table.Filter, error) {
	var f table.Filter
	if s := c.String("shard"); s != "" {
		k, n, err := parseShard(s)
		if err != nil {
			return f, Usagef(commandName(c), "%v", err)
		}
		f.Shard, f.Shards = k, n
	}
	if b := c.String("bench"); b != "" {
		re, err := regexp.Compile(b)
		if err != nil {
			return f, fmt.Errorf("--bench: %w", err)
		}
		f.Benchmark = re
	}
	return f, nil
}

// benchError names --bench in table.Table.Select's error for a filter that
// matches nothing.
func benchError(c *cli.Context, err error) error {
	if b := c.String("bench"); err != nil && b != "" && strings.HasPrefix(err.Error(), strconv.Quote(b)+" matches none") {
		return fmt.Errorf("--bench %w", err)
	}
	return err
}

// stdinDigest hashes what a command reads from standard input, for the
// fingerprint of its partial file (writePartial): the bytes cannot be
// read twice.
type stdinDigest struct {
	h hash.Hash
	n int64
}

func (d *stdinDigest) Write(p []byte) (int, error) {
	d.h.Write(p)
	d.n += int64(len(p))
	return len(p), nil
}

const stdinKey = "benchtrim/stdin-digest"

// stdinOf is the standard input of the command, hashed as it is read
// into the digest stdinInput returns.
func stdinOf(c *cli.Context) io.Reader {
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	d, ok := c.App.Metadata[stdinKey].(*stdinDigest)
	if !ok {
		d = &stdinDigest{h: sha256.New()}
		c.App.Metadata[stdinKey] = d
	}
	return io.TeeReader(os.Stdin, d)
}

// stdinInput is the fingerprint of what the command read from standard
// input.
func stdinInput(c *cli.Context) partial.Input {
	in := partial.Input{Name: "-"}
	if d, ok := c.App.Metadata[stdinKey].(*stdinDigest); ok {
		in.Size = d.n
		d.h.Sum(in.SHA256[:0])
	} else {
		sha256.New().Sum(in.SHA256[:0])
	}
	return in
}

// ExpandGlobs replaces arguments holding glob metacharacters by the files
// they match; a pattern matching nothing is an error.
func ExpandGlobs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("pattern %q matches no file", a)
		}
		out = append(out, m...)
	}
	return out, nil
}

// ReadSeries reads the series of benchtrim changepoint from name ("-" is
// standard input) with changepoint.ReadSeries: one value per line, or CSV
// column `column`; what it skipped is said on stderr unless --quiet.
func ReadSeries(c *cli.Context, name, column string) ([]float64, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	// Lines and CSV records bounded (linecap), as every reader's.
	x, note, err := changepoint.ReadSeries(name, linecap.NewCSVReader(r), column)
	if err == nil && note != "" && !GlobalsOf(c).Quiet {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", name, note)
	}
	return x, err
}

// Selected is what every analyzer's options take from the command line:
// the benchmark runs --bench and --shard select (benchFilter) and the
// global --seed and --workers (GlobalsOf).
func Selected(c *cli.Context) (sel table.Filter, seed uint64, workers int, err error) {
	g := GlobalsOf(c)
	sel, err = benchFilter(c)
	return sel, g.Seed, g.Workers, err
}
