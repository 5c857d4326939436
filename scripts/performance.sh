#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md whole (and the raw numbers beside it, docs/performance-data.tsv): builds lockscope, then measures, in this one run, the overhead of
# every profiler configuration on every workload (fresh JVMs, configurations interleaved), the
# accuracy against ground-truth workloads, and the analysis speed on 10 MB/100 MB/1 GB recordings.
# Arguments go to the harness (--help lists them): --repeats N (default 5), --smoke (one short
# repetition of everything, what CI runs; exits non-zero when a run produced no number),
# --only SECTION,..., --out FILE, --java PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mvn -B -q -ntp -DskipTests package
exec java -jar bench/target/lockscope-bench.jar --root "$here" "$@"
