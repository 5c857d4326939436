package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * ReentrantReadWriteLock cases, one lock each, one after the other; each timeline starts when the
 * first holder has the lock:
 * <ul>
 *   <li>rw-a (writer → readers): W holds the write lock 50 ms; R1, R2 ask to read at 10 ms: ≈ 40 ms each on W;</li>
 *   <li>rw-b (writer → writer): W1 holds 50 ms; W2 asks at 10 ms: ≈ 40 ms on W1;</li>
 *   <li>rw-c (readers → writer): R1 reads 0–30 ms, R2 reads 0–60 ms; W asks at 10 ms: ≈ 50 ms on R2, the
 *       last reader (R1's 20 ms of overlap cannot be seen: a reader's release wakes nobody while others read).</li>
 * </ul>
 */
final class ReadWriteScenario implements Scenario {
    @Override
    public void run(double seconds) throws InterruptedException {
        ReentrantReadWriteLock a = new ReentrantReadWriteLock();
        holdingWrite("rw-a-W", a, 50, tl -> {
            tl.start("rw-a-R1", 10, () -> Scenario.holdLock(a.readLock(), 1));
            tl.start("rw-a-R2", 10, () -> Scenario.holdLock(a.readLock(), 1));
        });
        ReentrantReadWriteLock b = new ReentrantReadWriteLock();
        holdingWrite("rw-b-W1", b, 50, tl -> tl.start("rw-b-W2", 10, () -> Scenario.holdLock(b.writeLock(), 1)));

        ReentrantReadWriteLock c = new ReentrantReadWriteLock();
        Timeline outer = new Timeline();
        outer.start("rw-c-R1", 0, () -> {
            Timeline tl;
            c.readLock().lock();
            try {
                Truth.mark("acquired");
                tl = new Timeline();
                tl.start("rw-c-R2", 0, () -> Scenario.holdLock(c.readLock(), 60));
                tl.start("rw-c-W", 10, () -> Scenario.holdLock(c.writeLock(), 1));
                tl.at(30);
                Truth.mark("release");
            } finally {
                c.readLock().unlock();
            }
            Truth.mark("released");
            tl.join();
        });
        outer.join();
    }

    interface Others {
        void start(Timeline tl);
    }

    /** A thread takes the write lock, starts the others on a timeline from then, holds {@code ms}. */
    private static void holdingWrite(String name, ReentrantReadWriteLock l, long ms, Others others) throws InterruptedException {
        Timeline outer = new Timeline();
        outer.start(name, 0, () -> {
            Timeline tl;
            l.writeLock().lock();
            try {
                Truth.mark("acquired");
                tl = new Timeline();
                others.start(tl);
                tl.at(ms);
                Truth.mark("release");
            } finally {
                l.writeLock().unlock();
            }
            Truth.mark("released");
            tl.join();
        });
        outer.join();
    }
}
