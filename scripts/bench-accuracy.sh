#!/usr/bin/env bash
# Writes the "## Accuracy" section for docs/PERFORMANCE.md (default: bench/target/accuracy.md; --out FILE):
# builds lockscope, then runs the accuracy harness (ground-truth lock workloads that time every
# acquisition themselves, in fresh JVMs under lockscope, JFR and async-profiler; each tool's wait
# totals, hold-time estimates and owner shares against the workload's own numbers). Arguments go to
# the harness: --repeats N (default 3), --smoke (one short repetition), --out FILE, --java PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mvn -B -q -ntp -DskipTests package
out=(--out bench/target/accuracy.md)
for a in "$@"; do
    if [[ "$a" == --out ]]; then out=(); fi
done
exec java -cp bench/target/lockscope-bench.jar dev.lockscope.bench.AccuracyHarness --root "$here" "${out[@]}" "$@"
