#!/bin/sh
# Whole-process CPU seconds (user + system) and peak RSS of benchtrim and of
# the baselines of issue 26, alternated within each repetition (every
# program runs once per repetition, in turn), for the closing notes and
# docs. Run it on idle cores:
#
#   CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o /tmp/benchtrim ./cmd/benchtrim   # as README.md installs it
#   sh testdata/procbench/run.sh REPS /tmp/benchtrim [TASKS]
#
# TASKS (default all) is a comma list of startup, crops, ingest, optimize,
# optimize-jmh, steady-shard, duet, compare-pa, trim. trim runs `benchtrim
# trim` on the 31 byte-buddy releases of ../shared/data/jmh-versions
# (µOpTime's CSV layout, --stated-warmup 10) and, when BT_BEFORE names the
# binary of an earlier benchtrim, that one on the same data as JMH JSON
# (converted once by python3: one file per release, 3 forks × 20
# iterations, 10 warmup iterations stated), which is how an earlier
# benchtrim that cannot read the CSV layout sees it. Baselines: python3 json.load (ingest), Rscript with
# the changepoint package (crops; R_LIBS may point at it), the µOpTime
# prototype (optimize: optimizer_go.py on zap-v1.19.1; optimize-jmh:
# optimizer_jmh_parallel_ese21.py on byte-buddy 1.10.7 of data set 3;
# UOPTIME_PROTO names the optimizer/ folder of
# njapke/uoptime-replication-package, run by PYTHON, default
# /usr/bin/python3, with numpy, pandas and scipy, and tqdm for
# optimize-jmh), pa v0.1.0 (compare-pa:
# PA names the binary built from github.com/chrstphlbr/pa; the input is
# internal/stats/testdata/pa). Output, one line per
# program and repetition:
#
#   TASK PROGRAM cpu_seconds maxrss_kb
#
# and, at the end, the median per TASK and PROGRAM.
set -eu
reps=$1
bt=$2
tasks=${3:-startup,crops,ingest,optimize,optimize-jmh,steady-shard,duet,compare-pa,trim}
here=$(cd "$(dirname "$0")" && pwd)
shared=${BENCHTRIM_SHARED:-$here/../../../shared}
py=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/results.txt
# measure TASK PROGRAM CMD...: one line "TASK PROGRAM cpu maxrss". The
# CPU seconds are the child's ru_utime + ru_stime from wait4, to the
# microsecond: /usr/bin/time prints each of the two truncated to 10 ms,
# which reads a 0.029 s start-up as 0.02 and biases every small figure
# down by 10 ms on average.
rusage='
import os, sys
fa = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
      (os.POSIX_SPAWN_OPEN, 2, sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ, file_actions=fa)
_, status, ru = os.wait4(pid, 0)
print("%.6f %d" % (ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
'
measure() {
	task=$1 prog=$2
	shift 2
	"$py" -c "$rusage" "$work/err" "$@" >"$work/t" || { cat "$work/err" >&2; exit 1; }
	awk -v t="$task" -v p="$prog" '{printf "%s %s %.4f %d\n", t, p, $1, $2}' "$work/t" | tee -a "$out"
}
has() { case ",$tasks," in *",$1,"*) return 0 ;; esac; return 1; }

# Inputs, made once.
seq 100 119 > "$work/v20.txt"
if has ingest; then "$bt" -q generate --preset sample --benchmarks 20 -o "$work/sample.json"; fi
if has steady-shard; then
	"$bt" -q generate --benchmarks 400 --forks 5 --iterations 300 -o "$work/steady.json"
	# Ingest once, by shard: the shards below read their part of it.
	measure steady-shard ingest-by-shard "$bt" -q ingest --by-shard -o "$work/steady.parquet" "$work/steady.json"
fi
if has duet; then "$bt" -q generate --preset duet --benchmarks 200 --forks 20 --iterations 50 -o "$work/duet.csv"; fi
if has optimize; then
	mkdir -p "$work/proto/dataset_1/go_data_path"
	cp "$UOPTIME_PROTO/stat_functions.py" "$work/proto/"
	cp "$UOPTIME_PROTO/dataset_1/optimizer_go.py" "$work/proto/dataset_1/"
	cp "$shared/data/uoptime-go/zap-v1.19.1.csv" "$work/proto/dataset_1/go_data_path/"
fi
if has optimize-jmh; then
	# The prototype reads every file of laaber_preprocessed_ese21/ and
	# its stat_functions.py from the parent folder.
	jmhcsv=$shared/data/jmh-versions/laaber-ese21/laaber_bytebuddy-01_10_07-jmh121.csv
	mkdir -p "$work/proto/dataset_3/laaber_preprocessed_ese21"
	cp "$UOPTIME_PROTO/stat_functions.py" "$work/proto/"
	cp "$UOPTIME_PROTO/dataset_3/optimizer_jmh_parallel_ese21.py" "$work/proto/dataset_3/"
	cp "$jmhcsv" "$work/proto/dataset_3/laaber_preprocessed_ese21/"
fi
if has trim; then
	bbcsv=$(ls "$shared"/data/jmh-versions/laaber-ese21/laaber_bytebuddy-*.csv)
	mkdir -p "$work/bbjson"
	# One JMH JSON per release: rawData of every fork, the stated warmup.
	"$py" - "$work/bbjson" $bbcsv <<'PY'
import csv, json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    runs = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            b = runs.setdefault(r["b_name"], {})
            b.setdefault(int(r["fork_pos"]), {})[int(r["it_pos"])] = float(r["ns_per_op"])
    recs = []
    for name, forks in runs.items():
        raw = [[forks[k][i] for i in sorted(forks[k])] for k in sorted(forks)]
        vals = [v for f in raw for v in f]
        recs.append({"jmhVersion": "1.21", "benchmark": name, "mode": "avgt", "threads": 1, "forks": len(raw),
                     "warmupIterations": 10, "warmupTime": "1 s", "measurementIterations": len(raw[0]),
                     "measurementTime": "1 s", "params": {},
                     "primaryMetric": {"score": sum(vals) / len(vals), "scoreUnit": "ns/op", "rawData": raw},
                     "secondaryMetrics": {}})
    with open(os.path.join(out, os.path.basename(path)[:-4] + ".json"), "w") as f:
        json.dump(recs, f)
PY
fi
s02=$shared/reference/changepoint/s02_warmup_exp.csv

for rep in $(seq "$reps"); do
	if has startup; then
		measure startup benchtrim "$bt" changepoint "$work/v20.txt"
	fi
	if has crops; then
		measure crops R-none Rscript "$here/../../changepoint/testdata/rbench/rbench.R" none "$s02" 1
		measure crops R Rscript "$here/../../changepoint/testdata/rbench/rbench.R" crops-traini "$s02" 1
		measure crops benchtrim "$bt" changepoint --column value "$s02"
	fi
	if has ingest; then
		measure ingest python3-json.load python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/sample.json"
		measure ingest benchtrim-parquet "$bt" -q ingest -o "$work/o.parquet" "$work/sample.json"
		measure ingest benchtrim-arrow "$bt" -q ingest -o "$work/o.arrow" "$work/sample.json"
	fi
	if has optimize; then
		measure optimize prototype sh -c "cd '$work/proto/dataset_1' && '$py' optimizer_go.py"
		measure optimize benchtrim "$bt" -q optimize --first instance "$shared/data/uoptime-go/zap-v1.19.1.csv"
		# With every CI the results show, as the prototype's files do.
		measure optimize benchtrim-results "$bt" -q optimize --first instance -o "$work/optimize.csv" "$shared/data/uoptime-go/zap-v1.19.1.csv"
	fi
	if has optimize-jmh; then
		measure optimize-jmh prototype sh -c "cd '$work/proto/dataset_3' && '$py' optimizer_jmh_parallel_ese21.py"
		measure optimize-jmh benchtrim "$bt" -q optimize "$jmhcsv"
		measure optimize-jmh benchtrim-results "$bt" -q optimize -o "$work/optimize-jmh.csv" "$jmhcsv"
	fi
	if has steady-shard; then
		measure steady-shard unsharded "$bt" -q steady --steady-window 100 "$work/steady.json"
		measure steady-shard shard-0-of-4 "$bt" -q steady --steady-window 100 --shard 0/4 --partial-out "$work/p0.partial" "$work/steady.json"
		measure steady-shard unsharded-parquet "$bt" -q steady --steady-window 100 "$work/steady.parquet"
		measure steady-shard shard-0-of-4-parquet "$bt" -q steady --steady-window 100 --shard 0/4 --partial-out "$work/p0.partial" "$work/steady.parquet"
	fi
	if has duet; then
		measure duet benchtrim "$bt" -q duet "$work/duet.csv"
	fi
	if has trim; then
		# shellcheck disable=SC2086
		measure trim benchtrim "$bt" -q trim --stated-warmup 10 $bbcsv
		if [ -n "${BT_BEFORE:-}" ]; then
			measure trim benchtrim-before "$BT_BEFORE" -q trim "$work"/bbjson/*.json
		fi
	fi
	if has compare-pa; then
		pad=$here/../../internal/stats/testdata/pa
		measure compare-pa pa "$PA" -bs 10000 -sl 0.01 "$pad/v1.csv" "$pad/v2.csv"
		measure compare-pa benchtrim "$bt" -q compare --pa --statistic mean --resamples 10000 --confidence 0.99 "v1=$pad/v1.csv" "v2=$pad/v2.csv"
		measure compare-pa benchtrim-bootstrap "$bt" -q compare --statistic mean --resamples 10000 --confidence 0.99 "v1=$pad/v1.csv" "v2=$pad/v2.csv"
	fi
done
for f in sample.json steady.json duet.csv; do [ -f "$work/$f" ] && echo "# input $f: $(wc -c < "$work/$f") bytes"; done; true
echo "# medians: TASK PROGRAM cpu_seconds maxrss_kb"
sort -k1,1 -k2,2 -k3,3n "$out" | awk '
	{ k = $1 " " $2; n[k]++; v[k, n[k]] = $3; r[k, n[k]] = $4 }
	END { for (k in n) { m = int((n[k] + 1) / 2); printf "%s %.4f %d\n", k, v[k, m], r[k, m] } }' | sort
