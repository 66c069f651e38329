// Package duet reads duet benchmarking results (Drozdík, "Asynchronous Duet
// Benchmarking", MFF UK 2023; tool chain TomasDrozdik/asynchronous-duet)
// into the canonical measurement table: the per-iteration CSV that
// `duetprocess parse` writes, and the output directories of duetbench it
// reads (Renaissance --json results, DaCapo/ScalaBench result CSVs, SPEC CPU
// result directories).
//
// Flow: ingest.ReadFiles picks this Format for a CSV whose header names the
// duetprocess columns (Sniff) and for a directory that duetbench wrote
// (SniffDir), or for either with --format duet; Read and ReadDir append one
// row per iteration of a pair and one table.Setup per (suite, benchmark,
// type) to a table.Builder. The duet analysis (analysis/duet) then reads the
// table and the setups' Env, never the files.
//
// # The duetprocess CSV
//
// Written by pandas to_csv: ',' separated, a header line, columns in any
// order (docs/formats/duet.md). Required: suite, benchmark, type, pair,
// runid, iteration, iteration_time_ns, iteration_start_ns,
// iteration_end_ns; read when present: order, the artifacts date,
// hostname, lscpu, meminfo, uname, and environment; others (epoch_start_ms,
// uptime_ns, DaCapo's jmx_* …) are ignored.
//
// # Mapping onto the table
//
//	project    = suite (renaissance, dacapo, scalabench, speccpu); --project wins
//	version    = "" (labels from the file name or --version apply as for every reader)
//	benchmark  = benchmark; params = ""
//	mode       = type: seqn, syncduet or duet (the early name sequential is read as seqn)
//	pair       = pair: A or B
//	metric     = table.Primary; unit = "ns"; count = 1
//	value      = ns_per_op = iteration_time_ns
//	start_ns, end_ns = iteration_start_ns, iteration_end_ns rounded to int64
//	instance   = number of the environment (date, hostname, lscpu, meminfo,
//	             uname, environment) in order of first appearance over all
//	             inputs of one ReadFiles call (ingest.Instances)
//	trial      = 1; fork = runid + 1
//	iteration  = recorded iteration + offset, where offset is 1 for a key
//	             whose recorded indices are 0-based (suite renaissance or
//	             speccpu, or any recorded index 0) and 0 otherwise (dacapo,
//	             scalabench count from 1)
//
// A duet run (SPEC §1: artifacts, suite, benchmark, type, runid) is thus one
// (key, instance, fork); its pairs are told apart by the pair column.
//
// The setup of each key has Tool "duet" and Env:
//
//	iteration_offset        "1" or "0": recorded index = iteration − offset
//	instance.N.date, .hostname, .lscpu, .meminfo, .uname
//	                        the artifacts of instance N ("" when absent)
//	instance.N.environment  the CSV's environment column when it has one;
//	                        else from the hostname (Environment): cirrus* →
//	                        bare-metal, teaching* → shared-vm, ip-* → AWS
//	                        t3.medium, other hosts ""
//	run.N.F.order           AB, BA or None: which pair duetbench launched
//	                        first in run F (fork) of instance N
//
// instanceEnvKey, runOrderEnvKey, iterationOffset and instanceEnvironment
// spell and read these keys, so an analyzer needs no string of its own.
//
// Empty artifacts and pandas missing-value tokens (NA, NaN, null, …) in
// artifact columns are the empty string, not missing (SPEC D10): no row is
// dropped for them.
//
// # Raw duetbench directories
//
// A directory holds artifacts/ and one result per run and pair, named
// SUITE.BENCH.RUNID.TYPE.ORDER.PAIR.RESULT (fileName). Artifacts are read as
// duet/parsers_artifact.py does (lscpu: the model name; meminfo: MemTotal).
// Renaissance: iteration k (0-based) of data.BENCH.results starts at
// environment.vm.start_unix_ms·10⁶ + uptime_ns and lasts duration_ns.
// DaCapo and ScalaBench (D3S harness CSV): row k (1-based) lasts
// iteration_time_ns and starts at start_unix·10⁶; old jars have only
// total_ms, harness time, placed after the epoch of the date artifact
// (ParseDate; SPEC D13: approximate, but A and B of a run share the
// offset). SPEC CPU: the result is a directory whose *002.log has "Rate
// Start"/"Rate End" lines; pair k (0-based) is iteration k. Results named
// BENCH.RUNID.PAIR.results.json (the first duetbench, asynchronous-duet
// 557308c) are read as Renaissance asynchronous duets with order None. A
// directory of such directories is read as one input, one instance per
// directory (or per distinct artifacts).
//
// # Bad input
//
// An empty file or a header that lacks a required column is a
// *ingest.ParseError; so is a directory that is not a duetbench one. Rows
// are skipped and counted with file:line (or file:$.json.path) for malformed
// CSV, a wrong field count, an empty suite or benchmark, an unknown type
// (ingest.KindUnknownMode), a pair other than A or B, non-numeric or missing
// numbers (empty, NaN, a pandas NA token), a negative or too large runid or
// iteration, a zero, negative or infinite time, an end before the start, and
// a repeated (run, pair, iteration). Kept and warned about: a run with only
// one pair, an order other than AB/BA/None or two orders in one run,
// iteration_time_ns differing from end − start by more than 1 µs, NA tokens
// in artifacts, absent artifact columns, and names with invalid UTF-8 or
// control characters (stored cleaned). In a directory, files whose name is
// not a result's are ignored with a warning, and a result that cannot be
// read (bad JSON, no *002.log) is left out and counted. An artifact that is
// not text (a NUL byte, invalid UTF-8, over 64 KiB) is stored as "" and a
// date artifact ParseDate does not read is kept, each with a warning
// naming the artifact's file (kindBadArtifact, kindBadDate).
package duet
