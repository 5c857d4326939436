#!/usr/bin/env bash
# Runs every test of lockscope: the whole Maven build with its unit and end-to-end tests, once on
# JDK 17 and once on JDK 25 (each run builds with that JDK and profiles workloads on that JDK).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
"$here/scripts/install-deps.sh"

jdk17="${LOCKSCOPE_JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}"
jdk25="${LOCKSCOPE_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
status=0
for jdk in "$jdk17" "$jdk25"; do
  if [[ ! -x "$jdk/bin/java" ]]; then
    echo "test.sh: no JDK at $jdk" >&2
    exit 1
  fi
  echo "=== tests on $("$jdk/bin/java" -version 2>&1 | head -1) ==="
  JAVA_HOME="$jdk" mvn -B -ntp -fae verify "$@" || status=1
done
# The lock library's memory-ordering proof: jcstress in its quick mode, every lock test passing and
# every negative control this CPU can show failing (docs/locks.md); the full run is a harness command.
if [[ $status -eq 0 ]]; then
  echo "=== lock library, jcstress quick ==="
  JAVA_HOME="$jdk17" "$here/locks-stress/run-jcstress.sh" quick || status=1
fi
# The performance harness must keep working (not be fast): one short repetition of every section,
# on the jars the builds above made; it exits non-zero when any run produced no number.
if [[ $status -eq 0 ]]; then
  echo "=== performance harness, smoke run ==="
  JAVA_HOME="$jdk17" "$jdk17/bin/java" -jar bench/target/lockscope-bench.jar --root "$here" --smoke \
    --java "$jdk17/bin/java" --out target/performance-smoke.md || status=1
fi
exit $status
