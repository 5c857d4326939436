package dev.lockscope.demo.deep;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Programs whose every deep-mode statistic is known in advance (Kawachiya's analysis-tool oracles):
 * run under {@code lockscope record --deep 'dev.lockscope.demo.deep.**'}, the report must show exactly
 * the counts named in each scenario's comment. Each scenario locks objects of its own class, so a lock's
 * row names its scenario. Threads are coordinated by latches and thread states, never by sleeps, so
 * which acquisition finds the lock taken is scripted, not left to the scheduler.
 */
public final class DeepKnownAnswers {
    public static final int COUNTER_INCREMENTS = 10_000;
    public static final int HANDOFF_WORKER_LOCKS = 1_000;
    public static final int FAT_FLAT_ROUNDS = 20;
    public static final int FLAT_LOCKS_PER_ROUND = 50;
    public static final int RECURSION_CALLS = 100;
    public static final int RECURSION_DEPTH = 4;

    private DeepKnownAnswers() {
    }

    public static void main(String[] args) throws Exception {
        counter();
        handoff();
        fatFlat();
        recursion();
        waitInNestedLocks();
        jucLock();
        System.out.println("deep known answers: done");
    }

    /** Locked by one thread only. Counter: gets = nonrec = sections = 10,000; first repetition 100%; not shared. */
    static final class Counter {
        private long value;

        synchronized void increment() {
            value++;
        }
    }

    static void counter() throws InterruptedException {
        Counter c = new Counter();
        Thread t = new Thread(() -> {
            for (int i = 0; i < COUNTER_INCREMENTS; i++) {
                c.increment();
            }
        }, "counter");
        t.start();
        t.join();
    }

    /**
     * A creator that locks the object once to set it up, then hands it to a worker that locks it 1,000
     * times. Handoff: gets 1,001; first locker "creator"; first repetition 1; shared; the first locker's
     * outermost acquisitions 1, so both reservation policies hit 1 of 1,001.
     */
    static final class Handoff {
        private int uses;
    }

    static void handoff() throws InterruptedException {
        Handoff[] made = new Handoff[1];
        Thread creator = new Thread(() -> {
            Handoff h = new Handoff();
            synchronized (h) {
                h.uses = 0;
            }
            made[0] = h;
        }, "creator");
        creator.start();
        creator.join();
        Handoff h = made[0];
        Thread worker = new Thread(() -> {
            for (int i = 0; i < HANDOFF_WORKER_LOCKS; i++) {
                synchronized (h) {
                    h.uses++;
                }
            }
        }, "worker");
        worker.start();
        worker.join();
    }

    /**
     * Fat and flat sections, scripted: in each of 20 rounds thread "fat-holder" takes the lock, thread
     * "fat-contender" tries while it is held (and blocks: the holder waits for that), then the holder
     * alone takes it 50 more times. FatFlat: gets = nonrec = 20 · 52 = 1,040; slow exactly 20 (also
     * the number of JFR monitor-enter waits on it); shared.
     */
    static final class FatFlat {
        private long value;
    }

    static void fatFlat() throws InterruptedException {
        FatFlat lock = new FatFlat();
        for (int round = 0; round < FAT_FLAT_ROUNDS; round++) {
            CountDownLatch holding = new CountDownLatch(1);
            Thread contender = new Thread(() -> {
                await(holding);
                synchronized (lock) {
                    lock.value++;
                }
            }, "fat-contender");
            contender.start();
            synchronized (lock) {
                holding.countDown();
                awaitState(contender, Thread.State.BLOCKED, lock);
                lock.value++;
            }
            contender.join(); // it released: the flat section below is not contended
            for (int i = 0; i < FLAT_LOCKS_PER_ROUND; i++) {
                synchronized (lock) {
                    lock.value++;
                }
            }
        }
    }

    /**
     * 100 calls of a synchronized method that recurses to depth 4 on the same object, and 100 nested
     * lock()/lock() pairs on a ReentrantLock. Recursion: gets 400, nonrec 100, rec 300, sections 100;
     * the ReentrantLock: gets 200, nonrec 100, rec 100, sections 100.
     */
    static final class Recursion {
        synchronized int depth(int n) {
            return n <= 1 ? 1 : 1 + depth(n - 1);
        }
    }

    static void recursion() {
        Recursion r = new Recursion();
        for (int i = 0; i < RECURSION_CALLS; i++) {
            r.depth(RECURSION_DEPTH);
        }
        ReentrantLock lock = new ReentrantLock();
        for (int i = 0; i < RECURSION_CALLS; i++) {
            lock.lock();
            try {
                lock.lock();
                lock.unlock();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * wait() inside nested locks: "waiter" holds Outer, then Inner twice (recursively), and waits on
     * Inner; "notifier" locks Inner once it waits and notifies. Inner: gets 3, nonrec 2, rec 1, slow 0,
     * waits 1, notifies 1, sections 3 (the waiter's before and after the wait, the notifier's). Outer:
     * gets 1, sections 1. After the wait the waiter's recursion is restored: it releases Inner twice.
     */
    static final class Outer {
    }

    static final class Inner {
        boolean ready;
    }

    static void waitInNestedLocks() throws InterruptedException {
        Outer outer = new Outer();
        Inner inner = new Inner();
        Thread waiter = new Thread(() -> {
            synchronized (outer) {
                synchronized (inner) {
                    synchronized (inner) {
                        while (!inner.ready) {
                            try {
                                inner.wait();
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }
                }
            }
        }, "waiter");
        waiter.start();
        awaitState(waiter, Thread.State.WAITING, inner);
        Thread notifier = new Thread(() -> {
            synchronized (inner) {
                inner.ready = true;
                inner.notifyAll();
            }
        }, "notifier");
        notifier.start();
        notifier.join();
        waiter.join();
    }

    /**
     * A ReentrantLock, called through the Lock interface, held by "juc-holder" while "juc-trier" calls
     * tryLock() (fails) and then lock() (slow: it arrives while the lock is held). Its row (first site
     * in jucLock): gets 2, nonrec 2, slow 1, try failures 1.
     */
    static void jucLock() throws InterruptedException {
        ReentrantLock reentrant = new ReentrantLock();
        Lock lock = reentrant;
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch tried = new CountDownLatch(1);
        Thread trier = new Thread(() -> {
            await(held);
            if (lock.tryLock()) {
                throw new IllegalStateException("tryLock succeeded while the lock was held");
            }
            tried.countDown();
            lock.lock();
            lock.unlock();
        }, "juc-trier");
        Thread holder = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                await(tried);
                while (!reentrant.hasQueuedThread(trier)) {
                    Thread.onSpinWait();
                }
            } finally {
                lock.unlock();
            }
        }, "juc-holder");
        trier.start();
        holder.start();
        holder.join();
        trier.join();
    }

    /**
     * Until {@code t} is in {@code state} on {@code lock}'s monitor: the state alone could be a moment's
     * block elsewhere (a class's initialisation), after which the script would go on too early.
     */
    private static void awaitState(Thread t, Thread.State state, Object lock) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int hash = System.identityHashCode(lock);
        while (true) {
            ThreadInfo info = threads.getThreadInfo(t.getId());
            if (info != null && info.getThreadState() == state && info.getLockInfo() != null
                    && info.getLockInfo().getIdentityHashCode() == hash) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
