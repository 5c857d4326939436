#!/usr/bin/env bash
# Runs a workload under the agent again and again, several runs side by side, to find rare hangs and
# failures: a run that has not ended after --limit seconds is counted as hung, its threads dumped
# (jcmd Thread.dump_to_file, virtual threads included) and killed; a run that exits non-zero (or, for the
# default workload, without its "truth-total wait" line) is counted as failed and its output kept.
#
#   scripts/hang-loop.sh [--runs N] [--parallel P] [--limit SECONDS] [--java PATH] [--agent JAR]
#                        [--demo JAR] [--out DIR] [-- MAIN ARGS...]
#
# Defaults: 300 runs (in all), 3 side by side, 60 s, JDK 25 ($LOCKSCOPE_JDK25 or
# /usr/lib/jvm/temurin-25-jdk-amd64), agent/target/lockscope-agent.jar, demo/target/lockscope-demo.jar's
# dev.lockscope.demo.VirtualThreadContention sync (8 virtual threads blocking on one monitor).
# Prints each hung or failed run as it ends, progress every 25 runs, and the totals; exits 1 when any
# run hung or failed.
# Needs the demo jar (demo/target/lockscope-demo.jar) and the agent jar built (mvn package).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=300
parallel=3
limit=60
java="${LOCKSCOPE_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
agent="$here/agent/target/lockscope-agent.jar"
demo="$here/demo/target/lockscope-demo.jar"
out=""
main=(dev.lockscope.demo.VirtualThreadContention sync)
expect="truth-total wait"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --limit) limit="$2"; shift 2 ;;
    --java) java="$2"; shift 2 ;;
    --agent) agent="$2"; shift 2 ;;
    --demo) demo="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; main=("$@"); expect=""; break ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
  esac
done
for f in "$java" "$agent" "$demo"; do
  [[ -e "$f" ]] || { echo "hang-loop: no $f (build with mvn package)" >&2; exit 2; }
done
jcmd="$(dirname "$java")/jcmd"
out="${out:-$(mktemp -d -t lockscope-hang-loop.XXXXXX)}"
mkdir -p "$out"
echo "hang-loop: $runs runs of ${main[*]}, $parallel at a time, ${limit}s limit; agent $agent; output in $out"

# One run: prints "ok", "failed" or "hung".
one() {
  local i=$1 dir="$out/run-$1"
  mkdir -p "$dir"
  "$java" "-javaagent:$agent=file=$dir/r.jfr,report=off" -cp "$demo" "${main[@]}" > "$dir/log" 2>&1 &
  local pid=$! ticks=$((limit * 10))
  while ((ticks-- > 0)) && kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    "$jcmd" "$pid" Thread.dump_to_file -format=text "$dir/threads.txt" > /dev/null 2>&1 || true
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "hung"
    return
  fi
  local rc=0
  wait "$pid" || rc=$?
  if [[ $rc -eq 0 ]] && { [[ -z "$expect" ]] || grep -q "$expect" "$dir/log"; }; then
    rm -rf "$dir"
    echo "ok"
  else
    echo "failed"
  fi
}

ok=0 hung=0 failed=0
results="$out/results"
: > "$results"
lane() {
  local i
  while read -r i; do
    echo "$i $(one "$i")" >> "$results"
  done
}
# Runs are dealt to the lanes in turn; each lane runs its share one after another.
for ((p = 0; p < parallel; p++)); do
  seq $((p + 1)) "$parallel" "$runs" | lane &
done
shown=0 reported=0
while :; do
  done_runs=$(wc -l < "$results")
  while ((shown < done_runs)); do
    shown=$((shown + 1))
    line=$(sed -n "${shown}p" "$results")
    case "${line#* }" in
      ok) ok=$((ok + 1)) ;;
      hung) hung=$((hung + 1)); echo "hang-loop: run ${line%% *} hung: $out/run-${line%% *}/threads.txt" ;;
      *) failed=$((failed + 1)); echo "hang-loop: run ${line%% *} failed: $out/run-${line%% *}/log" ;;
    esac
  done
  if ((shown >= runs)); then
    break
  fi
  if ((shown != reported && shown % 25 == 0)); then
    reported=$shown
    echo "hang-loop: $shown of $runs done (ok $ok, hung $hung, failed $failed)"
  fi
  sleep 1
done
wait
echo "hang-loop: $runs runs: ok $ok, hung $hung, failed $failed"
[[ $hung -eq 0 && $failed -eq 0 ]]
