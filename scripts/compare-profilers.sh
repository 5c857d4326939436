#!/usr/bin/env bash
# How far lockscope's CPU profile agrees with async-profiler's cpu profile of the same run (issue 21):
# one JVM runs a bench workload with both the lockscope agent (JFR execution samples, recorded waits)
# and async-profiler 4.2 (the copy bench/target/async-profiler.jar carries; its own JFR writer), then
# `lockscope diff` compares the two profiles: degree of overlap and hot-edge coverage both ways, per
# thread group (Hofer §3.4; the thesis's SFS/AGCT agreement was above 70% for 17 of 25 benchmarks).
# async-profiler walks no native stacks here (cstack=no), but its JIT compiler and GC threads have no
# counterpart in JFR's Java samples, so the row to read is the workload's thread group (bench-*).
#
#   scripts/compare-profilers.sh [--workload h2|logback|queue-pipeline] [--seconds N] [--interval DURATION]
#                                [--out DIR]
#
# Only cpu: async-profiler writes wall-clock samples as its own event type, and its wall stacks end in
# the park/wait natives where lockscope's end in a leaf naming the lock, so their call paths differ.
#
# Needs cli/target/lockscope.jar and bench/target/lockscope-bench.jar
# (mvn -B -q -pl cli,bench -am package -DskipTests).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
workload=h2
seconds=30
interval=10ms
out="$here/target/compare-profilers"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workload) workload="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --interval) interval="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) sed -n '2,17p' "$0" >&2; exit 2 ;;
  esac
done
cli="$here/cli/target/lockscope.jar"
bench="$here/bench/target/lockscope-bench.jar"
for jar in "$cli" "$bench" "$here/bench/target/async-profiler.jar"; do
  [[ -f "$jar" ]] || { echo "compare-profilers: build first: $jar missing" >&2; exit 1; }
done
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
mkdir -p "$out"
lib="$out/libasyncProfiler.so"
[[ -f "$lib" ]] || unzip -p "$here/bench/target/async-profiler.jar" linux-x64/libasyncProfiler.so > "$lib"
ours="$out/$workload-lockscope.jfr"
theirs="$out/$workload-async-profiler-cpu.jfr"
rm -f "$ours" "$theirs"
"$java" -jar "$cli" record --no-html --cpu-samples "$interval" -o "$ours" -- \
  "$java" "-agentpath:$lib=start,event=cpu,interval=$interval,cstack=no,file=$theirs,jfr" \
  -cp "$bench" dev.lockscope.bench.LibraryWorkloads "$workload" 4 1 "$seconds" >"$out/record.log" 2>&1 \
  || { cat "$out/record.log" >&2; exit 1; }
"$java" -jar "$cli" diff "$ours" "$theirs" --top 5 2>/dev/null
