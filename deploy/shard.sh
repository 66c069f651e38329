#!/bin/sh
# One shard of a benchtrim run split over N tasks, for any scheduler that
# gives each task an index (Slurm job arrays, Kubernetes Indexed Jobs).
#
#   shard.sh K N
#
# runs  $BENCHTRIM $BENCHTRIM_COMMAND --shard K/N --partial-out $BENCHTRIM_OUT/shard-K-of-N.partial $BENCHTRIM_ARGS [$BENCHTRIM_OUT/input.parquet]
#
# BENCHTRIM          the benchtrim binary (default: benchtrim on PATH)
# BENCHTRIM_COMMAND  optimize, reconfigure, steady, duet or trim
# BENCHTRIM_ARGS     its options (white-space separated), and its input
#                    files (on the shared path every task reads) unless
#                    BENCHTRIM_INPUTS is set
# BENCHTRIM_INPUTS   when set, the input files ingest.sh read once into
#                    $BENCHTRIM_OUT/input.parquet (benchtrim ingest
#                    --by-shard), which the shard reads instead: only the
#                    row groups of its part of the benchmarks
# BENCHTRIM_OUT      shared directory for the partial files
#
# Global options (--seed, --workers, --max-rows) go into BENCHTRIM_ARGS
# after the command. The results do not depend on N: seeds come from the
# benchmark keys, and merge.sh writes the unsharded run's bytes.
set -eu
k=${1:?usage: shard.sh K N}
n=${2:?usage: shard.sh K N}
: "${BENCHTRIM_COMMAND:?set BENCHTRIM_COMMAND (optimize, reconfigure, steady, duet or trim)}"
: "${BENCHTRIM_OUT:?set BENCHTRIM_OUT to a shared directory}"
mkdir -p "$BENCHTRIM_OUT"
set --
if [ -n "${BENCHTRIM_INPUTS:-}" ]; then
	[ -f "$BENCHTRIM_OUT/input.parquet" ] || {
		echo "shard.sh: $BENCHTRIM_OUT/input.parquet is missing: run ingest.sh first (BENCHTRIM_INPUTS is set)" >&2
		exit 1
	}
	set -- "$BENCHTRIM_OUT/input.parquet"
fi
start=$(date +%s.%N)
# shellcheck disable=SC2086 # BENCHTRIM_ARGS is a word list by design
"${BENCHTRIM:-benchtrim}" --quiet "$BENCHTRIM_COMMAND" --shard "$k/$n" \
	--partial-out "$BENCHTRIM_OUT/shard-$k-of-$n.partial" ${BENCHTRIM_ARGS:-} "$@"
end=$(date +%s.%N)
# One line per shard: when it started and ended (for the overhead per shard).
echo "shard $k/$n $start $end" >> "$BENCHTRIM_OUT/shards.log"
