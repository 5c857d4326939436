package dev.lockscope.demo;

import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The J9 park-contention report §5.2 (Listing 5.1): three locks taken one after the other in every operation, with
 * critical sections of 4, 16 and 64 ms. The 64 ms lock is the bottleneck. {@code --s1-ms}, {@code --s2-ms}
 * and {@code --s3-ms} change one section, as the seed's simulated optimisation does (§5.2.3: each halved
 * in turn, only lock 3 doubles the throughput).
 */
final class LargeCriticalSection implements Workload {
    static final long S1 = 4, S2 = 16, S3 = 64;
    private final boolean intrinsic;
    private final long s1, s2, s3;
    private final ReentrantLock l1 = new ReentrantLock();
    private final ReentrantLock l2 = new ReentrantLock();
    private final ReentrantLock l3 = new ReentrantLock();
    private final Object m1 = new Object();
    private final Object m2 = new Object();
    private final Object m3 = new Object();
    private long counter1, counter2, counter3;

    LargeCriticalSection(boolean intrinsic) {
        this(intrinsic, List.of());
    }

    /** @throws IllegalArgumentException for an unknown option or a bad value */
    LargeCriticalSection(boolean intrinsic, List<String> args) {
        this.intrinsic = intrinsic;
        WorkloadArgs a = new WorkloadArgs(args, Set.of("--s1-ms", "--s2-ms", "--s3-ms"), Set.of());
        this.s1 = a.number("--s1-ms", S1);
        this.s2 = a.number("--s2-ms", S2);
        this.s3 = a.number("--s3-ms", S3);
    }

    @Override
    public long operation() throws InterruptedException {
        if (intrinsic) {
            sync1();
            sync2();
            sync3();
        } else {
            juc1();
            juc2();
            juc3();
        }
        return 4; // three counters and the thread's local one, as the seed counts
    }

    private void juc1() throws InterruptedException {
        l1.lock();
        try {
            counter1++;
            Workload.sleep(s1);
        } finally {
            l1.unlock();
        }
    }

    private void juc2() throws InterruptedException {
        l2.lock();
        try {
            counter2++;
            Workload.sleep(s2);
        } finally {
            l2.unlock();
        }
    }

    private void juc3() throws InterruptedException {
        l3.lock();
        try {
            counter3++;
            Workload.sleep(s3);
        } finally {
            l3.unlock();
        }
    }

    private void sync1() throws InterruptedException {
        synchronized (m1) {
            counter1++;
            Workload.sleep(s1);
        }
    }

    private void sync2() throws InterruptedException {
        synchronized (m2) {
            counter2++;
            Workload.sleep(s2);
        }
    }

    private void sync3() throws InterruptedException {
        synchronized (m3) {
            counter3++;
            Workload.sleep(s3);
        }
    }
}
