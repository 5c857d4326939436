#!/usr/bin/env bash
# Side-by-side overhead of agent builds, in the performance harness: the overhead section with no
# profiler and each given agent jar as configurations, interleaved (one run of each in turn, the
# order rotated every repetition), reporting per configuration the median throughput and the process
# CPU time per operation, each with its overhead against no profiler and a 95% interval of the
# median, and the peak RSS (see docs/PERFORMANCE.md's Overhead section for the method), and each
# jar's CPU per operation against the first jar's run of the same repetition (paired by repetition).
#
#   scripts/compare-agents.sh [--repeats N] [--workloads lockCounter,queue-pipeline] [--java PATH]
#                             [--out FILE] NAME=AGENT.jar[@OPTIONS] [NAME=AGENT.jar[@OPTIONS] ...]
# (OPTIONS: extra agent options for that configuration, e.g. new10us=new.jar@threshold=10us)
#
# e.g. keep a copy of agent/target/lockscope-agent.jar from before a change as before.jar, then
#   scripts/compare-agents.sh --repeats 5 before=/tmp/before.jar after=agent/target/lockscope-agent.jar
# Workloads: any of the harness's (--help of scripts/performance.sh), e.g. lockCounter, syncCounter,
# uncontendedSync, queue-pipeline, h2, logback, log4j2, object-pool, http-server, derby, and
# parkOwnBlocker-t1/-t2/-t4 (the agent's scaling check: its overhead must not grow with threads).
# Needs bench/target/lockscope-bench.jar. Writes the Markdown to --out (default: a temp file) and prints it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
args=(--only overhead --configs none --repeats 5 --workloads lockCounter,queue-pipeline)
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repeats|--workloads|--java) args+=("$1" "$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *=*) args+=(--agent "$1"); shift ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
bench="$here/bench/target/lockscope-bench.jar"
[[ -f "$bench" ]] || { echo "compare-agents: build first: $bench missing" >&2; exit 1; }
[[ -n "$out" ]] || out="$(mktemp "${TMPDIR:-/tmp}/lockscope-compare.XXXXXX.md")"
java -jar "$bench" --root "$here" "${args[@]}" --out "$out"
cat "$out"
