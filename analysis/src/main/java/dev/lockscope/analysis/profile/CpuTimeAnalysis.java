package dev.lockscope.analysis.profile;

import dev.lockscope.analysis.model.MachineCpu;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadCpu;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Steal accounting over a recording (Hofer §5.2): the agent's samples of every thread's CPU time and
 * of the machine's busy and steal time are fed, sample by sample, to {@link StealAccounting}; each
 * thread's CPU time is the sum of its deltas between samples (a thread first seen in a sample counts
 * from the next one, as its steal does), and its corrected time that minus its steal, unless the
 * kernel already left steal out of thread times. A thread missing from a sample used no CPU since the
 * previous one (the agent leaves unchanged threads out), so its last value is kept. A visitor of the one pass.
 */
public final class CpuTimeAnalysis implements RecordingVisitor {
    private final StealAccounting steal = new StealAccounting();
    /** The {@link ThreadCpu}s of the sample being collected; its {@link MachineCpu} closes it. */
    private long collecting = -1;
    private Map<Long, Long> sampleThreads = new HashMap<>();
    private final Map<Long, Long> lastCpu = new HashMap<>();
    private final Map<Long, Long> cpu = new HashMap<>();
    private final Map<Long, String> osNames = new HashMap<>();
    private boolean any;
    private String problem;
    private long samples;
    private long from = -1;
    private long to = -1;
    private long firstBusy;
    private long lastBusy;
    private long firstSteal;
    private long lastSteal;
    private int cpus;
    private int threadTimesExcludeSteal = -1;
    private ThreadCpuTimes result;

    @Override
    public void threadCpu(ThreadCpu t) {
        any = true;
        if (t.sample() != collecting) {
            collecting = t.sample();
            sampleThreads = new HashMap<>();
        }
        sampleThreads.put(t.osTid(), t.cpuNanos());
        osNames.put(t.osTid(), t.osName());
    }

    @Override
    public void machineCpu(MachineCpu m) {
        any = true;
        Map<Long, Long> threads = m.sample() == collecting ? sampleThreads : Map.of();
        collecting = -1;
        sampleThreads = new HashMap<>();
        if (m.problem() != null) {
            problem = m.problem();
            return;
        }
        samples++;
        steal.sample(m.busyNanos() + m.stealNanos(), m.stealNanos(), threads);
        for (Map.Entry<Long, Long> t : threads.entrySet()) {
            Long before = lastCpu.put(t.getKey(), t.getValue());
            if (before != null) { // an idle thread seen twice gets its row, with 0
                cpu.merge(t.getKey(), Math.max(0, t.getValue() - before), Long::sum);
            }
        }
        if (from < 0) {
            from = m.timeNanos();
            firstBusy = m.busyNanos();
            firstSteal = m.stealNanos();
        }
        to = m.timeNanos();
        lastBusy = m.busyNanos();
        lastSteal = m.stealNanos();
        cpus = m.cpus();
        threadTimesExcludeSteal = m.threadTimesExcludeSteal();
    }

    @Override
    public void finish(RecordingInfo info) {
        if (!any) {
            return; // a recording without the sampler's events: nothing to say
        }
        Map<Long, String> javaNames = new HashMap<>();
        for (ThreadRef t : info.threads().values()) {
            if (t.osTid() > 0 && t.javaTid() != 0 && !t.name().equals("?")) {
                javaNames.put(t.osTid(), t.name());
            }
        }
        boolean excluded = threadTimesExcludeSteal == 1;
        List<ThreadCpuTimes.Row> rows = new ArrayList<>();
        for (Map.Entry<Long, Long> e : cpu.entrySet()) {
            long tid = e.getKey();
            long stolen = steal.stolenFrom(tid);
            long measured = e.getValue();
            rows.add(new ThreadCpuTimes.Row(tid, javaNames.getOrDefault(tid, osNames.getOrDefault(tid, "?")), measured,
                    stolen, excluded ? measured : Math.max(0, measured - stolen)));
        }
        rows.sort(Comparator.comparingLong(ThreadCpuTimes.Row::cpuNanos).reversed()
                .thenComparingLong(ThreadCpuTimes.Row::osTid));
        boolean none = from < 0;
        result = new ThreadCpuTimes(none ? (problem == null ? "no sample of the machine's CPU times" : problem) : null,
                none ? 0 : from, none ? 0 : to, cpus, samples, lastBusy - firstBusy, lastSteal - firstSteal,
                threadTimesExcludeSteal, rows);
    }

    /** The table, or null when the recording has no CPU-time samples (not made by the agent, or an older one). */
    public ThreadCpuTimes result() {
        return result;
    }
}
