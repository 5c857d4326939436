#!/usr/bin/env bash
# The asymmetric fence measured: the library locks on JDK 25 with the volatile store+load form and with
# membarrier (--enable-native-access), alternating A/B twice so that drift of a shared machine hits both.
# Writes one CSV and log per run, and fence.md: JMH's mean +- 99.9% error and the best iteration per
# benchmark and form (the thesis's Table 5.4 reports best times; the best iteration is the least disturbed
# by other processes).
# usage: locks-bench/run-fence-jmh.sh [out-dir] [extra JMH args]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/locks-bench/target/jmh-fence}
shift $(( $# < 1 ? $# : 1 ))
java=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
jar=$root/locks-bench/target/locks-benchmarks.jar
[[ -f $jar ]] || (cd "$root" && mvn -B -q -ntp -DskipTests package -pl locks-bench -am)
mkdir -p "$out"
benchmarks='PrimitiveBenchmark.lock(Outermost|Recursive)|TransitionBenchmark.firstAcquisitionBySecondThread'
for round in 1 2; do
  for form in volatile membarrier; do
    args=-Xmx1g; [[ $form == membarrier ]] && args="-Xmx1g --enable-native-access=ALL-UNNAMED"
    echo "== round $round, $form (lock library fence: $("$java" $args -cp "$jar" dev.lockscope.locks.AsymmetricFence))"
    "$java" -Djmh.ignoreLock=true -jar "$jar" "$benchmarks" -f 1 -wi 5 -i 30 -w 50ms -r 50ms -foe true \
      -p kind=tasuki,asymmetric,asymmetric-tasuki -p mode=flat -jvmArgsAppend "$args" "$@" \
      -rf csv -rff "$out/$form-$round.csv" > "$out/$form-$round.log" 2>&1
  done
done
python3 - "$out" > "$out/fence.md" <<'PY'
import csv, glob, os, re, sys
out = sys.argv[1]
mean, best = {}, {}
for path in sorted(glob.glob(f'{out}/*-[12].csv')):
    form = os.path.basename(path).split('-')[0]
    for r in csv.DictReader(open(path)):
        key = (r['Benchmark'].split('.')[-1], r['Param: kind'], r['Unit'])
        mean.setdefault(key, {}).setdefault(form, []).append(f"{float(r['Score']):.1f} ± {float(r['Score Error (99.9%)']):.1f}")
    # the best iteration of each benchmark, from the log (JMH prints every measured iteration)
    bench = None
    for line in open(path[:-4] + '.log'):
        m = re.match(r'# Benchmark: \S+\.(\w+)$', line)
        if m: bench = m.group(1)
        m = re.match(r'# Parameters: \(kind = ([\w-]+)', line)
        if m: kind = m.group(1)
        m = re.match(r'Iteration\s+\d+: ([\d.]+) (\S+)', line)
        if m and bench:
            k = (bench, kind, m.group(2))
            best.setdefault(k, {})[form] = min(best.get(k, {}).get(form, float('inf')), float(m.group(1)))
print('| benchmark | lock | unit | volatile: mean ± error, runs 1, 2 | membarrier: mean ± error, runs 1, 2 | best iteration, volatile | best iteration, membarrier |')
print('|---|---|---|---|---|---|---|')
for key in mean:
    b = best.get(key, {})
    print(f"| {key[0]} | {key[1]} | {key[2]} | {'; '.join(mean[key].get('volatile', []))} | {'; '.join(mean[key].get('membarrier', []))} "
          f"| {b.get('volatile', float('nan')):.1f} | {b.get('membarrier', float('nan')):.1f} |")
PY
echo "table: $out/fence.md"
