#!/bin/sh
# Renders two trim reports in headless Chromium at 1400 and 390 px wide
# (check.js) and fails on console errors, network requests, horizontal
# overflow (every <details> unfolded) or a blank page:
#   - the demo's report: report-WIDTH.png is the top of the page,
#     report-full-WIDTH.png all of it (every section, duet last);
#   - the page of reports/report's TestDistributions (a two-version suite
#     with the distributions section, which the demo's trim does not
#     write): distributions-WIDTH.png.
# Also checks that check.js catches a page with a script error and pages
# that overflow (a wide element, a wide table without a scroll wrapper).
# Usage: .ci/report/check.sh [OUT_DIR]
set -e
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go run ./cmd/benchtrim --quiet demo --dir "$out/demo" --only trim >/dev/null
go test ./reports/report -run '^TestDistributions$' -count=1 -args -page-out="$out/distributions.html" >/dev/null
for w in 1400 390; do
	node .ci/report/check.js "$out/demo/trim/report.html" "$out/report-$w.png" 2400 "$w"
	node .ci/report/check.js "$out/demo/trim/report.html" "$out/report-full-$w.png" 16000 "$w"
	node .ci/report/check.js "$out/distributions.html" "$out/distributions-$w.png" 16000 "$w"
done
# The check must catch a broken page and overflowing ones.
printf '<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction()</script></body></html>' >"$out/broken.html"
printf '<!DOCTYPE html><html><body><p>x</p><div style="width:2000px;height:10px;background:#000"></div></body></html>' >"$out/wide.html"
printf '<!DOCTYPE html><html><body><div style="width:300px;overflow:hidden"><table style="width:600px;background:#000"><tr><td>x</td></tr></table></div></body></html>' >"$out/table.html"
for bad in broken wide table; do
	if node .ci/report/check.js "$out/$bad.html" "$out/$bad.png" 2400 390 2>/dev/null; then
		echo "check.js passed the faulty page $bad.html" >&2
		exit 1
	fi
done
echo "report check passed; screenshots in $out: report-{1400,390}.png, report-full-{1400,390}.png, distributions-{1400,390}.png"
