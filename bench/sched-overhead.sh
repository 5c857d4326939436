#!/usr/bin/env bash
# Overhead of scheduling collection (perf, /proc sampler) against none, interleaved in one run.
# Usage: [BENCH_RT=1] bench/sched-overhead.sh [ROUNDS]   (builds the sched module and this harness first;
# BENCH_RT=1 runs the child at real-time priority, root only, to shield it from other load)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-15}
mvn -B -q package -DskipTests -pl sched >/dev/null
mkdir -p bench/target
javac -cp sched/target/classes -d bench/target bench/SchedOverhead.java
for w in cpu handoff; do
  java -cp sched/target/classes:bench/target SchedOverhead "$w" "$rounds"
done
