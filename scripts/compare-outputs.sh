#!/usr/bin/env bash
# Checks that two builds of the CLI give byte-identical output on the same recordings, in every format:
#   scripts/compare-outputs.sh OLD.jar NEW.jar rec.jfr...
# (a change meant only to make analysis faster, or blame cheaper, must not change a byte). Prints each difference; exits 1 if any.
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 OLD.jar NEW.jar RECORDING.jfr..." >&2
  exit 2
fi
old=$1 new=$2
shift 2
all_aspects=kind,lock,lock-class,waiter-thread,waiter-pool,waiter-method,waiter-chain,owner-thread,owner-pool,owner-method,owner-chain,chain-class
commands=("report --format text" "report --format json" "report --format collapsed" "report --format html"
  "report --format pprof" "report --instances" "blame" "blame --group-by owner-thread,lock" "blame --format json"
  "blame --format json --group-by $all_aspects" "blame --format json --instances" "whatif"
  "profile --wall --format collapsed")
differ=0
for f in "$@"; do
  for c in "${commands[@]}"; do
    # shellcheck disable=SC2086
    a=$(java -Xmx512m -jar "$old" $c "$f" 2>&1 | md5sum)
    # shellcheck disable=SC2086
    b=$(java -Xmx512m -jar "$new" $c "$f" 2>&1 | md5sum)
    if [ "$a" != "$b" ]; then
      echo "differs: $c $f"
      differ=1
    fi
  done
done
echo "compared ${#commands[@]} outputs of $# recording(s): $([ $differ = 0 ] && echo identical || echo DIFFERENT)"
exit $differ
