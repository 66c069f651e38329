// Package table defines benchtrim's one canonical measurement table.
//
// Every reader (format/...) writes rows of this table and every analyzer
// (analysis/...) reads them; nothing downstream re-parses result files.
//
// The table is long: one row per recorded value. A row is one iteration value
// (JMH avgt/thrpt/ss rawData, one `go test -bench` line), one histogram bucket
// of a sample-mode iteration (count = the bucket's sample count), or one
// one-second slice of a µOpTime Go iteration. Repetition levels are, outermost
// first, instance > trial (suite run) > fork > iteration > slice; all are
// 1-based and 1 where the source has no such level. Every table obeys the
// rules listed in check.go (1-based levels, known modes, counts ≥ 0,
// strings of at most MaxStringBytes, level indices within maxLevelIndex of
// the run's row count): Builder.Append and Checker enforce them (package
// tablefile checks a table file's bytes with them).
//
// Alongside the rows, a Setup record per (project, version, benchmark, params,
// mode) keeps the configuration the source states: forks, warmup and
// measurement iterations and times, tool version and configured level sizes.
//
// In memory the table is a slice of Arrow records with Schema, built in
// fixed-size batches (see Builder); Columns reads a record's rows. Its
// files (Arrow IPC, Parquet, CSV) are package tablefile's.
//
// Secondary metrics (JMH secondaryMetrics such as gc.alloc.rate, Go B/op,
// allocs/op, MB/s and custom metrics) are kept as extra rows whose Metric
// column names them; primary measurements have Metric == Primary. Analyzers
// that want times select Metric == Primary (Collect does this by default).
package table
