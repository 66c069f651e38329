#!/usr/bin/env bash
# Writes every data output of benchtrim in CSV, Arrow and Parquet from the
# demo's generated inputs, then reads them with DuckDB and apache-arrow
# (check.mjs). Needs Node.js and the npm registry (npm ci).
# Usage: .ci/readers/run.sh BENCHTRIM DEMO_DIR OUT_DIR
set -euo pipefail
bt=$1 demo=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
inputs=("$demo"/gobench.txt "$demo"/jmh-avgt.json "$demo"/jmh-sample.json "$demo"/pa.csv "$demo"/uoptime-v*.csv)
: > "$out/rows.txt"
"$bt" -q generate --preset duet -o "$out/duet-input.csv" > /dev/null
# A table of more than 8 MB of records, which .arrow writes in one pass
# (table.directIPC: padded schema message, patched footer).
"$bt" -q generate --preset sample --benchmarks 4 -o "$out/large-input.json" > /dev/null
for ext in csv arrow parquet; do
  rows=$("$bt" -q ingest -o "$out/table.$ext" "${inputs[@]}" | sed -n 's/^rows: \([0-9]*\).*/\1/p')
  [ "$ext" = csv ] && echo "table $rows" >> "$out/rows.txt"
  # The table ingested by shard (Parquet only; CSV and Arrow as usual):
  # check.mjs reads it and compares its rows with table.parquet's.
  by=(); [ "$ext" = parquet ] && by=(--by-shard)
  "$bt" -q ingest "${by[@]}" -o "$out/table-by-shard.$ext" "${inputs[@]}" > /dev/null
  "$bt" -q ingest -o "$out/table-large.$ext" "$out/large-input.json" > /dev/null
  "$bt" -q optimize --metric rmad,cv,rciw-mean-t --resamples 500 -o "$out/optimize.$ext" --summary-out "$out/optimize-summary.$ext" \
    --versions-out "$out/optimize-versions.$ext" "$demo"/uoptime-v*.csv > /dev/null
  "$bt" -q compare --resamples 500 -o "$out/compare.$ext" "$demo/uoptime-v1.0.0.csv" "$demo/uoptime-v1.1.0.csv" > /dev/null
  "$bt" -q compare --aa --resamples 500 -o "$out/compare-aa.$ext" "$demo/uoptime-v1.0.0.csv" > /dev/null
  "$bt" -q reconfigure --aa-resamples 500 --criteria cv,rciw -o "$out/reconfigure.$ext" --table2 "$out/reconfigure-summary.$ext" \
    --configs-out "$out/dynamic.$ext" "$demo/jmh-avgt.json" > /dev/null
  "$bt" -q steady --resamples 500 --steady-window 30 --configs "$out/dynamic.$ext" --forks-out "$out/steady-forks.$ext" \
    --benchmarks-out "$out/steady-benchmarks.$ext" --eval-out "$out/steady-eval.$ext" "$demo/jmh-avgt.json" > /dev/null
  "$bt" -q duet --resamples 500 --slowdowns 0:0.05:0.01 -o "$out/duet.$ext" --mds-out "$out/duet-mds.$ext" \
    --match-out "$out/duet-match.$ext" --overlaps-out "$out/duet-overlaps.$ext" "$out/duet-input.csv" > /dev/null
  "$bt" -q trim --resamples 500 --steady-window 100 -o "$out/trim-plan.$ext" "$demo/jmh-avgt.json" > /dev/null
  # The same data through a chunked compare and a sharded steady + merge.
  "$bt" -q --max-rows 300 compare --resamples 500 -o "$out/compare-chunked.$ext" "$demo/uoptime-v1.0.0.csv" "$demo/uoptime-v1.1.0.csv" > /dev/null
  for k in 0 1 2; do
    "$bt" -q steady --resamples 500 --steady-window 30 --shard "$k/3" --partial-out "$out/steady-$k.partial" "$demo/jmh-avgt.json" > /dev/null
  done
  "$bt" -q merge --benchmarks-out "$out/steady-merged.$ext" "$out"/steady-[012].partial > /dev/null
done
cd "$here"
npm install --no-audit --no-fund --no-package-lock --loglevel=error > /dev/null
node check.mjs "$out"
