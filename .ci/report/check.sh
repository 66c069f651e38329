#!/bin/sh
# Renders the trim report of the demo data in headless Chromium and fails on
# console errors or a blank page (check.js). Also checks that check.js
# catches a page with a script error. Usage: .ci/report/check.sh [OUT_DIR]
set -e
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go run ./cmd/benchtrim --quiet demo --dir "$out/demo" --only trim >/dev/null
for page in "$out"/demo/trim/report.html; do
	node .ci/report/check.js "$page" "$out/report.png"
done
# The check must catch a broken page.
printf '<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction()</script></body></html>' >"$out/broken.html"
if node .ci/report/check.js "$out/broken.html" "$out/broken.png" 2>/dev/null; then
	echo "check.js missed a console error" >&2
	exit 1
fi
echo "report check passed; screenshot in $out/report.png"
