#!/bin/sh
# Makes the reference of TestPAIndicesReproducePA: two pa-format versions
# of a generated suite and pa's own output on them.
#
#   sh make.sh BENCHTRIM PA
#
# BENCHTRIM is a benchtrim binary, PA the pa binary built from its public
# source: git clone https://github.com/chrstphlbr/pa (v0.1.0, commit
# c301e7c) && cd pa && go build -mod=vendor -o pa .
#
# v1.csv: `benchtrim generate --format pa` (seed 1), 2 methods × 2 sizes,
# 3 instances × 3 trials × 5 forks × 10 iterations; v2.csv: the same with seed 2, each benchmark
# rescaled to v1's mean, then every second benchmark × 1.03. Both sorted by
# benchmark and params, as pa requires. pa-out.csv: pa's two-version
# analysis, 10,000 resamples, 99 % (its defaults). pa seeds its random
# numbers from the clock, so a re-run differs within bootstrap noise.
set -eu
bt=$1
pa=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bt" -q generate --format pa --benchmarks 2 --forks 5 --iterations 10 --version v1 -o "$tmp/a.csv"
"$bt" -q --seed 2 generate --format pa --benchmarks 2 --forks 5 --iterations 10 --version v2 -o "$tmp/b.csv"
for f in a b; do
	(head -1 "$tmp/$f.csv"; tail -n +2 "$tmp/$f.csv" | sort -t';' -k3,3 -k4,4 -s) > "$tmp/${f}s.csv"
done
cp "$tmp/as.csv" v1.csv
awk -F';' 'BEGIN { OFS = ";" }
	FNR == 1 { next }
	NR == FNR { k = $3 ";" $4; s1[k] += $12; n1[k]++; next }
	{ k = $3 ";" $4; s2[k] += $12; n2[k]++ }
	END { for (k in s1) print k, (s1[k] / n1[k]) / (s2[k] / n2[k]) }' "$tmp/as.csv" "$tmp/bs.csv" > "$tmp/scale.txt"
awk -F';' 'BEGIN { OFS = ";" }
	NR == FNR { split($0, a, ";"); sc[a[1] ";" a[2]] = a[3]; next }
	FNR == 1 { print; next }
	{ k = $3 ";" $4; if (!(k in fac)) { j++; fac[k] = (j % 2 == 0) ? 1.03 : 1.0 }
	  $12 = sprintf("%.6e", $12 * sc[k] * fac[k]); print }' "$tmp/scale.txt" "$tmp/bs.csv" > v2.csv
"$pa" -bs 10000 -sl 0.01 v1.csv v2.csv > pa-out.csv
