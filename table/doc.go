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
// the run's row count): Builder.Append, ReadFile and readCSVGuarded enforce them,
// and the bytes of a table file are untrusted until they pass.
//
// Alongside the rows, a Setup record per (project, version, benchmark, params,
// mode) keeps the configuration the source states: forks, warmup and
// measurement iterations and times, tool version and configured level sizes.
//
// In memory the table is a slice of Arrow records with the schema below, built
// in fixed-size batches by one reused array.RecordBuilder (see Builder). On
// disk it is Arrow IPC (.arrow), Parquet (.parquet) or CSV (.csv), written
// record by record by Stream (WriteFile for a table in memory); setups
// travel under metadataSetups (a JSON array) in the schema metadata for
// Arrow, in the footer's key-value metadata for Parquet (files written
// before Stream have them in the stored Arrow schema, which ReadFile reads
// too), and in a sidecar file NAME.setups.csv next to a CSV table.
//
// Secondary metrics (JMH secondaryMetrics such as gc.alloc.rate, Go B/op,
// allocs/op, MB/s and custom metrics) are kept as extra rows whose Metric
// column names them; primary measurements have Metric == Primary. Analyzers
// that want times select Metric == Primary (Collect does this by default).
package table
