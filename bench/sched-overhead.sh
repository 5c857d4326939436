#!/usr/bin/env bash
# Overhead of scheduling collection (perf, /proc sampler) against none, interleaved in one run.
# Usage: bench/sched-overhead.sh [ROUNDS]   (builds the sched module first; run from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
mvn -B -q package -DskipTests -pl sched >/dev/null
for w in cpu handoff; do
  java -cp sched/target/classes bench/SchedOverhead.java "$w" "$rounds"
done
