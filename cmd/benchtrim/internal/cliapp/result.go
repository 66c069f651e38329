package cliapp

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/internal/atomicfile"
	"github.com/benchtrim/benchtrim/reports"
)

// Result is what an analyzer's Run returns: its answer for the terminal and
// its data tables for WriteResult.
type Result interface {
	WriteText(w io.Writer) error
	Frame(name string) (*reports.Frame, error)
}

// documenter is a Result that also renders tables for documents
// (Markdown, LaTeX, HTML), written when an output flag names such a file.
type documenter interface {
	Table(name string) (*reports.Table, error)
}

// unanswered is a Result that can hold no answer (compare with no
// benchmark compared): Unanswered's error ends the command after its
// text, with exit status 1 and no data written.
type unanswered interface {
	Unanswered() error
}

// DataOut names the data table (frame) that a command's output flag
// writes; path, when set, derives the file from the flag's value (a
// sidecar written beside it). Doc says the flag also takes a document
// (.md, .tex, .html: outpath.Report), which a Documenter result renders.
type DataOut struct {
	Flag, Frame string
	Path        func(string) string
	Doc         bool
}

// textOut names a text file a command's output flag writes with write.
type textOut struct {
	flag  string
	write func(w io.Writer) error
}

// WriteResult prints res's text and, when details is set, its details;
// then writes every data table whose flag is set, as one set
// (beginOutputs): each is staged beside its destination and all are
// renamed into place only once every one was written, then it says what
// it wrote.
func WriteResult(c *cli.Context, res Result, details func(io.Writer) error, data []DataOut) error {
	return writeResult(c, res, details, data, nil)
}

// writeResult is WriteResult with text files too. A command that adds
// outputs of its own opens the set first and commits it after
// writeResult.
func writeResult(c *cli.Context, res Result, details func(io.Writer) error, data []DataOut, text []textOut) (err error) {
	w := c.App.Writer
	if err := res.WriteText(w); err != nil {
		return err
	}
	if details != nil && c.Bool("details") {
		fmt.Fprintln(w)
		if err := details(w); err != nil {
			return err
		}
	}
	if u, ok := res.(unanswered); ok {
		if err := u.Unanswered(); err != nil {
			return err // printed, but nothing to write
		}
	}
	outs, owner := beginOutputs(c)
	defer func() {
		if err != nil {
			outs.abort()
		}
	}()
	first := true
	wrote := func(path string) {
		if first {
			outs.say("")
			first = false
		}
		outs.say("wrote %s", path)
	}
	for _, d := range data {
		path := c.String(d.Flag)
		if path == "" {
			continue
		}
		if d.Path != nil {
			path = d.Path(path)
		}
		ext := filepath.Ext(path)
		if ext == "" && atomicfile.Stream(path) != 0 {
			ext = ".csv" // -o -: a table on standard output is CSV
		}
		tmp, err := outs.set.PathExt(path, ext)
		if err == nil {
			err = writeTable(res, d.Frame, tmp)
		}
		if err != nil {
			return fmt.Errorf("--%s %s: %w", d.Flag, path, err)
		}
		wrote(path)
	}
	for _, t := range text {
		path := c.String(t.flag)
		if path == "" {
			continue
		}
		if err := outs.set.Write(path, t.write); err != nil {
			return err
		}
		wrote(path)
	}
	if owner {
		return outs.Commit()
	}
	return nil
}

// writeTable writes res's table name to path: as data when path ends in
// .csv, .arrow or .parquet, else as a document when res renders documents.
func writeTable(res Result, name, path string) error {
	if doc, ok := res.(documenter); ok && reports.CheckFramePath(path) != nil {
		t, err := doc.Table(name)
		if err != nil {
			return err
		}
		return t.WriteFile(path)
	}
	f, err := res.Frame(name)
	if err != nil {
		return err
	}
	return f.WriteFile(path)
}
