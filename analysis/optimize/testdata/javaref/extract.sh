#!/bin/sh
# Extracts the µOpTime prototype's published Java configurations that
# TestPrototypeJavaAgreement and TestPrototypeJavaAgreementRCIW compare
# with, into one file (published.tsv.gz beside this script):
#
#   sh extract.sh PACKAGE [OUT]
#
# PACKAGE is a checkout of njapke/uoptime-replication-package (commit
# 938e5667) or its optimizer/ folder; it needs
# optimizer/dataset_2/laaber_optimization_{warmup,nowarmup}_fse20/ and
# optimizer/dataset_3/optimizer_results_ese21/optimizer_results_only_{base,latest}/.
# OUT defaults to published.tsv.gz beside this script.
#
# For each result folder, file and metric folder below, the script reads
# the prototype's min_config_res.csv (Benchmark,Config,Instability,Time,
# Average,CI Lower,CI Upper) and keeps its first four fields verbatim. The
# output is gzip'd TSV with the columns
#
#   results  file  metric  benchmark  config  instability  time
#
# (results: the folder under optimizer/, file: the data file's stem,
# metric: the prototype's metric folder, then the row's Benchmark, Config,
# Instability and Time), one row per published row, sorted bytewise
# (LC_ALL=C), so that the same published files give the same content.
# A missing file, a header other than the prototype's, a row that is not
# "name,\"(forks, iterations)\",number,integer,...", a tab in a field or
# a row given twice is an error naming the file and line; nothing is
# written then. TestPrototypeJavaExtract (with BENCHTRIM_UOPTIME_PROTOTYPE
# set to PACKAGE) checks the committed file against this script's output
# and against the published files as Go's encoding/csv reads them.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: sh extract.sh PACKAGE [OUT]" >&2
	exit 2
fi
root=$1
if [ -d "$root/optimizer/dataset_2" ]; then
	root=$root/optimizer
fi
out=${2:-$(dirname "$0")/published.tsv.gz}

# The published results the tests compare with: result folder and file
# stem (the javaSets of prototype_java_test.go), and the metric folders of
# cv, rmad, rciw-mean, rciw-mean-t and rciw-median (protoMetricDir).
sets='dataset_3/optimizer_results_ese21/optimizer_results_only_base laaber_bytebuddy-01_00_00-jmh121
dataset_3/optimizer_results_ese21/optimizer_results_only_latest laaber_bytebuddy-01_10_07-jmh121
dataset_3/optimizer_results_ese21/optimizer_results_only_base laaber_jenetics-03_00_00-jmh121
dataset_3/optimizer_results_ese21/optimizer_results_only_latest laaber_jenetics-05_02_00-jmh121
dataset_2/laaber_optimization_warmup_fse20 laaber_byte-buddy
dataset_2/laaber_optimization_warmup_fse20 laaber_jenetics
dataset_2/laaber_optimization_warmup_fse20 laaber_protostuff
dataset_2/laaber_optimization_warmup_fse20 laaber_zipkin
dataset_2/laaber_optimization_nowarmup_fse20 laaber_byte-buddy
dataset_2/laaber_optimization_nowarmup_fse20 laaber_jenetics
dataset_2/laaber_optimization_nowarmup_fse20 laaber_protostuff
dataset_2/laaber_optimization_nowarmup_fse20 laaber_zipkin'
metrics='cv__mean__ci_bootstrap_mean_p
rmad__median__ci_bootstrap_median_p
rciw_mean_p__mean__ci_bootstrap_mean_p
rciw_mean_t__mean__ci_bootstrap_mean_t
rciw_median_p__median__ci_bootstrap_median_p'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "$sets" | while read -r results stem; do
	for metric in $metrics; do
		f=$root/$results/$stem/$metric/min_config_res.csv
		if [ ! -f "$f" ]; then
			echo "extract.sh: $f: no such file" >&2
			exit 1
		fi
		awk -v results="$results" -v stem="$stem" -v metric="$metric" -v file="$f" '
		# csv splits line into f[1..n] by RFC 4180 (quoted fields, "" for
		# a quote) and returns n, or -1 when a quote is not closed.
		function csv(line, f,    n, i, c, q, v) {
			n = 0; v = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (q) {
					if (c != "\"") v = v c
					else if (substr(line, i + 1, 1) == "\"") { v = v "\""; i++ }
					else q = 0
				} else if (c == "\"") q = 1
				else if (c == ",") { f[++n] = v; v = "" }
				else v = v c
			}
			if (q) return -1
			f[++n] = v
			return n
		}
		function fail(why) {
			printf "extract.sh: %s:%d: %s\n", file, FNR, why > "/dev/stderr"
			bad = 1
			exit 1
		}
		{
			sub(/\r$/, "")
			n = csv($0, f)
			if (n < 4) fail("want at least 4 fields, have " (n < 0 ? "an unclosed quote" : n))
		}
		FNR == 1 {
			if (f[1] != "Benchmark" || f[2] != "Config" || f[3] != "Instability" || f[4] != "Time")
				fail("header " f[1] "," f[2] "," f[3] "," f[4] ", want Benchmark,Config,Instability,Time")
			next
		}
		{
			for (i = 1; i <= 4; i++)
				if (index(f[i], "\t")) fail("a tab in field " i)
			if (f[1] == "") fail("empty Benchmark")
			if (f[2] !~ /^\([0-9]+, [0-9]+\)$/) fail("Config " f[2] ", want (forks, iterations)")
			if (f[3] !~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && f[3] != "nan" && f[3] != "inf")
				fail("Instability " f[3] " is not a number")
			if (f[4] !~ /^[0-9]+$/) fail("Time " f[4] " is not an integer")
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", results, stem, metric, f[1], f[2], f[3], f[4]
		}
		END {
			if (!bad && FNR == 0) {
				printf "extract.sh: %s: empty file\n", file > "/dev/stderr"
				exit 1
			}
		}' "$f" >> "$tmp/rows" || exit 1
	done
done

LC_ALL=C sort "$tmp/rows" > "$tmp/sorted"
LC_ALL=C awk -F'\t' '
	{ k = $1 "\t" $2 "\t" $3 "\t" $4 }
	k == last { printf "extract.sh: %s/%s/%s: benchmark %s given twice\n", $1, $2, $3, $4 > "/dev/stderr"; exit 1 }
	{ last = k }' "$tmp/sorted"
{
	printf 'results\tfile\tmetric\tbenchmark\tconfig\tinstability\ttime\n'
	cat "$tmp/sorted"
} | gzip -9n > "$out.tmp$$"
mv "$out.tmp$$" "$out"
echo "extract.sh: $(wc -l < "$tmp/sorted" | tr -d ' ') rows to $out" >&2
