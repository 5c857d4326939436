#!/usr/bin/env bash
# The README's five-minute tour: one real application (log4j2 2.24 writing one file from 16 threads,
# bench's LibraryWorkloads) under `lockscope record`, its exit output, its text report and its HTML page,
# and a screenshot of that page taken with headless Chromium.
#
#   scripts/tour.sh [OUT_DIR]     (default target/tour)
#
# Writes OUT_DIR/exit.txt (what the JVM printed at exit), OUT_DIR/report.txt (`lockscope report`),
# OUT_DIR/tour.jfr, OUT_DIR/tour.html and OUT_DIR/tour.png (1400x1000). Copy tour.png to
# docs/images/tour-log4j2.png to refresh the README's picture.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$here/target/tour}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
cli="$here/cli/target/lockscope.jar"
bench="$here/bench/target/lockscope-bench.jar"
if [[ ! -f "$cli" || ! -f "$bench" ]]; then
  (cd "$here" && mvn -B -q -ntp -DskipTests -pl cli,bench -am package)
fi
mkdir -p "$out"
rm -f "$out/tour.jfr" "$out/tour.html" "$out/tour.png"

# 16 threads, 1 s of warm-up, 3 s measured: `LibraryWorkloads NAME THREADS WARMUP_S MEASURE_S`.
"$java" -jar "$cli" record -o "$out/tour.jfr" -- \
  "$java" -cp "$bench" dev.lockscope.bench.LibraryWorkloads log4j2 16 1 3 \
  >"$out/stdout.txt" 2>"$out/exit.txt"
"$java" -jar "$cli" report "$out/tour.jfr" >"$out/report.txt"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ -x "$chromium" ]]; then
  # The page renders its sections from inline data; give the script time before the picture is taken.
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=10000 \
    --window-size=1400,1000 --screenshot="$out/tour.png" "file://$out/tour.html" >/dev/null 2>&1
else
  echo "tour: no Chromium at $chromium (set CHROMIUM); no screenshot" >&2
fi
echo "tour: wrote $out/exit.txt, $out/report.txt, $out/tour.html$([[ -f $out/tour.png ]] && echo ", $out/tour.png")" >&2
