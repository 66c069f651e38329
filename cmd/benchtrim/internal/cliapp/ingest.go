package cliapp

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// errNoRows is ingest's "no result": the inputs hold no benchmark row, so
// no table is written (exit status 1).
var errNoRows = errors.New("no benchmark result in the input; no table written")

// IngestTable is benchtrim ingest's body: it streams the rows of paths
// into the table file out as they are read (tablefile.Stream, so memory does
// not grow with the input), printing a line per input file and the input
// summary (ingest.WriteStats), then "wrote OUT".
func IngestTable(c *cli.Context, paths []string, out string, opt tablefile.WriteOptions) error {
	w := c.App.Writer
	ropt, done, err := readOptions(c, paths)
	if err != nil {
		return err
	}
	err = ingest.StreamFile(out, opt, paths, ropt[0], func(st *ingest.Streamed) error {
		done()
		for _, f := range st.Files {
			fmt.Fprintf(w, "%s: %s, %d rows\n", f.Path, f.Format, f.Rows)
		}
		ingest.WriteStats(w, st.Stats, st.Report)
		if st.Stats.Rows == 0 {
			return errNoRows
		}
		return nil
	})
	done()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", out)
	return nil
}

// SaySkipped prints benchtrim export's line about the benchmark runs
// --to gobench left out (without Go benchmark names): their number and the
// first three benchmarks; nothing when there are none.
func SaySkipped(w io.Writer, skipped []table.Key) {
	if len(skipped) == 0 {
		return
	}
	var names []string
	seen := map[string]bool{}
	for _, k := range skipped {
		if !seen[k.Benchmark] {
			seen[k.Benchmark] = true
			names = append(names, k.Benchmark)
		}
	}
	more := ""
	if len(names) > 3 {
		names, more = names[:3], fmt.Sprintf(", … %d more", len(names)-3)
	}
	fmt.Fprintf(w, "%d benchmark runs without Go benchmark names not written (%s%s)\n", len(skipped), strings.Join(names, ", "), more)
}
