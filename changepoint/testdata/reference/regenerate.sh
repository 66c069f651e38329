#!/bin/sh
# Re-runs R changepoint 2.3 and kneed 0.8.6/0.7.0 on the committed series
# and checks that every committed <series>.json comes out the same (all
# values bit for bit but the elapsed_s timings). See README.md,
# "Re-running", for what must be installed.
#
#   KNEED_086=DIR KNEED_070=DIR [R_LIBS=DIR] sh regenerate.sh [WORKDIR]
#
# WORKDIR (default: a new temporary folder) receives the intermediate
# files and the regenerated JSON; nothing in this folder is written.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
py=${PYTHON:-/usr/bin/python3}
: "${KNEED_086:?set KNEED_086 to a kneed 0.8.6 checkout}"
: "${KNEED_070:?set KNEED_070 to a kneed 0.7.0 checkout}"
export KNEED_086 KNEED_070

echo "== 1. series (generated values against the committed CSVs; the CSVs are the input)"
"$py" "$here/series.py" --check "$here" || echo "(differences above: see README.md, Re-running)"
"$py" "$here/series.py" --binary "$here" "$work"
echo "== 2. R changepoint: PELT, CROPS, exact OP"
Rscript "$here/changepoint.R" run "$work"
echo "== 3. kneed: both protocols, 0.8.6 and 0.7.0"
"$py" "$here/kneedle.py" "$work"
echo "== 4. R changepoint: PELT at the selected penalties"
Rscript "$here/changepoint.R" selected "$work"
echo "== 5. assemble and compare"
"$py" "$here/assemble.py" "$work" "$here"
