#!/usr/bin/env bash
# Owner blame of two builds compared byte for byte on the same recordings: for every recording,
# `blame --format json` (default grouping, every aspect, per object) and the whole `report --format json`
# from OLD_JAR and NEW_JAR must be identical. Prints one line per recording and exits 1 on any difference
# (the differing outputs are left in a temporary directory, named in the output).
#
#   scripts/compare-blame.sh OLD_JAR NEW_JAR REC.jfr...
#   e.g. scripts/compare-blame.sh /tmp/old-lockscope.jar cli/target/lockscope.jar /tmp/demos/*.jfr
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 OLD_JAR NEW_JAR REC.jfr..." >&2
    exit 2
fi
old=$1 new=$2
shift 2
java=${JAVA:-java}
out=$(mktemp -d /tmp/compare-blame.XXXXXX)
all_aspects=kind,lock,lock-class,waiter-thread,waiter-pool,waiter-method,waiter-chain,owner-thread,owner-pool,owner-method,owner-chain,chain-class
differ=0
for rec in "$@"; do
    name=$(basename "$rec" .jfr)
    verdict=
    n=0
    for args in "blame --format json" "blame --format json --group-by $all_aspects" "blame --format json --instances" \
                "report --format json"; do
        n=$((n + 1))
        cmd=${args%% *}
        rest=${args#* }
        # shellcheck disable=SC2086
        "$java" -jar "$old" $cmd "$rec" $rest > "$out/$name.$n.old" 2> "$out/$name.$n.old.err"
        # shellcheck disable=SC2086
        "$java" -jar "$new" $cmd "$rec" $rest > "$out/$name.$n.new" 2> "$out/$name.$n.new.err"
        if ! cmp -s "$out/$name.$n.old" "$out/$name.$n.new"; then
            verdict="$verdict DIFFERENT ($args: $out/$name.$n.old vs .new)"
            differ=1
        fi
    done
    printf '%-40s %8s bytes of blame JSON  %s\n' "$name" "$(wc -c < "$out/$name.1.new")" "${verdict:-identical}"
done
[ $differ = 0 ] && rm -rf "$out"
exit $differ
