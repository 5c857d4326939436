#!/usr/bin/env bash
# Side-by-side overhead of agent builds: runs workloads of the overhead harness (same arguments as
# OverheadHarness) in fresh JVMs with no profiler and with each given agent jar, interleaved (one run
# of each configuration in turn, order rotated every repetition), and prints per configuration the
# median throughput, the median overhead against no profiler, the process CPU time per operation
# (user + system from /proc/<pid>/stat, last read before the JVM exits, divided by the operations
# done at the measured rate over the run's measured seconds; start-up and warm-up CPU included,
# alike in every configuration) with its overhead, 95% intervals of the medians (order statistics),
# and the median peak RSS.
#
#   scripts/compare-agents.sh [--repeats N] [--workloads lockCounter,queue-pipeline] [--java PATH]
#                             [--out FILE] NAME=AGENT.jar[@OPTIONS] [NAME=AGENT.jar[@OPTIONS] ...]
# (OPTIONS: extra agent options for that configuration, e.g. new10us=new.jar@threshold=10us)
#
# e.g. keep a copy of agent/target/lockscope-agent.jar from before a change as before.jar, then
#   scripts/compare-agents.sh --repeats 5 before=/tmp/before.jar after=agent/target/lockscope-agent.jar
# Workloads: lockCounter, syncCounter, uncontendedSync, queue-pipeline, h2, logback, and
# parkOwnBlocker-t1/-t2/-t4 (the agent's scaling check: its overhead must not grow with threads).
# Needs bench/target/lockscope-bench.jar. Raw runs go to --out (default: a temp file) as TSV.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repeats=5
workloads=lockCounter,queue-pipeline
java=java
out=""
configs=(none=none)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repeats) repeats="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --java) java="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *=*) configs+=("$1"); shift ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
done
bench="$here/bench/target/lockscope-bench.jar"
[[ -f "$bench" ]] || { echo "compare-agents: build first: $bench missing" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/lockscope-compare.XXXXXX")"
[[ -n "$out" ]] || out="$work/runs.tsv"
printf 'workload\tconfig\trepeat\tops_per_s\tpeak_rss_bytes\tcpu_seconds\tmeasured_seconds\n' > "$out"
ticks=$(getconf CLK_TCK)

run_once() { # workload config-name agent-jar repeat
  local w="$1" name="$2" jar="$3" r="$4" args=() agent=() ops peak=0 pid statm cpu=0 measured=0
  case "$w" in
    lockCounter|syncCounter) args=(-cp "$bench" org.openjdk.jmh.Main "LockMicroBenchmarks.$w\$" -f 0 -t 4
                                   -wi 1 -w 1s -i 3 -r 2s -rf json -rff "$work/jmh.json"); measured=6 ;;
    parkOwnBlocker-t[124]) args=(-cp "$bench" org.openjdk.jmh.Main "LockMicroBenchmarks.parkOwnBlocker\$" -f 0 -t "${w##*-t}"
                                 -wi 1 -w 1s -i 3 -r 2s -rf json -rff "$work/jmh.json"); measured=6 ;;
    uncontendedSync) args=(-cp "$bench" org.openjdk.jmh.Main "LockMicroBenchmarks.$w\$" -f 0 -t 1
                           -wi 1 -w 1s -i 3 -r 2s -rf json -rff "$work/jmh.json"); measured=6 ;;
    queue-pipeline) args=(-cp "$bench" dev.lockscope.bench.LibraryWorkloads queue-pipeline 4 1 5); measured=5 ;;
    h2|logback) args=(-cp "$bench" dev.lockscope.bench.LibraryWorkloads "$w" 8 1 5); measured=5 ;;
    *) echo "compare-agents: unknown workload $w" >&2; exit 2 ;;
  esac
  local extra=""
  if [[ "$jar" == *@* ]]; then extra=",${jar#*@}"; jar="${jar%%@*}"; fi
  [[ "$jar" != none ]] && agent=("-javaagent:$jar=file=$work/rec.jfr,report=off,quiet$extra")
  rm -f "$work/jmh.json"
  "$java" "${agent[@]}" "${args[@]}" > "$work/log.txt" 2>&1 &
  pid=$!
  statm="/proc/$pid/statm"
  while kill -0 "$pid" 2>/dev/null; do
    if [[ -r "$statm" ]]; then
      local rss; rss=$(awk '{print $2 * 4096}' "$statm" 2>/dev/null || echo 0)
      (( rss > peak )) && peak=$rss
      local c; c=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
      (( c > cpu )) && cpu=$c
    fi
    sleep 0.05
  done
  wait "$pid" || true
  if [[ -f "$work/jmh.json" ]]; then
    ops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["primaryMetric"]["score"])' "$work/jmh.json")
  else
    ops=$(sed -n 's/^throughput: \([0-9.]*\) ops\/s.*/\1/p' "$work/log.txt" | tail -1)
  fi
  [[ -n "$ops" ]] || { ops=nan; echo "compare-agents: $w/$name failed:" >&2; tail -5 "$work/log.txt" >&2; }
  rm -f "$work/rec.jfr"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$name" "$r" "$ops" "$peak" \
    "$(awk -v c="$cpu" -v t="$ticks" 'BEGIN {print c / t}')" "$measured" >> "$out"
  echo "compare-agents: $w $name #$r: $ops ops/s, peak RSS $((peak / 1048576)) MB" >&2
}

IFS=, read -r -a wl <<< "$workloads"
n=${#configs[@]}
for ((r = 0; r < repeats; r++)); do
  for w in "${wl[@]}"; do
    for ((c = 0; c < n; c++)); do
      cfg="${configs[$(((c + r) % n))]}"
      run_once "$w" "${cfg%%=*}" "${cfg#*=}" "$r"
    done
  done
done

python3 - "$out" <<'EOF'
import csv, math, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]), delimiter='\t')]

def median_ci(xs):
    """Median and a distribution-free ~95% interval: order statistics n/2 -+ 0.98 sqrt(n)."""
    xs = sorted(xs)
    n = len(xs)
    k = int(math.floor(0.98 * math.sqrt(n)))
    lo, hi = max(0, (n - 1) // 2 - k), min(n - 1, n // 2 + k)
    return statistics.median(xs), xs[lo], xs[hi]

def cpu_per_op(r):
    return float(r['cpu_seconds']) / (float(r['ops_per_s']) * float(r['measured_seconds']))

print(f'raw runs: {sys.argv[1]}')
print('| workload | config | N | median ops/s [95% CI] | throughput overhead | CPU ns/op [95% CI] | CPU/op overhead | median peak RSS MB |')
print('|---|---|---|---|---|---|---|---|')
for w in dict.fromkeys(r['workload'] for r in rows):
    none = [r for r in rows if r['workload'] == w and r['config'] == 'none' and r['ops_per_s'] != 'nan']
    base = statistics.median(float(r['ops_per_s']) for r in none)
    base_cpu = statistics.median(cpu_per_op(r) for r in none)
    for c in dict.fromkeys(r['config'] for r in rows):
        sel = [r for r in rows if r['workload'] == w and r['config'] == c and r['ops_per_s'] != 'nan']
        if not sel:
            continue
        med, lo, hi = median_ci([float(r['ops_per_s']) for r in sel])
        cmed, clo, chi = median_ci([cpu_per_op(r) * 1e9 for r in sel])
        rss = statistics.median(int(r['peak_rss_bytes']) for r in sel) / 1048576
        print(f'| {w} | {c} | {len(sel)} | {med:.0f} [{lo:.0f}, {hi:.0f}] | {100 * (1 - med / base):+.1f}% '
              f'| {cmed:.1f} [{clo:.1f}, {chi:.1f}] | {100 * (cmed / (base_cpu * 1e9) - 1):+.1f}% | {rss:.0f} |')
EOF
