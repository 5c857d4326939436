#!/usr/bin/env bash
# Runs the lock library's jcstress tests and checks both directions:
#   every test of LockStress passes, and every negative control that this CPU can catch fails.
# usage: locks-stress/run-jcstress.sh [sanity|quick|default|tough|stress] [report-dir] [extra jcstress args...]
#   quick (CI): one JVM configuration, a few minutes on 2 cores.
#   default and above: jcstress's own JVM configurations (C2 randomizers, biased locking on JDK 17).
# JAVA_HOME picks the JDK the tests run on. Builds locks-stress/target/jcstress.jar if missing.
set -euo pipefail
mode=${1:-quick}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/locks-stress/target/jcstress-$mode}
shift $(( $# < 2 ? $# : 2 ))
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jar=$root/locks-stress/target/jcstress.jar
[[ -f $jar ]] || (cd "$root" && mvn -B -q -ntp -DskipTests package -pl locks-stress -am)
extra=("$@")
if [[ $mode == quick || $mode == sanity ]]; then
  # one JVM configuration instead of jcstress's four, no split-compilation variants
  extra=(-jvmArgs "-Xmx256m" -sc false "${extra[@]}")
fi
# Store->load reordering is all x86 (TSO) shows; the contender-side controls need a weaker CPU (AArch64).
caught_here=(TasukiReleaseWithoutFence AsymmetricTasukiReleaseWithoutFence AsymmetricOwnerWithoutFence)
case $(uname -m) in aarch64|arm64|ppc64le) caught_here+=(TasukiContenderWithoutFence) ;; esac

# Small strides: every ReservationLock cancellation stops the owner once (a safepoint on JDK 17), and the
# default 40 x 256 states per round make one round outlast jcstress's timeout on a loaded 2-core machine.
extra=(-strideCount 4 "${extra[@]}")
mkdir -p "$out"
status=0
echo "jcstress $mode on $("$java" -version 2>&1 | head -1), $(uname -m), $(nproc) CPUs"
"$java" -jar "$jar" -m "$mode" -v -t 'dev\.lockscope\.locks\.LockStress' -r "$out/tests" "${extra[@]}" > "$out/tests.log" 2>&1 || true
passed=$(sed -n '/^RUN RESULTS/,$p' "$out/tests.log" | grep -oE '\[OK\] dev\S+' | sort -u | wc -l)
if ! grep -q 'Failed tests: No matches' "$out/tests.log" || ! grep -q 'Error tests: No matches' "$out/tests.log" \
    || (( passed == 0 )); then
  echo "FAIL: a lock test failed, timed out or none ran, see $out/tests.log"
  sed -n '/^RUN RESULTS/,$p' "$out/tests.log" | grep -E '\[(FAILED|ERROR|TIMEOUT|STALE)\]' | sort -u || true
  status=1
else
  echo "ok: all $passed LockStress tests passed"
fi
# A negative control shows the tests could catch the bug they guard against. Catching a reordering is
# probabilistic (AsymmetricOwnerWithoutFence went uncaught in one quick round of CI), so a control this CPU
# should catch gets up to four rounds; it fails only if no round catches it.
caught_controls=" "
pending=("${caught_here[@]}")
for round in 1 2 3 4; do
  (( ${#pending[@]} == 0 )) && break
  pattern="dev\\.lockscope\\.locks\\.NegativeControls\\.($(IFS='|'; echo "${pending[*]}"))\$"
  if (( round == 1 )); then pattern='dev\.lockscope\.locks\.NegativeControls'; fi
  log=$out/negative-controls-$round.log
  "$java" -jar "$jar" -m "$mode" -v -t "$pattern" -r "$out/negative-controls-$round" "${extra[@]}" > "$log" 2>&1 || true
  still=()
  for control in TasukiReleaseWithoutFence AsymmetricTasukiReleaseWithoutFence AsymmetricOwnerWithoutFence TasukiContenderWithoutFence; do
    if sed -n '/^RUN RESULTS/,$p' "$log" | grep -qE "\[FAILED\] dev.lockscope.locks.NegativeControls.$control\$"; then
      caught_controls+="$control "
    fi
  done
  for control in "${pending[@]}"; do [[ $caught_controls == *" $control "* ]] || still+=("$control"); done
  pending=("${still[@]+"${still[@]}"}")
  if (( ${#pending[@]} > 0 )); then echo "round $round: not caught yet: ${pending[*]}"; fi
done
for control in TasukiReleaseWithoutFence AsymmetricTasukiReleaseWithoutFence AsymmetricOwnerWithoutFence TasukiContenderWithoutFence; do
  expected=no; [[ " ${caught_here[*]} " == *" $control "* ]] && expected=yes
  caught=no; [[ $caught_controls == *" $control "* ]] && caught=yes
  echo "negative control $control: caught=$caught (expected on this CPU: $expected)"
  [[ $expected == yes && $caught == no ]] && status=1
done
exit $status
