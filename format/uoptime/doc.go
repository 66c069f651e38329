// Package uoptime reads the CSV files of the µOpTime replication package
// (Japke, Grambow, Laaber, Bermbach, TOSEM 2025;
// njapke/uoptime-replication-package) into the canonical measurement
// table: its Go layout (Format, --format uoptime) and its Java layout
// (JMHFormat, --format uoptime-jmh).
//
// Flow: ingest.ReadFiles (or a caller) picks one of these Formats for a
// file whose header names ns_per_op and b_name (the Java layout's also
// fork_setup or fork_pos); Read appends one canonical row per CSV row to a
// table.Builder, plus one table.Setup per benchmark; analyzers then read
// the table (package table), never the file.
//
// # Go layout (data set 1)
//
// A comma-separated file with a header and one row per one-second slice,
//
//	m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name
//
// Mapping to the canonical table:
//
//	ir_pos → instance    sr_pos → trial    fork = 1
//	it_pos → iteration   bed_pos → slice   n → count
//	ns_per_op → value and ns_per_op (unit "ns/op", mode "go", metric primary)
//	b_name → benchmark, kept whole (sub-benchmark path included), params ""
//	project, version from ingest.Source (Source.Instance and Trial are not
//	used: the file has both levels)
//
// b_name is kept whole because µOpTime treats it as the benchmark's identity:
// its sub-benchmark parts are mostly positional (BenchmarkScanComments/10ValidUtf8),
// and splitting key=value parts off would make the benchmark names differ
// from those µOpTime reports. (format/gobench, by contrast, turns /key=value
// name parts into params, as benchstat does.)
//
// The setup of each benchmark comes from the *_setup columns: Instances =
// ir_setup, Trials = sr_setup, MeasurementIterations = it_setup, Slices =
// bed_setup, SliceTimeNs = 1 s, MeasurementTimeNs = bed_setup·1 s, Forks = 1,
// Tool "go".
//
// # Java layout (data sets 2 and 3)
//
// The replication package's preprocess_jmh_laaber_fse20.py and
// preprocess_jmh_laaber_ese21.py turn JMH sample-mode results (Laaber et
// al., ESEC/FSE 2020 and EMSE 2021) into one row per measurement
// iteration: ns_per_op is the iteration's rawDataHistogram merged into its
// count-weighted mean (in ns), n the number of samples,
//
//	m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name
//
// Mapping:
//
//	fork_pos → fork      it_pos → iteration   slice = 1   n → count
//	instance, trial from ingest.Source (0 means 1), as for JMH JSON
//	ns_per_op → value and ns_per_op (unit "ns/op", mode "sample")
//	b_name → project#benchmark#params (data set 2: "zipkin#zipkin2.codec.
//	JsonCodecBenchmarks.bytebuffer_moshiDecoder#", params k=v&k=v), or a
//	plain JMH benchmark name (data set 3)
//
// Params k1=v1&k2=v2 become the canonical "k1=v1,k2=v2"; a part without
// '=' or a key given twice is kept (as "part=" or the last value) and
// warned about. The project in b_name labels the rows unless the user gave
// one (Source.ProjectFromUser). Data set 3 names its files
// laaber_PROJECT-MM_mm_pp-jmhNNN.csv (laaber_bytebuddy-01_10_07-jmh121.csv
// is bytebuddy 1.10.7, measured with JMH 1.21): such a name gives project
// PROJECT and version MM.mm.pp without leading zeros, unless the user gave
// them or the labels ingest passes are not the file name's (a NAME=FILE
// label: Source.Version is neither "" nor the file's base name). The
// setup: Tool "jmh", ToolVersion from the file name (jmh121 → 1.21),
// Forks = fork_setup, MeasurementIterations = it_setup; the iteration
// time and the warmup are not in the files and stay unknown (data set 3
// ran 10 warmup iterations that the files leave out; data set 2's 100
// iterations include its warmup, which the prototype drops as the first
// 50: optimize --discard-warmup 50).
//
// # Bad input
//
// Columns are found by header name (case-insensitive, any order; m_id and
// unknown columns are optional and ignored, unknown ones warned about).
// Bad input never stops the read once the header is good: rows with
// malformed CSV, a wrong field count, non-numeric fields, NaN, infinite, zero
// or negative ns_per_op, n ≤ 0, *_setup < 1, positions outside 1.._setup, a
// b_name longer than table.MaxStringBytes, or duplicating an earlier row's
// (benchmark and positions) are skipped and counted in the ingest.Summary
// with file:line. Benchmarks whose rows state different setups, and
// benchmarks whose rows do not fill the setup grid (ragged data), are kept
// and reported as warnings naming what differs or is missing. A b_name
// with invalid UTF-8 or control characters (a quoted field may hold a line
// break) is stored cleaned (ingest.CleanName) and warned about once per
// name. Integer columns accept integral float spellings such as "5.0"
// (pandas writes the Java layout's n that way). A header separated by ';'
// or a tab, a first line that is a data row, or the other layout's header
// is reported as such.
package uoptime
