package ingest

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// checkTableSetups checks that every benchmark run of the canonical table
// file path (the runs stats counted) has its setup among setups: the
// configuration a result file states (forks, iterations, warmup, the time
// per iteration, threads, batch size), which benchtrim keeps beside the
// rows (a CSV table's sidecar NAME.setups.csv; the benchtrim.setups
// key-value metadata of a Parquet file; the schema metadata of an Arrow
// file) and which the analyzers need: without it they would assume
// defaults (Go's 1 s -benchtime per iteration, one thread) and give times
// off by orders of magnitude. Every reader writes a setup for each run, so
// a run without one means the context was lost (a sidecar not copied, a
// file rewritten by a tool that drops metadata), and is an error naming
// the file, what is missing and how to get it back.
func checkTableSetups(path string, stats *table.Stats, setups []table.Setup) error {
	if stats.NumRuns() == 0 {
		return nil
	}
	has := func(k table.Key) bool {
		i := sort.Search(len(setups), func(i int) bool { return !setups[i].Key.Less(k) })
		return i < len(setups) && setups[i].Key == k
	}
	if !sort.SliceIsSorted(setups, func(i, j int) bool { return setups[i].Key.Less(setups[j].Key) }) {
		keys := make(map[table.Key]bool, len(setups))
		for _, s := range setups {
			keys[s.Key] = true
		}
		has = func(k table.Key) bool { return keys[k] }
	}
	missing := 0
	var first table.Key
	stats.Each(func(k table.Key, _ *table.RunStats) {
		if !has(k) {
			if missing == 0 {
				first = k
			}
			missing++
		}
	})
	if missing == 0 {
		return nil
	}
	where := "its key-value metadata benchtrim.setups (a tool that rewrote the file drops it)"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		where = "its sidecar " + tablefile.SetupsSidecar(path)
		if len(setups) == 0 {
			where += ", which is missing"
		}
	case ".arrow", ".ipc", ".feather":
		where = "its schema metadata benchtrim.setups (a tool that rewrote the file drops it)"
	}
	what := fmt.Sprintf("%d of %d benchmark runs have no setup (the first: %s)", missing, stats.NumRuns(), first)
	if missing == stats.NumRuns() {
		what = fmt.Sprintf("none of its %d benchmark runs has a setup", missing)
	}
	return &ParseError{File: path, Msg: what + "; the forks, iterations, warmup and time per iteration of each run are in " +
		where + "; without them every time would be assumed: keep the file benchtrim wrote, or ingest the result files again"}
}
