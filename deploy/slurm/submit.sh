#!/bin/sh
# Submits a benchtrim run split into N shards to Slurm: a job array of N
# tasks (shards.sbatch, one shard each) and a merge job that starts when
# all of them succeeded (afterok). Prints the two job ids.
#
#   BENCHTRIM=/shared/bin/benchtrim BENCHTRIM_COMMAND=trim \
#   BENCHTRIM_ARGS="--resamples 1000 /shared/in/a.json /shared/in/b.json" \
#   BENCHTRIM_OUT=/shared/out/run1 \
#   BENCHTRIM_MERGE_ARGS="-o /shared/out/run1/plan.csv --report /shared/out/run1/report.html" \
#   deploy/slurm/submit.sh 16 [extra sbatch options…]
#
# Every path must be on a file system all nodes share. Extra options (for
# example --partition, --time, --mem) go to both sbatch calls.
set -eu
n=${1:?usage: submit.sh N [sbatch options…]}
shift
here=$(cd "$(dirname "$0")" && pwd)
BENCHTRIM_DEPLOY=${BENCHTRIM_DEPLOY:-$(dirname "$here")}
export BENCHTRIM_DEPLOY
: "${BENCHTRIM_OUT:?set BENCHTRIM_OUT to a shared directory}"
mkdir -p "$BENCHTRIM_OUT"
shards=$(sbatch --parsable --export=ALL --chdir="$BENCHTRIM_OUT" --array="0-$((n - 1))" "$@" "$here/shards.sbatch")
shards=${shards%%;*}
merge=$(sbatch --parsable --export=ALL --chdir="$BENCHTRIM_OUT" --dependency="afterok:$shards" --kill-on-invalid-dep=yes "$@" "$here/merge.sbatch" "$n")
merge=${merge%%;*}
echo "$shards $merge"
