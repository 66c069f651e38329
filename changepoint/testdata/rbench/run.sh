#!/bin/sh
# Benchmark-only: CPU seconds per call of R changepoint and of Go test
# binaries on the reference series, alternated within one run (the machine
# is shared, so each repetition runs every program once, in turn).
#
#   go test -c -o /tmp/cp.test ./changepoint   (and -tags purego, or an older commit)
#   cd changepoint && sh testdata/rbench/run.sh REPS TASKS label=/tmp/cp.test ...
#
# TASKS is a comma list of pelt-meanvar, pelt-mean, crops-traini at n3000 or
# n30000, e.g. "pelt-meanvar@3000,crops-traini@30000". Output lines:
#
#   R-ext TASK n seconds   (Rscript user+sys minus a run that only loads the
#                           package and reads the series, per call)
#   R-in  TASK n seconds   (proc.time() around the calls inside R)
#   LABEL TASK n seconds   (the Go benchmark's cpu-ns/op)
#
# R's CROPS results are written to $RDUMP/TASK-n.txt (default /tmp) for
# BenchmarkReferenceSeries to compare (CHANGEPOINT_RDUMP).
set -eu
reps=$1
tasks=$2
shift 2
ref=${BENCHTRIM_SHARED:-../../shared}/reference/changepoint
[ -d "$ref" ] || ref=../../../shared/reference/changepoint
dump=${RDUMP:-/tmp}
here=$(dirname "$0")
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1+$2}'; }
for rep in $(seq "$reps"); do
	for tn in $(echo "$tasks" | tr , ' '); do
		task=${tn%@*}
		n=${tn#*@}
		case $n in
		3000) file=$ref/s02_warmup_exp.csv ;;
		30000) file=$ref/timing_n30000_warmup.csv ;;
		esac
		case $tn in
		pelt-*@3000) rr=50 gr=50 ;;
		pelt-*@30000) rr=2 gr=3 ;;
		crops-*@3000) rr=3 gr=5 ;;
		*) rr=1 gr=1 ;;
		esac
		case $task in
		pelt-meanvar) gb=PELT-meanvar ;;
		pelt-mean) gb=PELT-mean ;;
		crops-traini) gb=CROPS-traini ;;
		esac
		null=$(cpu Rscript "$here/rbench.R" none "$file" "$rr")
		out=$(mktemp)
		/usr/bin/time -f 'time %U %S' -o "$out.t" Rscript "$here/rbench.R" "$task" "$file" "$rr" "$dump/$task-$n.txt" >"$out"
		full=$(awk '{print $2+$3}' "$out.t")
		echo "R-ext $task $n $(echo "$full $null $rr" | awk '{printf "%.6f", ($1-$2)/$3}')"
		awk -v r="$rr" '/^rbench/ {printf "R-in %s %s %.6f\n", $2, $3, ($5+$6)/r}' "$out"
		rm -f "$out" "$out.t"
		for lb in "$@"; do
			label=${lb%%=*}
			bin=${lb#*=}
			CHANGEPOINT_RDUMP=$dump "$bin" -test.run '^$' -test.bench "ReferenceSeries/^n=$n\$/^$gb\$" -test.benchtime "${gr}x" |
				awk -v l="$label" -v t="$task" -v n="$n" '{for (i = 2; i <= NF; i++) if ($i == "cpu-ns/op") printf "%s %s %s %.6f\n", l, t, n, $(i-1)/1e9}'
		done
	done
done
