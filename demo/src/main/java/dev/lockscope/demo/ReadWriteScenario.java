package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * ReentrantReadWriteLock cases, one lock each, one after the other:
 * <ul>
 *   <li>rw-a (writer → readers): W holds the write lock 50 ms; R1, R2 ask to read at 10 ms: ≈ 40 ms each on W;</li>
 *   <li>rw-b (writer → writer): W1 holds 50 ms; W2 asks at 10 ms: ≈ 40 ms on W1;</li>
 *   <li>rw-c (readers → writer): R1 reads 0–30 ms, R2 reads 0–60 ms; W asks at 10 ms: ≈ 50 ms on R2, the last reader.</li>
 * </ul>
 */
final class ReadWriteScenario implements Scenario {
    @Override
    public void run(double seconds) throws InterruptedException {
        ReentrantReadWriteLock a = new ReentrantReadWriteLock();
        Timeline ta = new Timeline();
        ta.start("rw-a-W", 0, () -> write(a, 50));
        ta.start("rw-a-R1", 10, () -> read(a, 1));
        ta.start("rw-a-R2", 10, () -> read(a, 1));
        ta.join();

        ReentrantReadWriteLock b = new ReentrantReadWriteLock();
        Timeline tb = new Timeline();
        tb.start("rw-b-W1", 0, () -> write(b, 50));
        tb.start("rw-b-W2", 10, () -> write(b, 1));
        tb.join();

        ReentrantReadWriteLock c = new ReentrantReadWriteLock();
        Timeline tc = new Timeline();
        tc.start("rw-c-R1", 0, () -> read(c, 30));
        tc.start("rw-c-R2", 0, () -> read(c, 60));
        tc.start("rw-c-W", 10, () -> write(c, 1));
        tc.join();
    }

    private static void read(ReentrantReadWriteLock l, long ms) throws InterruptedException {
        l.readLock().lock();
        try {
            Thread.sleep(ms);
        } finally {
            l.readLock().unlock();
        }
    }

    private static void write(ReentrantReadWriteLock l, long ms) throws InterruptedException {
        l.writeLock().lock();
        try {
            Thread.sleep(ms);
        } finally {
            l.writeLock().unlock();
        }
    }
}
