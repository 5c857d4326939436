#!/usr/bin/env bash
# Runs the lock library's jcstress tests and checks both directions:
#   every test of LockStress passes, and every negative control that this CPU can catch fails.
# usage: locks-stress/run-jcstress.sh [sanity|quick|default|tough|stress] [report-dir] [extra jcstress args...]
#   quick (CI): one JVM configuration, a few minutes on 2 cores.
#   default and above: jcstress's own JVM configurations (C2 randomizers, biased locking on JDK 17).
# JAVA_HOME picks the JDK the tests run on. Builds locks-stress/target/jcstress.jar if missing.
# LOCKS_FENCE=membarrier runs the test JVMs with --enable-native-access=ALL-UNNAMED, so that on JDK 22+ the
# locks use the asymmetric fence (membarrier); the script fails if that JVM does not. Default: the volatile form.
set -euo pipefail
mode=${1:-quick}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/locks-stress/target/jcstress-$mode}
shift $(( $# < 2 ? $# : 2 ))
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jar=$root/locks-stress/target/jcstress.jar
[[ -f $jar ]] || (cd "$root" && mvn -B -q -ntp -DskipTests package -pl locks-stress -am)
extra=("$@")
native=()
[[ ${LOCKS_FENCE:-volatile} == membarrier ]] && native=(--enable-native-access=ALL-UNNAMED)
if [[ $mode == quick || $mode == sanity ]]; then
  # one JVM configuration instead of jcstress's four, no split-compilation variants
  extra=(-jvmArgs "-Xmx256m ${native[*]}" -sc false "${extra[@]}")
elif (( ${#native[@]} > 0 )); then
  extra=(-jvmArgsPrepend "${native[*]}" "${extra[@]}")
fi
fence=$("$java" "${native[@]}" -cp "$jar" dev.lockscope.locks.AsymmetricFence)
if [[ ${LOCKS_FENCE:-volatile} == membarrier && $fence != membarrier ]]; then
  case $fence in
    *kernel*|*"membarrier is Linux"*|*"registration failed"*)  # the machine cannot, not a mistake here
      echo "skipped: LOCKS_FENCE=membarrier, but this machine offers no membarrier: $fence"; exit 0 ;;
  esac
  echo "FAIL: LOCKS_FENCE=membarrier but this JVM's locks use: $fence"; exit 1
fi
all_controls=(TasukiReleaseWithoutFence AsymmetricTasukiReleaseWithoutFence AsymmetricOwnerWithoutFence
  TasukiContenderWithoutFence AsymmetricOtherWithoutFence TasukiContenderReordered AsymmetricOtherReordered
  ReservationWithoutOwnerStop)
# Store->load reordering is all x86 (TSO) shows. With the volatile form the two contender/non-owner-side
# controls remove a fence that is a CAS (a locked instruction on x86 whatever the access mode), so only a
# weaker CPU (AArch64) can show them; with membarrier the other side has no fence, so x86 shows them too.
caught_here=(TasukiReleaseWithoutFence AsymmetricTasukiReleaseWithoutFence AsymmetricOwnerWithoutFence
  TasukiContenderReordered AsymmetricOtherReordered ReservationWithoutOwnerStop)
if [[ $fence == membarrier ]]; then
  caught_here+=(TasukiContenderWithoutFence AsymmetricOtherWithoutFence)
else
  case $(uname -m) in aarch64|arm64|ppc64le) caught_here+=(TasukiContenderWithoutFence AsymmetricOtherWithoutFence) ;; esac
fi

# Small strides: every ReservationLock cancellation stops the owner once (a safepoint on JDK 17), and the
# default 40 x 256 states per round make one round outlast jcstress's timeout on a loaded 2-core machine.
extra=(-strideCount 4 "${extra[@]}")
mkdir -p "$out"
status=0
echo "jcstress $mode on $("$java" -version 2>&1 | head -1), $(uname -m), $(nproc) CPUs; fence: $fence"
# One jcstress run for the tests and the negative controls: jcstress interleaves them, so a long run cut
# short still has results of both (locks-stress/summarize-run.py reads a run's progress lines).
"$java" -jar "$jar" -m "$mode" -v -t 'dev\.lockscope\.locks\.(LockStress|NegativeControls)' -r "$out/tests" "${extra[@]}" \
  > "$out/tests.log" 2>&1 || true
verdicts() { sed -n '/^RUN RESULTS/,$p' "$1" | grep -oE "\[[A-Z_]+\] dev\.lockscope\.locks\.$2\.\S+" | sort -u; }
passed=$(verdicts "$out/tests.log" LockStress | grep -c '^\[OK\]' || true)
bad=$(verdicts "$out/tests.log" LockStress | grep -v '^\[OK\]' || true)
if [[ -n $bad ]] || ! grep -q '^RUN RESULTS' "$out/tests.log" || (( passed == 0 )); then
  echo "FAIL: a lock test failed, timed out or none ran, see $out/tests.log"
  echo "$bad"
  status=1
else
  echo "ok: all $passed LockStress tests passed"
fi
# A negative control shows the tests could catch the bug they guard against. Catching a reordering is
# probabilistic (AsymmetricOwnerWithoutFence went uncaught in one quick round of CI), so a control this CPU
# should catch and the first run missed gets up to three more rounds; it fails only if no round catches it.
caught_controls=" "
pending=("${caught_here[@]}")
for round in 1 2 3 4; do
  (( ${#pending[@]} == 0 )) && break
  log=$out/tests.log
  if (( round > 1 )); then
    pattern="dev\\.lockscope\\.locks\\.NegativeControls\\.($(IFS='|'; echo "${pending[*]}"))\$"
    log=$out/negative-controls-$round.log
    "$java" -jar "$jar" -m "$mode" -v -t "$pattern" -r "$out/negative-controls-$round" "${extra[@]}" > "$log" 2>&1 || true
  fi
  still=()
  for control in "${all_controls[@]}"; do
    if verdicts "$log" NegativeControls | grep -qxF "[FAILED] dev.lockscope.locks.NegativeControls.$control"; then
      caught_controls+="$control "
    fi
  done
  for control in "${pending[@]}"; do [[ $caught_controls == *" $control "* ]] || still+=("$control"); done
  pending=("${still[@]+"${still[@]}"}")
  if (( ${#pending[@]} > 0 )); then echo "round $round: not caught yet: ${pending[*]}"; fi
done
for control in "${all_controls[@]}"; do
  expected=no; [[ " ${caught_here[*]} " == *" $control "* ]] && expected=yes
  caught=no; [[ $caught_controls == *" $control "* ]] && caught=yes
  echo "negative control $control: caught=$caught (expected on this CPU: $expected)"
  [[ $expected == yes && $caught == no ]] && status=1
done
exit $status
