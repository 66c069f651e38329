// Package parquetio turns Arrow records into Parquet files and back, for
// package tablefile (table files and report frames) only: Writer encodes
// records with package tablefile/internal/parquetenc, Schema and Column read a file
// into Arrow arrays on the column readers of Arrow's parquet/file, and
// StringDict is the growing string dictionary that both the Parquet
// writer and tablefile's Arrow IPC coder build.
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
package parquetio
