package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Seed 000 §5.2 (Listing 5.1): three locks taken one after the other in every operation, with
 * critical sections of 4, 16 and 64 ms. The 64 ms lock is the bottleneck.
 */
final class LargeCriticalSection implements Workload {
    static final long S1 = 4, S2 = 16, S3 = 64;
    private final boolean intrinsic;
    private final ReentrantLock l1 = new ReentrantLock();
    private final ReentrantLock l2 = new ReentrantLock();
    private final ReentrantLock l3 = new ReentrantLock();
    private final Object m1 = new Object();
    private final Object m2 = new Object();
    private final Object m3 = new Object();
    private long counter1, counter2, counter3;

    LargeCriticalSection(boolean intrinsic) {
        this.intrinsic = intrinsic;
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
            Workload.sleep(S1);
        } finally {
            l1.unlock();
        }
    }

    private void juc2() throws InterruptedException {
        l2.lock();
        try {
            counter2++;
            Workload.sleep(S2);
        } finally {
            l2.unlock();
        }
    }

    private void juc3() throws InterruptedException {
        l3.lock();
        try {
            counter3++;
            Workload.sleep(S3);
        } finally {
            l3.unlock();
        }
    }

    private void sync1() throws InterruptedException {
        synchronized (m1) {
            counter1++;
            Workload.sleep(S1);
        }
    }

    private void sync2() throws InterruptedException {
        synchronized (m2) {
            counter2++;
            Workload.sleep(S2);
        }
    }

    private void sync3() throws InterruptedException {
        synchronized (m3) {
            counter3++;
            Workload.sleep(S3);
        }
    }
}
