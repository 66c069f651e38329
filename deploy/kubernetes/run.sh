#!/bin/sh
# Runs the ingest Job (the inputs read once into a table ordered for
# sharding), then the shards Job, waits until every index completed, then
# the merge Job, and prints the merge's output (kubectl's current context
# and namespace; the claim of shared-pvc.yaml holding the inputs).
#
#   deploy/kubernetes/run.sh [timeout in seconds, default 7200]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
timeout=${1:-7200}
# wait_job JOB: until its Complete condition (0) or Failed (1), or timeout.
wait_job() {
	t=0
	while [ "$t" -lt "$timeout" ]; do
		s=$(kubectl get job "$1" -o 'jsonpath={.status.conditions[?(@.status=="True")].type}')
		case $s in
		*Failed*) echo "job $1 failed" >&2; kubectl describe job "$1" >&2; return 1 ;;
		*Complete*) return 0 ;;
		esac
		sleep 10
		t=$((t + 10))
	done
	echo "job $1 did not finish within $timeout s" >&2
	return 1
}
kubectl delete job benchtrim-ingest benchtrim-shards benchtrim-merge --ignore-not-found
kubectl apply -f "$here/ingest.yaml"
wait_job benchtrim-ingest
kubectl apply -f "$here/shards.yaml"
wait_job benchtrim-shards
kubectl apply -f "$here/merge.yaml"
wait_job benchtrim-merge
kubectl logs job/benchtrim-merge
