#!/bin/sh
# The ingest step before the shards of shard.sh: reads the input result
# files once into one table ordered for sharding, which every shard then
# reads only its part of.
#
#   ingest.sh
#
# runs  $BENCHTRIM --quiet ingest --by-shard -o $BENCHTRIM_OUT/input.parquet $BENCHTRIM_INPUTS
#
# BENCHTRIM          the benchtrim binary (default: benchtrim on PATH)
# BENCHTRIM_INPUTS   the input files, with ingest's input options (--format,
#                    --project, --version) if any (white-space separated;
#                    on the shared path)
# BENCHTRIM_OUT      shared directory for the table and the partial files
#
# With BENCHTRIM_INPUTS set, shard.sh reads $BENCHTRIM_OUT/input.parquet
# instead of input files in BENCHTRIM_ARGS. The table is written
# atomically: a failed ingest leaves no input.parquet behind.
set -eu
: "${BENCHTRIM_INPUTS:?set BENCHTRIM_INPUTS to the input files}"
: "${BENCHTRIM_OUT:?set BENCHTRIM_OUT to a shared directory}"
mkdir -p "$BENCHTRIM_OUT"
# shellcheck disable=SC2086 # BENCHTRIM_INPUTS is a word list by design
exec "${BENCHTRIM:-benchtrim}" --quiet ingest --by-shard -o "$BENCHTRIM_OUT/input.parquet" $BENCHTRIM_INPUTS
