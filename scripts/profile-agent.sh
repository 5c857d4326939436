#!/usr/bin/env bash
# Profiles what the lockscope agent costs inside a workload JVM: runs one overhead-harness workload
# with the agent under async-profiler 4.2 (the copy bench/target/async-profiler.jar carries), once in
# cpu mode and once in alloc mode, writes the collapsed stacks and prints the top frames plus the
# share of samples per cost (lockscope hooks split into stack walks, event commits, the blocker
# registry and live counters, the hand-off counter, allocation; the agent's in-process monitor stream;
# JFR's own jdk.ThreadPark walk; JFR threads; JIT; GC).
#
#   scripts/profile-agent.sh [--workload lockCounter|parkOwnBlocker|queue-pipeline|syncCounter|h2|logback|log4j2|object-pool|http-server|derby]
#                            [--agent JAR|none] [--agent-options OPTS] [--out DIR] [--java PATH]
#                            [--interval NS] [--seconds N] [--skip N] [--warmup N] [--jit]
#
# --jit adds a third run with -XX:+LogCompilation and prints the C2 compile time per second of the
# run and the longest C2 compiles with the bytecode they inlined (what the hooks cost the JIT).
# The cpu profile is cut into one file per second (async-profiler's loop=1s); the summary is over the
# seconds from --skip (default 3: JVM start, agent start and the 1 s warm-up) to the last full one,
# i.e. the measured steady state, and a per-second line shows how much the JIT still compiles then.
# http-server (Jetty) reaches its steady state only after about 30 s (the overhead harness warms it up that
# long): profile it with --seconds 40 --skip 33, or the summary is of its warm-up; or with --warmup 30
# --seconds 8 --skip 31, which also makes the workload's printed throughput that of the profiled seconds,
# so the summary can print each cost in CPU microseconds per operation (compare a bare run's with
# --agent none: the difference per cause is what the agent adds, wherever it is spent).
# --warmup sets the library workloads' own warm-up (default 1 s; the JMH ones warm up 1 s).
# Needs bench/target/lockscope-bench.jar and agent/target/lockscope-agent.jar
# (mvn -B -q -o -pl agent,bench -am package -DskipTests). Profile a bare run with --agent none to
# compare the shares. Python 3 is used for the summary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
workload=lockCounter
agent="$here/agent/target/lockscope-agent.jar"
agent_opts="report=off,quiet"
out="${TMPDIR:-/tmp}/lockscope-profile"
java=java
interval=1000000
seconds=5
skip=3
warmup=1
jit=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workload) workload="$2"; shift 2 ;;
    --agent) agent="$2"; shift 2 ;;
    --agent-options) agent_opts="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --java) java="$2"; shift 2 ;;
    --interval) interval="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --skip) skip="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --jit) jit=1; shift ;;
    *) sed -n '2,26p' "$0" >&2; exit 2 ;;
  esac
done
bench="$here/bench/target/lockscope-bench.jar"
[[ -f "$bench" ]] || { echo "profile-agent: build first: $bench missing" >&2; exit 1; }
mkdir -p "$out"
lib="$out/libasyncProfiler.so"
if [[ ! -f "$lib" ]]; then
  unzip -p "$here/bench/target/async-profiler.jar" linux-x64/libasyncProfiler.so > "$lib"
fi

case "$workload" in
  lockCounter|syncCounter|uncontendedSync|parkOwnBlocker)
    threads=4; [[ "$workload" == uncontendedSync || "$workload" == parkOwnBlocker ]] && threads=1
    app=(-cp "$bench" org.openjdk.jmh.Main "LockMicroBenchmarks.$workload\$" -f 0 -t "$threads"
         -wi 1 -w 1s -i 1 -r "${seconds}s") ;;
  queue-pipeline) app=(-cp "$bench" dev.lockscope.bench.LibraryWorkloads queue-pipeline 4 "$warmup" "$seconds") ;;
  h2|logback) app=(-cp "$bench" dev.lockscope.bench.LibraryWorkloads "$workload" 8 "$warmup" "$seconds") ;;
  log4j2|object-pool|http-server|derby) app=(-cp "$bench" dev.lockscope.bench.LibraryWorkloads "$workload" 16 "$warmup" "$seconds") ;;
  *) echo "profile-agent: unknown workload $workload" >&2; exit 2 ;;
esac

agent_args=()
label=bare
if [[ "$agent" != none ]]; then
  agent_args=("-javaagent:$agent=file=$out/$workload.jfr,$agent_opts")
  label=agent
fi

for mode in cpu alloc; do
  case "$mode" in
    cpu) ev="event=cpu,interval=$interval,loop=1s" ;;
    alloc) ev="event=alloc,total" ;;
  esac
  collapsed="$out/$workload-$label-$mode.collapsed"
  [[ "$mode" == cpu ]] && { rm -f "$out/$workload-$label-cpu-"*.collapsed; collapsed="$out/$workload-$label-cpu-%n.collapsed"; }
  echo "profile-agent: $workload, $label, $mode -> $collapsed" >&2
  "$java" "-agentpath:$lib=start,$ev,threads,collapsed,file=$collapsed" "${agent_args[@]}" "${app[@]}" \
    > "$out/$workload-$label-$mode.log" 2>&1
  grep -E "throughput:|^LockMicroBenchmarks" "$out/$workload-$label-$mode.log" | tail -1 >&2 || true
done

throughput="$(grep -oE "throughput: [0-9.]+" "$out/$workload-$label-cpu.log" | tail -1 | cut -d' ' -f2 || true)"
python3 - "$out/$workload-$label" "$skip" "${throughput:-0}" "$interval" <<'EOF'
import collections, glob, re, sys
prefix, skip = sys.argv[1], int(sys.argv[2])
ops_per_s, interval_ns = float(sys.argv[3]), int(sys.argv[4])

def load(path):
    stacks = []
    for line in open(path):
        line = line.rstrip('\n')
        if line:
            s, n = line.rsplit(' ', 1)
            stacks.append((s.split(';'), int(n)))
    return stacks

def cause(frames):
    """The one cost a sample is charged to; first match wins."""
    thread = frames[0]
    joined = ';'.join(frames)
    if 'lockscope-monitor-stream' in thread or 'MonitorContention' in joined:
        return 'lockscope monitor stream (in-process JFR parsing)'
    if 'ParkHooks' in joined or 'BlockerRegistry' in joined or 'BlockerRecord' in joined:
        i = next(k for k, f in enumerate(frames) if 'ParkHooks' in f or 'BlockerRegistry' in f or 'BlockerRecord' in f)
        hook = re.sub(r'.*ParkHooks\.', '', frames[i]) if 'ParkHooks' in frames[i] else 'BlockerRegistry'
        below = ';'.join(frames[i:])
        if 'JfrStackTrace' in below or 'vframeStream' in below or 'StackTrace' in below:
            what = 'stack walk'
        elif 'BlockerRegistry' in below or 'BlockerRecord' in below or 'ConcurrentHashMap' in below:
            what = 'blocker registry/live counters'
        elif 'identityHashCode' in below or 'ObjectSynchronizer::FastHashCode' in below:
            what = 'identity hash'
        elif 'VarHandle' in below:
            what = 'hand-off counter'
        elif 'ThreadLocal' in below:
            what = 'thread local'
        elif 'commit' in below or 'EventWriter' in below or 'Jfr' in below or 'jfr' in below:
            what = 'event commit/JFR buffers'
        elif '_new_instance' in below or 'OptoRuntime::new' in below or 'MemAllocator' in below:
            what = 'allocation'
        else:
            what = 'hook body'
        return f'lockscope hook {hook}: {what}'
    if 'Unsafe_Park' in joined and ('JfrStackTrace' in joined or 'EventThreadPark' in joined or 'Jfr' in joined):
        return 'jdk.ThreadPark event (JFR, in Unsafe_Park)'
    if 'ObjectMonitor' in joined and 'Jfr' in joined:
        return 'jdk.JavaMonitor* events (JFR)'
    if re.search(r'\[JFR|jfr/internal|JfrRecorder|JfrThreadSampler|JFR ', joined):
        return 'JFR threads (recorder, sampler, periodic)'
    if 'CompileBroker' in joined or re.search(r'\[C[12] Compiler', thread):
        return 'JIT compiler'
    if re.search(r'GC|G1|ParallelGC|GangWorker|\[VM Thread', joined):
        return 'GC/VM thread'
    if 'premain' in joined or 'LockscopeAgent' in joined or 'instrument/' in joined:
        return 'agent startup'
    return 'application and everything else'

def summary(title, stacks, ops=0):
    """Shares per cause; with ops (operations in the seconds summed) also CPU microseconds per operation."""
    total = sum(n for _, n in stacks) or 1
    per = collections.Counter()
    selfc = collections.Counter()
    for frames, n in stacks:
        per[cause(frames)] += n
        selfc[frames[-1]] += n
    print(f'\n== {title}, total {total}')
    if ops:
        print(f'   (CPU per operation: {total * interval_ns / 1000 / ops:.1f} us over {ops:.0f} operations)')
    for k, v in per.most_common():
        if v * 1000 >= total:
            per_op = f'  {v * interval_ns / 1000 / ops:8.2f} us/op' if ops else ''
            print(f'{100 * v / total:6.2f}%{per_op}  {k}')
    print('-- top frames (self)')
    for k, v in selfc.most_common(15):
        print(f'{100 * v / total:6.2f}%  {k[:140]}')

seconds = sorted(glob.glob(prefix + '-cpu-*.collapsed'), key=lambda p: int(re.search(r'-(\d+)\.collapsed$', p).group(1)))
print('second  samples   JIT%  hooks%  ThreadPark%  JFR-threads%')
steady = []
for i, path in enumerate(seconds):
    st = load(path)
    total = sum(n for _, n in st) or 1
    c = collections.Counter()
    for frames, n in st:
        k = cause(frames)
        c['jit' if k == 'JIT compiler' else 'hooks' if k.startswith('lockscope hook') else
          'park' if k.startswith('jdk.ThreadPark') else 'jfr' if k.startswith('JFR threads') else 'x'] += n
    print(f'{i:6d} {total:8d} {100*c["jit"]/total:6.1f} {100*c["hooks"]/total:7.1f} {100*c["park"]/total:12.1f} {100*c["jfr"]/total:13.1f}')
    if skip <= i < len(seconds) - 1:
        steady += st
steady_seconds = max(0, len(seconds) - 1 - skip)
# the workload's throughput is of its measured seconds; they are the steady ones only when --warmup ends
# where --skip begins, which is the caller's to arrange (see the header)
summary(f'cpu samples, seconds {skip}..{len(seconds) - 2} (steady state)', steady, ops_per_s * steady_seconds)
summary('allocation (bytes), whole run', load(prefix + '-alloc.collapsed'))
EOF

if [[ "$jit" == 1 ]]; then
  log="$out/$workload-$label-compilation.log"
  echo "profile-agent: $workload, $label, LogCompilation -> $log" >&2
  "$java" -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation "-XX:LogFile=$log" "${agent_args[@]}" "${app[@]}" \
    > "$out/$workload-$label-jit.log" 2>&1
  grep -E "throughput:|^LockMicroBenchmarks" "$out/$workload-$label-jit.log" | tail -1 >&2 || true
  python3 - "$log" <<'EOF'
import re, sys
txt = open(sys.argv[1], errors='replace').read()
rows = []
for attrs, body, done in re.findall(r"<task (compile_id='\d+'[^>]*?)>(.*?)<task_done([^>]*)/>", txt, re.S):
    a = dict(re.findall(r"(\w+)='([^']*)'", attrs))
    d = dict(re.findall(r"(\w+)='([^']*)'", done))
    start = float(a['stamp'])
    rows.append((start, float(d['stamp']) - start, a.get('level', '4'), a['method'],
                 len(re.findall(r'<inline_success', body)), d.get('inlined_bytes', '?')))
c2 = [r for r in rows if r[2] == '4']
print(f'\n== JIT: {len(rows)} compiles, C2 {sum(r[1] for r in c2):.2f} s, C1 {sum(r[1] for r in rows if r[2] != "4"):.2f} s')
last = int(max((r[0] for r in rows), default=0)) + 1
print('second  C2-compile-s  C1-compile-s')
for sec in range(last):
    sel = [r for r in rows if sec <= r[0] < sec + 1]
    print(f'{sec:6d} {sum(r[1] for r in sel if r[2] == "4"):13.2f} {sum(r[1] for r in sel if r[2] != "4"):13.2f}')
print('-- longest C2 compiles: start s, time, inlined methods, inlined bytecode bytes, method')
for r in sorted(c2, key=lambda r: -r[1])[:15]:
    print(f'{r[0]:6.2f} {r[1] * 1000:7.0f} ms {r[4]:4d} {r[5]:>6}  {r[3][:120]}')
EOF
fi
