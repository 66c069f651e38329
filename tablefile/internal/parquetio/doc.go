// Package parquetio turns Arrow records into Parquet files and back, for
// package tablefile (table files and report frames) only: Writer encodes
// records with package tablefile/internal/parquetenc, Schema and Column read a file
// into Arrow arrays on the column readers of Arrow's parquet/file, and
// StringDict is the growing string dictionary the Parquet writer builds.
//
// Both halves replace Arrow Go's pqarrow. Writer feeds parquetenc the
// dictionaries and runs of indices it collects as records arrive, where
// pqarrow hashes and encodes every value again; the reader reads the
// types benchtrim writes (booleans, int32, int64, doubles, UTF-8 strings
// plain or dictionary-encoded, required or optional, three-level lists of
// int64 or strings) without pqarrow, which brings arrow/compute,
// arrow/flight and gRPC (110 packages) into the binary, whose package
// initialisers every command pays at start-up. Tests check both against
// pqarrow (TestColumnMatchesPqarrow, and parquetenc's read-back tests).
//
// What each half gains, measured against pqarrow on the typical input (the
// canonical table of `benchtrim generate --preset sample --benchmarks 20`,
// a 35 MB JMH file of 859,574 rows), medians of 6 runs alternated on idle
// cores (tablefile's BenchmarkVsLibraryParquetWrite and
// BenchmarkVsLibraryParquetRead, pqarrow configured alike: row groups of
// 2¹⁷ rows, Snappy, dictionaries for the string columns, delta encoding for
// count and line):
//
//   - Writer: 30.8 ms and 4.9 MB allocated, against pqarrow's 294 ms and
//     238 MB (0.10×), where the whole `benchtrim ingest -o x.parquet`
//     process takes 0.122 CPU-s and 41 MB: pqarrow would make it about 3×
//     slower. pqarrow also cannot take the records as ingest builds them
//     (each with its own dictionary) without unifying every record's
//     dictionaries first, which needs the whole table in memory: given
//     them as they come it turns them into plain strings value by value
//     (compute.Take), 23 s for two records of 61,000 rows.
//   - Reader: 122 ms and 139 MB allocated to decode the file, against
//     pqarrow's 93 ms and 421 MB: 1.3× slower, with a third of the
//     allocation. The gain is every other command's: without pqarrow the
//     binary is 32.6 MB instead of 55.0 MB, and a command's start-up
//     (`benchtrim changepoint` on 20 values) takes 5.3 ms of CPU and 14.8
//     MB instead of 7.6 ms and 21.4 MB (medians of 40, alternated; a blank
//     import of pqarrow, which undercounts its code).
package parquetio
