#!/bin/sh
# The merge step after every shard of shard.sh finished:
#
#   merge.sh N
#
# runs  $BENCHTRIM merge $BENCHTRIM_OUT/shard-*-of-N.partial $BENCHTRIM_MERGE_ARGS
#
# BENCHTRIM_MERGE_ARGS are the command's output flags (-o, --report, …)
# with paths on the shared directory. benchtrim merge refuses an
# incomplete set of shards, so a failed task cannot go unnoticed.
set -eu
n=${1:?usage: merge.sh N}
: "${BENCHTRIM_OUT:?set BENCHTRIM_OUT to the shards' directory}"
set --
k=0
while [ "$k" -lt "$n" ]; do
	set -- "$@" "$BENCHTRIM_OUT/shard-$k-of-$n.partial"
	k=$((k + 1))
done
# shellcheck disable=SC2086
exec "${BENCHTRIM:-benchtrim}" merge "$@" ${BENCHTRIM_MERGE_ARGS:-}
