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
package tablefile
