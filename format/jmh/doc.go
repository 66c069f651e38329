// Package jmh reads JMH JSON result files (java -jar benchmarks.jar -rf
// json) into benchtrim's canonical measurement table.
//
// Flow: it is one of the format/<name> readers. Format implements
// ingest.Format: Read streams a file and appends rows and setups to a
// table.Builder; analyzers never see the JSON.
//
// # Rows
//
// One row per measured value of every record (one element of the top-level
// array: a benchmark × mode × params combination, docs/formats/jmh.md):
//
//	primaryMetric.rawData[f][i]             → fork f+1, iteration i+1, count 1
//	primaryMetric.rawDataHistogram[f][i][b] → fork f+1, iteration i+1, count = the bucket's count
//	secondaryMetrics[k].rawData[f][i]       → metric MetricName(k), fork f+1, iteration i+1
//
// Fork and iteration are positions in the arrays, not the configured forks
// and measurementIterations. Instance and trial come from ingest.Source,
// slice is 1, warmup is false (JMH JSON holds no warmup values; warmup
// iterations and time go to the setup). ns_per_op follows ingest.NsPerOp
// (threads matters for thrpt only); secondary metrics whose unit is not a
// time or throughput per op get NaN. The row source is "file:$[i]" (the
// record) and line the value's line.
//
// # Secondary metric names
//
// MetricName strips the '·' or '@' prefix of old JMH versions and spells
// SampleTime percentiles as JMH 1.37 does: "p0.50" for the benchmark's own
// percentiles (JMH ≤ 1.36 writes "<method>·p0.50"), "label:p0.50" for
// labelled results. A secondary whose name normalises to "" or "primary"
// is stored as "secondary:" + name, apart from the primary metric. Ragged secondary rawData (gc.time is only reported for
// iterations in which a GC ran) is kept as it is: iteration is the position
// in the row, so the iterations a value really belongs to are lost
// (docs/formats/jmh.md, "Secondary metrics"). Text results of profilers (unit "---", empty rawData)
// are skipped.
//
// # Bad input
//
// Invalid or truncated JSON, git conflict markers, raw line breaks inside
// strings (JMH ≤ 1.21 @Param values) and a 0-byte file end the read with an
// *ingest.ParseError naming the file, line and JSON path. Everything else is
// counted in the ingest.Summary, with the place of the first few:
//
// Skipped (rows left out): records whose mode is not a JMH mode (thrpt,
// avgt, sample, ss; the long names Throughput, AverageTime, SampleTime and
// SingleShotTime are read as those); NaN, infinite, negative and zero primary times
// (ingest.CheckTime; zero is valid in sample mode); non-numeric values,
// malformed histogram buckets and counts; non-finite secondary values;
// records without benchmark, mode or primaryMetric; records whose mode is
// not thrpt, avgt, sample or ss, or whose benchmark name or a parameter is
// longer than table.MaxStringBytes, and secondary metrics whose name is;
// records whose primary unit is not <time>/op or ops/<time> (they cannot
// be normalised); the
// second and later records with the same (benchmark, mode, params) — JMH
// writes each once, so a repeat means a hand-merged file, and keeping only
// the first keeps fork and iteration numbers unique; primary rawData next to
// a rawDataHistogram (the histogram is kept); text profiler results and
// fields of an unexpected JSON type (these two count metrics and fields, not
// rows); duplicate JSON keys (the first is used); records without primary
// raw data (-Djmh.json.rawData=false, a SampleTime record with neither
// rawData nor rawDataHistogram, or a misspelled key, which is named),
// counted per record, their secondary metrics kept.
//
// Warnings (kept): fewer primary fork rows than forks (a missing fork), more
// fork rows than forks, empty forks, ragged primary iterations, ragged
// secondary rawData, secondaries without rawData, unparseable
// warmupTime/measurementTime, and setups that conflict with an earlier one
// for the same run (table.Builder.AddSetup); configuration values no JMH
// run has (threads < 1, forks < 0, negative iteration counts or batch
// sizes), which become unknown (0 in the setup; ops/time values are then
// normalised as one thread); names (benchmark, param names and values,
// secondary metric names and units, the setup's jvm strings) holding
// invalid UTF-8 or control characters, which are stored cleaned
// (ingest.CleanName: U+FFFD, and escapes such as \n), each distinct name
// counted once.
//
// # Streaming
//
// Read is a loop over records, as golang.org/x/perf/benchfmt's reader is a
// loop over results: a recordReader (record.go, metric.go) reads one
// element of the top-level array at a time (Scan, Record, Err), and an
// emitter (emit.go) turns each record into rows and its setup. Neither
// builds a JSON tree: a hand-written tokenizer (scan.go) runs over one
// reused buffer, tracks the line and the JSON path as a small stack (the
// path string is only formatted for a report), parses numbers in place with
// strconv.ParseFloat, and buffers one record's values (40 bytes each) until
// the record ends, because the record's key, unit and threads may follow its
// data in a hand-edited file. Memory therefore grows with the output table
// plus the largest record.
package jmh
