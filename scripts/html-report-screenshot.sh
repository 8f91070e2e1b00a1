#!/usr/bin/env bash
# Renders an HTML report in headless Chromium (Debian's 'chromium').
#
#   scripts/html-report-screenshot.sh REPORT.html OUT.png [WIDTHxHEIGHT]
#   scripts/html-report-screenshot.sh --dom REPORT.html[#check=ID]
#
# The first form writes a PNG of the page as a browser shows it (the
# screenshot in docs/images/html-report.png is
#   build/bin/cuda-async-lint --format=html -o /tmp/r.html examples/*.cu \
#     examples/*.cpp
#   scripts/html-report-screenshot.sh /tmp/r.html docs/images/html-report.png
# ); the second prints the DOM after the page's script ran, for tests.
set -euo pipefail

CHROMIUM=${CHROMIUM:-chromium}
# A profile of its own, so that runs never share or leave browser state.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars
       --no-first-run --user-data-dir="$profile")

url() {
  local path=${1%%#*} hash=""
  [[ $1 == *#* ]] && hash="#${1#*#}"
  echo "file://$(realpath "$path")$hash"
}

if [ "${1:-}" = "--dom" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --dom REPORT.html[#hash]" >&2; exit 2; }
  # The wrapper script of Debian's package prints a shell complaint on
  # some machines; only the DOM goes to stdout.
  exec "$CHROMIUM" "${flags[@]}" --dump-dom "$(url "$2")" 2>/dev/null
fi

[ $# -ge 2 ] || { echo "usage: $0 REPORT.html OUT.png [WIDTHxHEIGHT]" >&2; exit 2; }
size=${3:-1200x1500}
out=$(realpath -m "$2")
"$CHROMIUM" "${flags[@]}" --window-size="${size/x/,}" \
  --screenshot="$out" "$(url "$1")" >/dev/null 2>&1
[ -s "$out" ] || { echo "$0: chromium wrote no screenshot" >&2; exit 1; }
