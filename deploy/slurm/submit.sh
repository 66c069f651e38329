#!/bin/sh
# Submits a benchtrim run split into N shards to Slurm: an ingest job
# (ingest.sbatch) that reads the inputs once into a table ordered for
# sharding, a job array of N tasks (shards.sbatch, one shard each, reading
# only its part of that table) that starts when the ingest succeeded, and
# a merge job that starts when all shards succeeded (afterok). Prints the
# job ids: shards, merge and ingest.
#
#   BENCHTRIM=/shared/bin/benchtrim BENCHTRIM_COMMAND=trim \
#   BENCHTRIM_INPUTS="/shared/in/a.json /shared/in/b.json" \
#   BENCHTRIM_ARGS="--resamples 1000" \
#   BENCHTRIM_OUT=/shared/out/run1 \
#   BENCHTRIM_MERGE_ARGS="-o /shared/out/run1/plan.csv --report /shared/out/run1/report.html" \
#   deploy/slurm/submit.sh 16 [extra sbatch options…]
#
# Without BENCHTRIM_INPUTS there is no ingest job: BENCHTRIM_ARGS then
# names the input files too, and every shard parses all of them. Every
# path must be on a file system all nodes share. Extra options (for
# example --partition, --time, --mem) go to every sbatch call.
set -eu
n=${1:?usage: submit.sh N [sbatch options…]}
shift
here=$(cd "$(dirname "$0")" && pwd)
BENCHTRIM_DEPLOY=${BENCHTRIM_DEPLOY:-$(dirname "$here")}
export BENCHTRIM_DEPLOY
: "${BENCHTRIM_OUT:?set BENCHTRIM_OUT to a shared directory}"
mkdir -p "$BENCHTRIM_OUT"
ingest=
after=
if [ -n "${BENCHTRIM_INPUTS:-}" ]; then
	ingest=$(sbatch --parsable --export=ALL --chdir="$BENCHTRIM_OUT" "$@" "$here/ingest.sbatch")
	ingest=${ingest%%;*}
	after="--dependency=afterok:$ingest"
fi
# shellcheck disable=SC2086 # $after is empty or one option
shards=$(sbatch --parsable --export=ALL --chdir="$BENCHTRIM_OUT" $after --kill-on-invalid-dep=yes --array="0-$((n - 1))" "$@" "$here/shards.sbatch")
shards=${shards%%;*}
merge=$(sbatch --parsable --export=ALL --chdir="$BENCHTRIM_OUT" --dependency="afterok:$shards" --kill-on-invalid-dep=yes "$@" "$here/merge.sbatch" "$n")
merge=${merge%%;*}
echo "$shards $merge${ingest:+ $ingest}"
