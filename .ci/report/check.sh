#!/bin/sh
# Renders trim reports in headless Chromium at 1400 and 390 px wide, as a
# person reads them (check.js: console errors, network requests,
# horizontal overflow, a page taller than 15,000 px with everything
# folded, overlapping tick labels, titles past their plots, blank values
# in the answer, blank screenshots):
#   - the demo's report (generated JMH, go test and duet data);
#   - with ../shared: the real JMH files of ../shared/data/jmh all at once
#     and each alone, json-log-filter's 13 releases on 6 JVMs (2,214
#     benchmark runs, the largest real suite) and a real go test A/B pair
#     (rxp v0.8.0 against v0.10.0). Without ../shared they are skipped
#     with a line saying so, or with CI=true the check fails.
# Per page and width it saves NAME-WIDTH-top.png (the first screen) and
# NAME-WIDTH-run.png (one run's section opened from the index) in OUT_DIR.
# It also checks that check.js catches a page with a script error, pages
# that overflow (a wide element, a wide table without a scroll wrapper), a
# page too tall, overlapping tick labels and a blank value in the answer.
# Usage: .ci/report/check.sh [OUT_DIR]
set -e
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go build -o "$out/benchtrim" ./cmd/benchtrim
bt="$out/benchtrim"
"$bt" --quiet demo --dir "$out/demo" --only trim >/dev/null
pages="$out/demo/trim/report.html"
shared=../shared/data
if [ -d "$shared/jmh" ] && [ -d "$shared/jmh-versions/json-log-filter" ] && [ -d "$shared/gobench-versions/rxp" ]; then
	"$bt" --quiet trim --out-dir "$out/jmh-all" "$shared"/jmh/*.json >/dev/null
	pages="$pages $out/jmh-all/report.html"
	for f in "$shared"/jmh/*.json; do
		name=jmh-$(basename "$f" .json | cut -d_ -f1)
		"$bt" --quiet trim --out-dir "$out/$name" "$f" >/dev/null
		pages="$pages $out/$name/report.html"
	done
	"$bt" --quiet trim --out-dir "$out/json-log-filter" "$shared"/jmh-versions/json-log-filter/*.json >/dev/null
	"$bt" --quiet trim --out-dir "$out/rxp" "$shared"/gobench-versions/rxp/rxp-v0.8.0.txt "$shared"/gobench-versions/rxp/rxp-v0.10.0.txt >/dev/null
	pages="$pages $out/json-log-filter/report.html $out/rxp/report.html"
elif [ "${CI:-}" = true ]; then
	echo "FAIL: ../shared/data is absent: the report check on real suites cannot run (CI=true)" >&2
	exit 1
else
	echo "SKIP: ../shared/data is absent: the report is checked on the demo alone"
fi
# The page rebuilt from its folder is the page trim wrote, byte for byte.
cp "$out/demo/trim/report.html" "$out/demo-report.html"
"$bt" --quiet report "$out/demo/trim" >/dev/null
cmp "$out/demo/trim/report.html" "$out/demo-report.html"
for w in 1400 390; do
	# shellcheck disable=SC2086
	node .ci/report/check.js "$w" 15000 "$out/screens" $pages
done
# The check must catch a broken page, overflowing ones, a page too tall,
# overlapping tick labels and a blank value in the answer.
bad="$out/bad"
mkdir -p "$bad"
printf '<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction()</script></body></html>' >"$bad/broken.html"
printf '<!DOCTYPE html><html><body><p>x</p><div style="width:2000px;height:10px;background:#000"></div></body></html>' >"$bad/wide.html"
printf '<!DOCTYPE html><html><body><div style="width:300px;overflow:hidden"><table style="width:600px;background:#000"><tr><td>x</td></tr></table></div></body></html>' >"$bad/table.html"
printf '<!DOCTYPE html><html><body><div style="height:16000px;background:#000"></div></body></html>' >"$bad/tall.html"
printf '<!DOCTYPE html><html><body><div style="height:300px;background:#000"></div><svg class="plot" width="300" height="60"><text class="tick" x="10" y="30">1000</text><text class="tick" x="24" y="30">1100</text></svg></body></html>' >"$bad/ticks.html"
printf '<!DOCTYPE html><html><body><div style="height:300px;background:#000"></div><section id="answer"><p class="answer">the slowdown goes from 1.2 %% to .</p></section></body></html>' >"$bad/blank.html"
for p in broken wide table tall ticks blank; do
	if node .ci/report/check.js 390 15000 "$bad" "$bad/$p.html" 2>/dev/null; then
		echo "check.js passed the faulty page $p.html" >&2
		exit 1
	fi
done
echo "report check passed; screenshots in $out/screens"
