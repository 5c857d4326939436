package dev.lockscope.agent;

import dev.lockscope.agent.boot.MachineCpuEvent;
import dev.lockscope.agent.boot.ThreadCpuEvent;
import dev.lockscope.core.CpuTimes;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples the inputs of steal accounting into the recording: every thread's CPU time, then the
 * machine's busy and steal time, numbered as one sample (Hofer §5.3; the analysis divides the steal
 * among the threads). It runs as the hook of {@link MachineCpuEvent} on JFR's periodic thread, never
 * on an application thread, and only while a recording enables that event; each sample lists
 * /proc/self/task and reads one small file per thread, once a second. A thread whose CPU time has not changed since the previous
 * sample is left out of it (the analysis keeps its last value): idle threads would otherwise add an
 * event each per second, some 30 bytes, which for thousands of threads would crowd the lock events out
 * of a capped recording. Nothing it does may throw into JFR: a failure is written as the sample's
 * {@code problem} (e.g. no /proc on this system) and the next sample tries again.
 */
final class CpuTimeSampler {
    private static boolean registered;

    private final Path procRoot;
    private final Path taskDir;
    /** Only JFR's periodic thread runs {@link #sample}: no other thread reads or writes these. */
    private long samples;
    private int threadTimesExcludeSteal = Integer.MIN_VALUE;
    /** Each live thread's ticks as last written; bounded by the threads alive at the previous sample. */
    private Map<Integer, Long> lastTicks = new HashMap<>();

    CpuTimeSampler(Path procRoot, Path taskDir) {
        this.procRoot = procRoot;
        this.taskDir = taskDir;
    }

    /** Registers the events and the sampler with JFR, once per JVM. */
    static synchronized void register() {
        if (registered) {
            return;
        }
        jdk.jfr.FlightRecorder.register(ThreadCpuEvent.class);
        jdk.jfr.FlightRecorder.register(MachineCpuEvent.class);
        CpuTimeSampler sampler = new CpuTimeSampler(Path.of("/proc"), Path.of("/proc/self/task"));
        jdk.jfr.FlightRecorder.addPeriodicEvent(MachineCpuEvent.class, sampler::sample);
        registered = true;
    }

    /** One sample: a ThreadCpu event per thread, then the MachineCpu event that closes it. */
    void sample() {
        MachineCpuEvent machine = new MachineCpuEvent();
        machine.sample = ++samples;
        try {
            if (threadTimesExcludeSteal == Integer.MIN_VALUE) {
                threadTimesExcludeSteal = CpuTimes.kernelExcludesStealFromThreads(procRoot); // once: it reads the kernel config
            }
            List<CpuTimes.ThreadTicks> threads = CpuTimes.threads(taskDir);
            CpuTimes.Machine m = CpuTimes.machine(procRoot);
            Map<Integer, Long> ticks = new HashMap<>(threads.size() * 2);
            for (CpuTimes.ThreadTicks t : threads) {
                Long before = lastTicks.get(t.tid());
                ticks.put(t.tid(), t.ticks());
                if (before != null && before == t.ticks()) {
                    continue; // unchanged since the previous sample
                }
                ThreadCpuEvent e = new ThreadCpuEvent();
                e.sample = machine.sample;
                e.osTid = t.tid();
                e.osName = t.name();
                e.cpuNanos = t.ticks() * CpuTimes.NANOS_PER_TICK;
                e.commit();
            }
            lastTicks = ticks;
            machine.busyNanos = m.busyTicks() * CpuTimes.NANOS_PER_TICK;
            machine.stealNanos = m.stealTicks() * CpuTimes.NANOS_PER_TICK;
            machine.cpus = m.cpus();
            machine.threadTimesExcludeSteal = threadTimesExcludeSteal;
        } catch (Throwable e) {
            machine.problem = problem(e);
        }
        machine.commit();
    }

    private String problem(Throwable e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no " + e.getMessage() + " on this system (not Linux?)";
        }
        return "cannot read CPU times from " + procRoot + ": " + e;
    }
}
