#!/usr/bin/env bash
# Runs the lock library's JMH benchmarks on the JVM configurations issue 20 asks for and writes one CSV per
# configuration plus a markdown table (locks-bench/jmh-tables.py) under the output directory.
#   JDK 17: default (no biased locking) and -XX:+UseBiasedLocking; JDK 25: default and +UseObjectMonitorTable,
#   and the library locks on JDK 25 with native access, where they use the asymmetric fence (membarrier).
# The library locks do not depend on those flags, so the flag configurations run only the synchronized rows.
# usage: locks-bench/run-jmh.sh [out-dir] [extra JMH args, e.g. -wi 5 -i 10 -f 3 for a longer run]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/locks-bench/target/jmh}
shift $(( $# < 1 ? $# : 1 ))
jdk17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
jar=$root/locks-bench/target/locks-benchmarks.jar
[[ -f $jar ]] || (cd "$root" && mvn -B -q -ntp -DskipTests package -pl locks-bench -am)
mkdir -p "$out"
# Short runs: the numbers are for comparing rows side by side, not absolute (see docs/locks.md).
common=(-f 1 -wi 2 -i 5 -w 100ms -r 100ms -foe true "$@")
library='PrimitiveBenchmark.lock|TransitionBenchmark.firstAcquisition|ContentionBenchmark|RoundsBenchmark'
monitor='PrimitiveBenchmark.(synchronized|noLock)|TransitionBenchmark.first(Entry|MonitorEntry)'
run() { # name java jvm-args benchmark-regex jmh-args...
  local name=$1 java=$2 jvmArgs=$3 regex=$4; shift 4
  echo "== $name (lock library fence: $("$java/bin/java" $jvmArgs -cp "$jar" dev.lockscope.locks.AsymmetricFence))"
  "$java/bin/java" -jar "$jar" "$regex" "${common[@]}" -jvmArgsAppend "$jvmArgs" -rf csv -rff "$out/$name.csv" "$@" > "$out/$name.log" 2>&1
}
biased="-XX:+UseBiasedLocking -XX:BiasedLockingStartupDelay=0"
omt="-XX:+UnlockDiagnosticVMOptions -XX:+UseObjectMonitorTable"
run jdk17-library "$jdk17" "-Xmx1g" "$library"
run jdk17-synchronized "$jdk17" "-Xmx1g" "$monitor" -p kind=synchronized
run jdk17+UseBiasedLocking-synchronized "$jdk17" "-Xmx1g $biased" "$monitor|ContentionBenchmark|RoundsBenchmark" -p kind=synchronized
run jdk25-library "$jdk25" "-Xmx1g" "$library"
run jdk25+membarrier-library "$jdk25" "-Xmx1g --enable-native-access=ALL-UNNAMED" "$library"
run jdk25-synchronized "$jdk25" "-Xmx1g" "$monitor" -p kind=synchronized
run jdk25+UseObjectMonitorTable-synchronized "$jdk25" "-Xmx1g $omt" "$monitor|ContentionBenchmark|RoundsBenchmark" -p kind=synchronized
python3 "$root/locks-bench/jmh-tables.py" "$out"/*.csv > "$out/tables.md"
echo "tables: $out/tables.md"
