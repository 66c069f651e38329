#!/bin/sh
# Renders the trim report of the demo data in headless Chromium and fails on
# console errors or a blank page (check.js): report.png is the top of the
# page, report-full.png all of it (every section, duet last). Also checks
# that check.js catches a page with a script error.
# Usage: .ci/report/check.sh [OUT_DIR]
set -e
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go run ./cmd/benchtrim --quiet demo --dir "$out/demo" --only trim >/dev/null
for page in "$out"/demo/trim/report.html; do
	node .ci/report/check.js "$page" "$out/report.png"
	node .ci/report/check.js "$page" "$out/report-full.png" 16000
done
# The check must catch a broken page.
printf '<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction()</script></body></html>' >"$out/broken.html"
if node .ci/report/check.js "$out/broken.html" "$out/broken.png" 2>/dev/null; then
	echo "check.js missed a console error" >&2
	exit 1
fi
echo "report check passed; screenshots in $out/report.png and $out/report-full.png"
