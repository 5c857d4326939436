#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md: builds lockscope, then runs the overhead harness (every workload in
# fresh JVMs under no profiler, lockscope, JFR and async-profiler, interleaved). Arguments go to the
# harness: --repeats N (default 5), --smoke (one short repetition; what CI runs), --out FILE, --java PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mvn -B -q -ntp -DskipTests package
exec java -jar bench/target/lockscope-bench.jar --root "$here" "$@"
