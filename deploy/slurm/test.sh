#!/bin/bash
# Integration test of the Slurm recipe (submit.sh, ingest.sbatch,
# shards.sbatch, merge.sbatch) on a real single-node Slurm on this
# machine: installs Debian's slurm-wlm and munge when missing (as root,
# with apt-get), starts munged (unless munge already works), slurmctld and
# slurmd on localhost with the test's own slurm.conf, runs benchtrim trim
# on a generated suite unsharded and as an ingest job (the inputs read
# once into a table ordered for sharding), a 3-task job array reading its
# parts and a merge job, and checks that the merged outputs equal the
# unsharded run's byte for byte. It prints the time each shard took and
# the overhead per shard.
#
# Exit status:
#   0  the outputs are equal; or Slurm cannot be installed here (not root,
#      no apt-get, apt-get failed) and CI is not "true": the script says so
#      on a line starting with "SLURM TEST SKIPPED: cannot install Slurm";
#   1  the recipe ran and the outputs differ or a job failed; munge, the
#      test's slurm.conf or the daemons failed ("SLURM TEST FAILED: the
#      recipe's slurm.conf or daemons failed: …"), in CI or not; or, with
#      CI=true, Slurm cannot be installed ("SLURM TEST FAILED: cannot
#      install Slurm: …"): CI cannot pass by skipping.
# deploy/slurm_test.go checks the two failure classes with stub commands.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
n=${BENCHTRIM_SLURM_SHARDS:-3}
# cannot_install: Slurm is not there and cannot be installed or started
# here; a skip outside CI, a failure in CI.
cannot_install() {
	if [ "${CI:-}" = true ]; then
		echo "SLURM TEST FAILED: cannot install Slurm: $* (CI=true: the Slurm test must run)"
		exit 1
	fi
	echo "SLURM TEST SKIPPED: cannot install Slurm: $*"
	exit 0
}
# recipe_failed: Slurm is installed but munge, the test's slurm.conf or
# the daemons did not work: always a failure.
recipe_failed() {
	echo "SLURM TEST FAILED: the recipe's slurm.conf or daemons failed: $*"
	exit 1
}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		cannot_install "slurm-wlm and munge are not installed and this is not a root Debian shell to install them"
	fi
	echo "installing slurm-wlm and munge (apt-get, at most 5 minutes)"
	t0=$(date +%s)
	export DEBIAN_FRONTEND=noninteractive
	if ! timeout 300 apt-get install -y -q --no-install-recommends slurm-wlm munge >/tmp/benchtrim-slurm-apt.log 2>&1; then
		timeout 120 apt-get update -q >>/tmp/benchtrim-slurm-apt.log 2>&1 || true
		timeout 300 apt-get install -y -q --no-install-recommends slurm-wlm munge >>/tmp/benchtrim-slurm-apt.log 2>&1 ||
			{ tail -5 /tmp/benchtrim-slurm-apt.log; cannot_install "apt-get install slurm-wlm munge failed (log above)"; }
	fi
	echo "installed in $(($(date +%s) - t0)) s: $(slurmctld -V)"
fi
[ "$(id -u)" = 0 ] || cannot_install "Slurm is installed but its daemons need root to start, and this shell is not root"

work=$(mktemp -d "${TMPDIR:-/tmp}/benchtrim-slurm.XXXXXX")
conf=$work/etc
mkdir -p "$conf" "$work/spool/ctld" "$work/spool/d" "$work/log" "$work/shared"
host=$(hostname -s)
cpus=$(nproc)

# munge: unless it already authenticates, a key and a socket of our own,
# the daemon as the munge user when there is one.
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	echo "munge: already running"
else
	mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
	if [ ! -s /etc/munge/munge.key ]; then
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
	fi
	mu=root
	id munge >/dev/null 2>&1 && mu=munge
	chown -R "$mu" /etc/munge /var/lib/munge /var/log/munge /run/munge
	chmod 700 /etc/munge /var/lib/munge /var/log/munge
	chmod 600 /etc/munge/munge.key
	chmod 755 /run/munge
	if ! pgrep -x munged >/dev/null; then
		if [ "$mu" = munge ]; then
			runuser -u munge -- munged || recipe_failed "munged did not start"
		else
			munged --force || recipe_failed "munged did not start"
		fi
	fi
	munge -n | unmunge >/dev/null || recipe_failed "munge does not authenticate"
fi

cat >"$conf/slurm.conf" <<CONF
ClusterName=benchtrim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/spool/ctld
SlurmdSpoolDir=$work/spool/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf/slurm.conf
cleanup() {
	[ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null || true
	[ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null || true
}
trap cleanup EXIT
slurmctld -i || { tail -20 "$work/log/slurmctld.log" 2>/dev/null || true; recipe_failed "slurmctld did not start with $conf/slurm.conf (log above)"; }
slurmd || { tail -20 "$work/log/slurmd.log" 2>/dev/null || true; recipe_failed "slurmd did not start with $conf/slurm.conf (log above)"; }
for i in $(seq 60); do
	state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
	case $state in idle*|mix*|alloc*) break ;; esac
	sleep 1
done
case $state in idle*|mix*|alloc*) echo "slurm: node $host ($cpus CPUs) $state" ;;
*)
	tail -10 "$work/log/slurmctld.log" "$work/log/slurmd.log" 2>/dev/null || true
	recipe_failed "the node did not come up (state '$state'; logs above)"
	;;
esac

# The run: a generated suite of long forks (steady-state detection) and a
# second version (comparison), on the "shared" path.
bin=$work/shared/benchtrim
(cd "$repo" && go build -o "$bin" ./cmd/benchtrim)
in=$work/shared/in
mkdir -p "$in"
"$bin" --quiet --seed 3 generate --benchmarks 12 --forks 3 --iterations 400 -o "$in/proj-v1.json"
"$bin" --quiet --seed 4 generate --benchmarks 12 --forks 3 --iterations 400 --version v2 -o "$in/proj-v2.json"
inputs="$in/proj-v1.json $in/proj-v2.json"
args="--resamples 1000"
whole=$work/shared/whole
mkdir -p "$whole"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
"$bin" --quiet trim $args $inputs -o "$whole/plan.csv" --commands-out "$whole/commands.sh" --report "$whole/report.html" >"$whole/stdout.txt"
t1=$(date +%s.%N)

out=$work/shared/sharded
mkdir -p "$out"
ids=$(BENCHTRIM="$bin" BENCHTRIM_COMMAND=trim BENCHTRIM_INPUTS="$inputs" BENCHTRIM_ARGS="$args" BENCHTRIM_OUT="$out" \
	BENCHTRIM_MERGE_ARGS="-o $out/plan.csv --commands-out $out/commands.sh --report $out/report.html" \
	"$repo/deploy/slurm/submit.sh" "$n")
submitted=$(date +%s.%N)
read -r shards merge ingest <<<"$ids"
[ -n "$ingest" ] || { echo "FAIL: submit.sh queued no ingest job (BENCHTRIM_INPUTS is set)"; exit 1; }
echo "submitted ingest job $ingest, array job $shards (0-$((n - 1))) and merge job $merge"
for i in $(seq 600); do
	[ -z "$(squeue -h -j "$ingest,$shards,$merge" 2>/dev/null)" ] && break
	sleep 1
done
done_at=$(date +%s.%N)
[ -z "$(squeue -h -j "$ingest,$shards,$merge" 2>/dev/null)" ] || { squeue; echo "FAIL: jobs still queued after 10 minutes"; exit 1; }
[ -s "$out/input.parquet" ] || { echo "FAIL: the ingest job wrote no $out/input.parquet"; exit 1; }
cat "$out/benchtrim-merge.log" >"$out/stdout.txt" 2>/dev/null || true
status=0
for f in plan.csv commands.sh report.html; do
	if cmp -s "$whole/$f" "$out/$f"; then
		echo "ok: $f of the $n merged shards equals the unsharded run's ($(wc -c <"$out/$f") bytes)"
	else
		echo "FAIL: $f differs from the unsharded run's"
		status=1
	fi
done
if ! diff <(sed "s#$whole#OUT#g" "$whole/stdout.txt") <(grep -v '^merge: ' "$out/stdout.txt" | sed "s#$out#OUT#g"); then
	echo "FAIL: the merge job's text differs from the unsharded run's"
	status=1
else
	echo "ok: the merge job printed the unsharded run's text"
fi
for k in $(seq 0 $((n - 1))); do
	grep -q . "$out/benchtrim-shard-$k.log" 2>/dev/null && sed "s/^/shard $k: /" "$out/benchtrim-shard-$k.log"
done
# Overhead: every shard reads its part of the ingested table (the row
# groups of its benchmarks) and analyses 1/N of the benchmarks.
awk -v t0="$t0" -v t1="$t1" -v subm="$submitted" -v fin="$done_at" -v n="$n" '
	{ d = $4 - $3; sum += d; if (first == "" || $3 < first) first = $3; if ($4 > last) last = $4
	  printf "shard %s took %.2f s\n", $2, d }
	END {
		whole = t1 - t0
		printf "unsharded trim: %.2f s; %d shards: %.2f s of task time in all (%.2f× the unsharded run), overhead %.2f s per shard\n", whole, n, sum, sum / whole, (sum - whole) / n
		printf "slurm: %.2f s from submit to the first shard, %.2f s from submit to the merged output (wall)\n", first - subm, fin - subm
	}' "$out/shards.log"
exit $status
