// Package tablefile owns every byte of benchtrim's canonical table files
// and of the report frames' files: it reads tables (ReadFile,
// ScanFileShard by shard), writes them (Stream), keeps a table too large
// for memory in a spool (Spool), writes and reads frames (WriteFrame,
// ReadFrame), and checks untrusted Arrow IPC and Parquet bytes before a
// decoder sees them (checkIPCFooter, checkParquetFooter, checkParquet,
// the allocation bound maxAllocation). The model (schema, rows, keys,
// setups, checks) is package table's; this package imports it and table
// never imports this one. With the packages under it (internal/parquetio:
// Arrow records to Parquet and back), it is the only package of the
// module that imports Arrow's ipc or parquet packages.
//
// On disk a table is Arrow IPC (.arrow), Parquet (.parquet) or CSV (.csv),
// written record by record by Stream; setups travel under metadataSetups
// (a JSON array) in the schema metadata for Arrow, in the footer's
// key-value metadata for Parquet (files written before Stream have them
// in the stored Arrow schema, which ReadFile reads too), and in a sidecar
// file NAME.setups.csv next to a CSV table (SetupsSidecar). Every read
// checks the table's rules (table.Checker) and the arrays' well-formedness
// (validateRecord); a corrupt file is an error naming it, never a panic.
//
// # Hand-written parts, and what they gain
//
// Where this package does itself what Arrow Go's ipc or parquet packages
// also do, the gain is measured on the typical input (the canonical table of
// `benchtrim generate --preset sample --benchmarks 20`, 859,574 rows),
// medians of 6 runs alternated with the library's call on idle cores
// (BenchmarkVsLibrary…, vslibrary_test.go), next to the whole process:
//
//   - directIPC, the .arrow writer, writes each record as it comes and
//     patches the schema's setups in at the end; ipc.FileWriter writes the
//     schema, which carries the setups, before the first record, so it
//     must hold every record until the last setup is known. Writing takes
//     about the same time (86 ms against 83 ms, 1.04×,
//     BenchmarkVsLibraryIPCWrite); the gain is memory: `benchtrim ingest -o x.arrow` of the sample
//     peaks at 39 MB, where the same process holding its records for
//     ipc.FileWriter (as --arrow-compression zstd does below
//     arrowHoldBytes) peaks at 177 MB, zstd's buffers included.
//   - rawSpool keeps the coded records of a compressed .arrow output that
//     exceeds arrowHoldBytes in a scratch file of raw buffers: 273 ms and
//     558 MB allocated against 301 ms and 649 MB for an Arrow IPC scratch
//     file written by ipc.FileWriter and read back by ipc.FileReader
//     (BenchmarkVsLibraryIPCCompressed, the sample forced through the
//     spool): 9 % less time. Inputs below arrowHoldBytes never use it.
//   - The Parquet writer and reader (internal/parquetio) state their
//     gains in their package doc: the writer is 10× faster than pqarrow's,
//     and leaving pqarrow out saves 22 MB of binary and 2.3 ms of every
//     command's start-up, for a reader 1.3× slower than pqarrow's.
//   - The footer checks (checkIPCFooter, checkParquetFooter, checkParquet,
//     on internal/thrift) are not replacements: they bound what an
//     untrusted file can make Arrow's readers allocate, which the library
//     does not, so that a corrupt file is an error and not a crash.
//
// Everything else is the library's: records with different dictionaries
// go into one file through array.DictionaryUnifier (coder), which unified
// the sample's dictionaries in 0.23 ms where a hand-written one took 0.76
// ms.
package tablefile
