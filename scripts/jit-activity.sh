#!/usr/bin/env bash
# What the JIT compiles and deoptimises in a workload JVM, under an agent build or none: one run of a
# LibraryWorkloads workload with a second JFR recording of jdk.Compilation (every compile) and
# jdk.Deoptimization, then a summary of the C2 compiles from --after seconds on (a workload's steady
# state: the harness measures from the end of its warm-up) and of the whole run: their number and
# compile seconds, the largest by inlined bytecode, and every deoptimisation of lockscope's own code
# with its reason and line. Used to see what a change to the hooks does to the JIT (docs/agent-cost.md).
#
#   scripts/jit-activity.sh [--java PATH] [--agent JAR|none] [--threads N] [--warmup S] [--seconds S]
#                           [--after S] WORKLOAD
#
# WORKLOAD: a LibraryWorkloads name (queue-pipeline, h2, logback, log4j2, object-pool, http-server,
# derby). Defaults: the agent at agent/target/lockscope-agent.jar with its defaults (report=off), 16
# threads (queue-pipeline 4, h2 and logback 8, as the harness), --warmup 3 (http-server 30), --seconds 5,
# --after the warm-up's end. Needs bench/target/lockscope-bench.jar and Python 3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java=java
agent="$here/agent/target/lockscope-agent.jar"
threads=""
warmup=""
seconds=5
after=""
workload=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --java) java="$2"; shift 2 ;;
    --agent) agent="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --after) after="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "jit-activity: unknown option $1 (--help)" >&2; exit 2 ;;
    *) [[ -z "$workload" ]] || { echo "jit-activity: one workload at a time" >&2; exit 2; }; workload="$1"; shift ;;
  esac
done
[[ -n "$workload" ]] || { echo "jit-activity: name a workload (--help)" >&2; exit 2; }
case "$workload" in
  queue-pipeline) threads="${threads:-4}" ;;
  h2|logback) threads="${threads:-8}" ;;
  *) threads="${threads:-16}" ;;
esac
[[ "$workload" == http-server ]] && warmup="${warmup:-30}"
warmup="${warmup:-3}"
after="${after:-$warmup}"
bench="$here/bench/target/lockscope-bench.jar"
[[ -f "$bench" ]] || { echo "jit-activity: build first: $bench missing" >&2; exit 1; }
[[ "$agent" == none || -f "$agent" ]] || { echo "jit-activity: no agent jar at $agent" >&2; exit 1; }
work="$(mktemp -d -t lockscope-jit-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cat > "$work/jit.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.Compilation"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
  <event name="jdk.Deoptimization"><setting name="enabled">true</setting><setting name="stackTrace">false</setting></event>
</configuration>
JFC
profiler=()
[[ "$agent" == none ]] || profiler=("-javaagent:$agent=file=$work/agent.jfr,report=off,quiet")
echo "jit-activity: $workload, $threads threads, ${warmup} s warm-up + ${seconds} s, agent: $agent" >&2
"$java" "${profiler[@]}" "-XX:StartFlightRecording=filename=$work/jit.jfr,settings=$work/jit.jfc" \
  -cp "$bench" dev.lockscope.bench.LibraryWorkloads "$workload" "$threads" "$warmup" "$seconds" \
  > "$work/out.txt" 2>&1 || { tail -20 "$work/out.txt" >&2; exit 1; }
grep -o 'throughput: [0-9.]* ops/s' "$work/out.txt" | tail -1 || true
jfr="$(dirname "$java")/jfr"
[[ -x "$jfr" ]] || jfr=jfr
"$jfr" print --json --events jdk.Compilation,jdk.Deoptimization "$work/jit.jfr" | python3 -c '
import datetime, json, re, sys
after = float(sys.argv[1])
events = json.load(sys.stdin)["recording"]["events"]
def seconds(d):
    m = re.match(r"PT(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9.]+)S)?$", d)
    return int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + float(m.group(3) or 0) if m else 0.0
def at(e):
    return datetime.datetime.fromisoformat(e["values"]["startTime"][:26].rstrip("Z"))
def name(m):
    return m["type"]["name"].replace("/", ".") + "::" + m["name"]
t0 = min(at(e) for e in events)
c2 = [((at(e) - t0).total_seconds(), e["values"]["inlinedBytes"], seconds(e["values"]["duration"]), name(e["values"]["method"]))
      for e in events if e["type"] == "jdk.Compilation" and e["values"]["compileLevel"] == 4]
def largest(rows, n=6):
    for r in sorted(rows, key=lambda r: -r[1])[:n]:
        print("    %6.1f s  %6d B inlined  %.3f s  %s" % r)
for label, rows in (("whole run", c2), ("from %g s on" % after, [r for r in c2 if r[0] >= after])):
    print("C2 compiles, %s: %d, %.2f s of compiling, %d KB of bytecode inlined; the largest:" % (
        label, len(rows), sum(r[2] for r in rows), sum(r[1] for r in rows) / 1024))
    largest(rows)
own = [r for r in c2 if r[3].startswith("dev.lockscope.")]
print("C2 compiles of lockscope methods, whole run: %d, %.2f s; the largest:" % (len(own), sum(r[2] for r in own)))
largest(own, 10)
deopts = [((at(e) - t0).total_seconds(), name(e["values"]["method"]), e["values"]["lineNumber"], e["values"]["reason"])
          for e in events if e["type"] == "jdk.Deoptimization" and "dev/lockscope" in e["values"]["method"]["type"]["name"]]
print("deoptimisations of lockscope code: %d (%d from %g s on)" % (len(deopts), sum(d[0] >= after for d in deopts), after))
for d in deopts:
    print("    %6.1f s  %s line %s: %s" % d)
' "$after"
