#!/usr/bin/env bash
# What holds the memory of a workload JVM under the lockscope agent, against JFR alone recording the
# same JDK lock events (the overhead harness's `jfr` configuration) and against no profiler. Each
# workload runs under each configuration in turn, REPEATS fresh JVMs with native memory tracking
# (NMT, summary), and for each run it prints:
#   - peak RSS (the kernel's high-water mark, VmHWM), and the peaks of its part inside the Java heap's
#     address range and outside it (/proc/PID/smaps every 0.2 s; the heap's range from jcmd
#     GC.heap_info): G1 touching more or fewer heap regions told apart from native memory;
#   - NMT at exit: the Java heap's committed size, metaspace and class space, and the malloc peaks of
#     Tracing (JFR's native buffers and tables) and Arena Chunk (the JIT compilers' scratch memory,
#     freed after each compilation but kept resident by the C allocator).
#
#   scripts/agent-memory.sh [--java PATH] [--repeats N] [--agent JAR] [--configs none,jfr,lockscope]
#                           [--jvm-arg ARG]... WORKLOAD...
#
# --jvm-arg adds a JVM option to every run of every configuration (repeat it for several), e.g.
# '-XX:CompileCommand=exclude,jdk/jfr/internal/handlers/*.write' to leave JFR's generated event writers
# uncompiled and see what their C2 compiles add to the peak (docs/agent-cost.md).
#
# WORKLOAD: a LibraryWorkloads name (queue-pipeline, h2, logback, log4j2, object-pool, http-server,
# derby; 3 s warm-up, 5 s measured) or a LockMicroBenchmarks JMH benchmark as the harness names it
# (lockCounter, syncCounter, uncontendedSync, parkOwnBlocker-t1/-t2/-t4). Needs
# bench/target/lockscope-bench.jar and the agent jar (default agent/target/lockscope-agent.jar);
# Python 3 runs the measurement.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java=java
repeats=1
agent="$here/agent/target/lockscope-agent.jar"
configs="none,jfr,lockscope"
jvm_args=""
workloads=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --java) java="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --agent) agent="$2"; shift 2 ;;
    --configs) configs="$2"; shift 2 ;;
    --jvm-arg) jvm_args+="$2"$'\n'; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) echo "agent-memory: unknown option $1" >&2; exit 2 ;;
    *) workloads+=("$1"); shift ;;
  esac
done
[[ ${#workloads[@]} -gt 0 ]] || { echo "agent-memory: name at least one workload (--help)" >&2; exit 2; }
bench="$here/bench/target/lockscope-bench.jar"
for jar in "$bench" "$agent"; do
  [[ -f "$jar" ]] || { echo "agent-memory: build first: $jar missing" >&2; exit 1; }
done
export LOCKSCOPE_MEMORY_JVM_ARGS="$jvm_args"
exec python3 - "$java" "$repeats" "$agent" "$bench" "$configs" "${workloads[@]}" <<'EOF'
import os, re, subprocess, sys, tempfile, time, zipfile

java, repeats, agent, bench, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5].split(",")
jvm_args = [a for a in os.environ.get("LOCKSCOPE_MEMORY_JVM_ARGS", "").split("\n") if a]
work = tempfile.mkdtemp(prefix="lockscope-memory-")
jfc = os.path.join(work, "lock-events.jfc")
with zipfile.ZipFile(bench) as z, open(jfc, "wb") as f:
    f.write(z.read("lock-events.jfc"))
LIBRARY_THREADS = {"queue-pipeline": 4, "h2": 8, "logback": 8}
jcmd = os.path.join(os.path.dirname(java), "jcmd") if os.path.dirname(java) else "jcmd"
JMH_THREADS = {"lockCounter": 4, "syncCounter": 4, "uncontendedSync": 1}

def workload_args(name):
    jmh = re.sub(r"-t[0-9]+$", "", name)
    if jmh in JMH_THREADS or jmh == "parkOwnBlocker":
        threads = name.rsplit("-t", 1)[1] if jmh != name else str(JMH_THREADS[jmh])
        return ["-cp", bench, "org.openjdk.jmh.Main", "LockMicroBenchmarks." + jmh + "$", "-f", "0", "-t", threads,
                "-wi", "3", "-w", "1s", "-i", "3", "-r", "2s"]
    return ["-cp", bench, "dev.lockscope.bench.LibraryWorkloads", name, str(LIBRARY_THREADS.get(name, 16)), "3", "5"]

def profiler_args(config, jfr):
    return {"none": [], "jfr": ["-XX:StartFlightRecording=filename=%s,settings=%s" % (jfr, jfc)],
            "lockscope": ["-javaagent:%s=file=%s,report=off,quiet" % (agent, jfr)]}[config]

def heap_range(pid):
    """The Java heap's address range, from jcmd PID GC.heap_info; None while the JVM cannot answer yet."""
    try:
        text = subprocess.run([jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"\[0x([0-9a-f]+), 0x([0-9a-f]+)\)", text)
    return (int(m.group(1), 16), int(m.group(2), 16)) if m else None

def rss_kb(pid, heap):
    total = inside = 0
    try:
        with open("/proc/%d/smaps" % pid) as f:
            within = False
            for line in f:
                m = re.match(r"([0-9a-f]+)-([0-9a-f]+) ", line)
                if m:
                    within = heap is not None and int(m.group(1), 16) >= heap[0] and int(m.group(2), 16) <= heap[1]
                elif line.startswith("Rss:"):
                    kb = int(line.split()[1])
                    total += kb
                    inside += kb if within else 0
    except OSError:
        return None
    return total, inside

def nmt(text, category):
    m = re.search(r"-\s+%s \(reserved=\d+, committed=(\d+)\)\s*\n(?:\s*\(malloc=\d+(?: tag=[^#]*)? #\d+\) \(peak=(\d+))?" % re.escape(category), text)
    if not m:
        return "-", "-"
    return "%.0f" % (int(m.group(1)) / 1e6), ("%.0f" % (int(m.group(2)) / 1e6) if m.group(2) else "-")

print("| workload | config | run | peak RSS MB | peak in heap range MB | peak outside heap MB | heap committed MB | metaspace+class MB | Tracing peak MB | Arena Chunk peak MB |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name in sys.argv[6:]:
    for r in range(repeats):
        for config in configs[r % len(configs):] + configs[:r % len(configs)]:  # order rotated each repetition
            jfr = os.path.join(work, "%s-%s-%d.jfr" % (name, config, r))
            cmd = [java, "-XX:NativeMemoryTracking=summary", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintNMTStatistics"] \
                + jvm_args + profiler_args(config, jfr) + workload_args(name)
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=work)
            heap = None
            asked = time.time()
            peak = peak_in = peak_out = 0
            while p.poll() is None:
                if heap is None and time.time() - asked > 1:
                    heap = heap_range(p.pid)
                    asked = time.time()
                sample = rss_kb(p.pid, heap)
                try:
                    peak = max(peak, int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % p.pid).read()).group(1)))
                except (OSError, AttributeError):
                    pass
                if sample:
                    peak_in, peak_out = max(peak_in, sample[1]), max(peak_out, sample[0] - sample[1])
                time.sleep(0.2)
            out = p.stdout.read()
            if p.returncode != 0:
                print("agent-memory: %s under %s failed (exit %d):\n%s" % (name, config, p.returncode, out[-2000:]), file=sys.stderr)
                continue
            meta = sum(float(nmt(out, c)[0]) for c in ("Metaspace", "Class") if nmt(out, c)[0] != "-")
            print("| %s | %s | %d | %.0f | %.0f | %.0f | %s | %.0f | %s | %s |" % (name, config, r, peak / 1000 * 1.024, peak_in / 1000 * 1.024,
                  peak_out / 1000 * 1.024, nmt(out, "Java Heap")[0], meta, nmt(out, "Tracing")[1], nmt(out, "Arena Chunk")[1]), flush=True)
            if os.path.exists(jfr):
                os.remove(jfr)
EOF
