#!/usr/bin/env bash
# Start-up cost of the agent's boot jar placement: a two-line program run bare, with the agent (boot jar
# beside it, appended at JVM start) and with the agent jar copied alone (boot jar appended at premain,
# which turns class-data sharing off for non-JDK loaders). Prints per variant the median wall time of RUNS
# runs (taken in turn, so drift hits all alike) and the classes the JVM loaded from its CDS archive.
# Usage: scripts/startup-cost.sh [JAVA] [RUNS]; needs agent/target/ built (mvn -pl agent -am package).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java="${1:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
runs="${2:-11}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/alone"
cp "$here/agent/target/lockscope-agent.jar" "$work/alone/"
cat > "$work/Hello.java" <<'JAVA'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
"$(dirname "$java")/javac" -d "$work" "$work/Hello.java"
cd "$work"
declare -A opts=([bare]="" [beside]="-javaagent:$here/agent/target/lockscope-agent.jar=report=off"
                 [alone]="-javaagent:$work/alone/lockscope-agent.jar=report=off")
variants=(bare beside alone)
for v in "${variants[@]}"; do : > "$work/$v.ms"; done
for ((i = 0; i < runs; i++)); do
  for v in "${variants[@]}"; do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$java" ${opts[$v]} -cp "$work" Hello >/dev/null 2>&1
    echo $((($(date +%s%N) - t0) / 1000000)) >> "$work/$v.ms"
    rm -f "$work"/lockscope-*.jfr
  done
done
echo "$("$java" -version 2>&1 | head -1), $runs runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for v in "${variants[@]}"; do
  median=$(sort -n "$work/$v.ms" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  # shellcheck disable=SC2086
  shared=$("$java" ${opts[$v]} -Xlog:class+load=info -cp "$work" Hello 2>/dev/null | grep -c 'source: shared objects file' || true)
  warning=$("$java" ${opts[$v]} -cp "$work" Hello 2>&1 >/dev/null | grep -c 'VM warning' || true)
  rm -f "$work"/lockscope-*.jfr
  printf '%-7s median %5d ms   classes from the CDS archive %4d   VM warnings %d\n' "$v" "$median" "$shared" "$warning"
done
