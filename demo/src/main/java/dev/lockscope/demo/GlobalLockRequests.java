package dev.lockscope.demo;

import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scaling knee with a known answer: each request does p µs of parallel work, then c µs
 * under one global lock. Throughput is n / (p + c) while the lock has room, and at most 1 / c: the
 * knee is near n = (p + c) / c threads (4 with the defaults). Options: {@code --parallel-us P}
 * (default 6000) and {@code --critical-us C} (default 2000).
 */
final class GlobalLockRequests implements Workload {
    static final long DEFAULT_PARALLEL_US = 6000;
    static final long DEFAULT_CRITICAL_US = 2000;

    private final long parallelMicros;
    private final long criticalMicros;
    private final ReentrantLock globalLock = new ReentrantLock();
    private long served;

    GlobalLockRequests(List<String> args) {
        WorkloadArgs a = new WorkloadArgs(args, Set.of("--parallel-us", "--critical-us"), Set.of());
        this.parallelMicros = a.number("--parallel-us", DEFAULT_PARALLEL_US);
        this.criticalMicros = a.number("--critical-us", DEFAULT_CRITICAL_US);
    }

    @Override
    public long operation() throws InterruptedException {
        Delay.micros(parallelMicros);
        underGlobalLock();
        return 1;
    }

    private void underGlobalLock() throws InterruptedException {
        globalLock.lock();
        try {
            served++;
            Delay.micros(criticalMicros);
        } finally {
            globalLock.unlock();
        }
    }
}
