package dev.lockscope.analysis.profile;

import java.util.HashMap;
import java.util.Map;

/**
 * Splits the machine's steal time among threads in proportion to the CPU time they used, sample by
 * sample (Hofer, <i>Method Profiling and Lock Contention Profiling on the JVM Level</i>, §5.2):
 * Δsteal(T) = Δsteal_total · Δcpu(T) / Δcpu_total, where Δcpu_total is the apparent CPU time of all
 * CPUs including the steal (the OS counts a suspended vCPU's time as CPU time of the thread it ran),
 * and Δcpu(T) the thread's apparent CPU time since the previous sample. The first sample attributes
 * nothing; a thread that used no CPU between two samples is given none, and may be left out of the
 * sample (its last value is kept: the agent writes only threads whose CPU time changed).
 *
 * <p>Not thread-safe: one sampler feeds it.
 */
public final class StealAccounting {
    private final Map<Long, Long> lastThreadCpu = new HashMap<>();
    private final Map<Long, Long> stolen = new HashMap<>();
    private long lastMachineCpu = -1;
    private long lastMachineSteal = -1;
    private long machineSteal;

    /**
     * One sample of cumulative counters (any one unit, e.g. nanoseconds or clock ticks).
     *
     * @param machineCpuTotal all CPUs' busy time including steal, since boot
     * @param machineSteal    all CPUs' steal time, since boot
     * @param threadCpu       the apparent CPU time (user + system) since it started of each thread whose CPU
     *                        time changed since the previous sample (others may be given or left out)
     * @return the steal attributed to each thread by this sample (empty for the first)
     */
    public Map<Long, Long> sample(long machineCpuTotal, long machineSteal, Map<Long, Long> threadCpu) {
        Map<Long, Long> attributed = new HashMap<>();
        boolean first = lastMachineCpu < 0;
        long dCpuTotal = machineCpuTotal - lastMachineCpu;
        long dSteal = machineSteal - lastMachineSteal;
        for (Map.Entry<Long, Long> t : threadCpu.entrySet()) {
            Long before = lastThreadCpu.put(t.getKey(), t.getValue());
            if (first || before == null || dCpuTotal <= 0 || dSteal <= 0) {
                continue; // a thread first seen now has no delta yet
            }
            long dCpu = t.getValue() - before;
            if (dCpu <= 0) {
                continue;
            }
            // dCpu ≤ dCpuTotal in a consistent sample; clamp so a skewed read cannot attribute more than all
            long share = Math.round((double) dSteal * Math.min(dCpu, dCpuTotal) / dCpuTotal);
            attributed.put(t.getKey(), share);
            stolen.merge(t.getKey(), share, Long::sum);
        }
        if (!first && dSteal > 0) {
            this.machineSteal += dSteal;
        }
        lastMachineCpu = machineCpuTotal;
        lastMachineSteal = machineSteal;
        return attributed;
    }

    /** The steal attributed to {@code tid} over all samples so far. */
    public long stolenFrom(long tid) {
        return stolen.getOrDefault(tid, 0L);
    }

    /** Every thread's attributed steal so far. */
    public Map<Long, Long> stolen() {
        return Map.copyOf(stolen);
    }

    /** The machine's steal between the first and the latest sample. */
    public long machineSteal() {
        return machineSteal;
    }
}
