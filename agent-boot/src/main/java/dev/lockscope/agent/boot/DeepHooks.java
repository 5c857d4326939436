package dev.lockscope.agent.boot;

import jdk.internal.vm.annotation.DontInline;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/**
 * Deep mode's probes, called from the code of the classes selected with {@code --deep} (see the agent's
 * DeepTransformer): around every {@code monitorenter} and {@code monitorexit} (javac's exception-path
 * exits included; a {@code synchronized} method is rewritten into the same pair), instead of every
 * {@code Object.wait/notify/notifyAll} call and every {@code Lock.lock/lockInterruptibly/tryLock/unlock}
 * call on a {@code java.util.concurrent} lock.
 *
 * <p>Design of this hot path (it runs on every acquisition in the selected code):
 * <ul>
 *   <li><b>Per object</b> ({@link DeepLockRecord}): counters written by the lock's holder only, while
 *       it holds the lock, so they need no synchronisation; SLOW (another thread held the lock when this
 *       one arrived) is a plain read of the record's owner: no atomic operation per acquisition.</li>
 *   <li><b>Blocked</b>: only for a slow acquisition, the JVM's own count of this thread's blocked
 *       monitor entries (parks, for {@code java.util.concurrent} locks) is read before and after it
 *       ({@link ThreadMXBean#getThreadInfo(long)}, a few µs, no safepoint): the acquisition blocked if it
 *       rose. The JVM counts there exactly where it posts JFR's {@code jdk.JavaMonitorEnter}, so the two
 *       agree; SLOW also counts the acquisitions HotSpot got by spinning. Virtual threads have no such
 *       count (never counted blocked).</li>
 *   <li><b>Per site</b> ({@link DeepSites}): per-thread tables, plain writes (see there).</li>
 *   <li><b>Hold times</b>: sampled after an object's first 1,024 sections ({@link DeepLockRecord}).</li>
 *   <li><b>Per thread</b>: the record between the probe before a {@code monitorenter} and the probe
 *       after it (nothing else runs on the thread in between), and a one-entry lookup cache.</li>
 *   <li><b>Shared map</b>: the first acquisition of a new object inserts its record into a
 *       {@code ConcurrentHashMap} (which may take a bin lock for that insert); lookups are lock-free.
 *       At most {@link #maxLocks} records: acquisitions of further objects count only at their site.</li>
 *   <li>The identity hash of an object is taken before its {@code monitorenter}: on JDK 17 hashing a
 *       stack-locked object inflates its monitor, which would change what is measured.</li>
 *   <li>Nothing is thrown into the application: the probes catch everything and count it in
 *       {@link HookFailures}; the application's own exceptions from {@code wait} or {@code lock}
 *       pass through unchanged.</li>
 * </ul>
 */
public final class DeepHooks {
    private static volatile boolean active;
    private static volatile int maxLocks = 100_000;
    private static final ConcurrentHashMap<Object, DeepLockRecord> RECORDS = new ConcurrentHashMap<>(1024);
    private static final AtomicLong UNTRACKED = new AtomicLong();
    /** The JVM's per-thread blocked and waited counts (null if the platform has none). */
    private static volatile ThreadMXBean threadCounts;

    /** What one thread carries from the probe before a monitorenter to the probe after it, a lookup cache, its site counters. */
    static final class PerThread {
        final Thread thread = Thread.currentThread();
        final DeepSites.ThreadTable sites = DeepSites.newTable();
        DeepLockRecord entering;
        boolean enteringRecursive;
        boolean enteringSlow;
        /** This thread's blocked-entry count before a slow monitor entry, -1 unknown. */
        long enteringBlockedBefore;
        /** The record's acquisitions when this thread checked it: more after the entry means another thread took it in between. */
        long enteringGets;
        /** This thread's blocked-entry and waited counts as last read (first at its first probe), -1 unknown. */
        long lastBlockedCount = -1;
        long lastWaitedCount = -1;

        PerThread() {
            blockedCount(this);
        }
        int enteringSite;
        DeepLockRecord last;
    }

    // an anonymous class, not a lambda: a lambda's first linkage would run inside the application's locking
    private static final ThreadLocal<PerThread> PER_THREAD = new ThreadLocal<PerThread>() {
        @Override
        protected PerThread initialValue() {
            return new PerThread();
        }
    };

    private static final int BY_ID_SLOTS = 4096;
    /**
     * The threads' states by thread id, in front of the ThreadLocal: ThreadLocal lookups missed in busy
     * thread-local maps and were most of the probes' cost. Racy on purpose: a slot holds some thread's
     * state or null, and a reader checks {@link PerThread#thread} (a final field, so it is seen
     * initialised) before using it. Keeps at most this many ended threads' states reachable.
     */
    private static final PerThread[] BY_ID = new PerThread[BY_ID_SLOTS];

    private DeepHooks() {
    }

    private static PerThread current() {
        Thread t = Thread.currentThread();
        int slot = (int) (t.getId() & (BY_ID_SLOTS - 1));
        PerThread pt = BY_ID[slot];
        if (pt != null && pt.thread == t) {
            return pt;
        }
        pt = PER_THREAD.get();
        BY_ID[slot] = pt;
        return pt;
    }

    public static void activate(int maxLockRecords) {
        maxLocks = maxLockRecords;
        try {
            threadCounts = ManagementFactory.getThreadMXBean(); // loaded here, never first on a locking path
        } catch (Throwable t) {
            HookFailures.record(t);
        }
        active = true;
    }

    /**
     * The JVM's count of the times {@code t} blocked entering a monitor ({@code parks} false) or waited,
     * parks included ({@code parks} true); -1 when unknown (a virtual thread, no management).
     */
    private static long blockingCount(Thread t, boolean parks) {
        ThreadInfo info = countsOf(t);
        return info == null ? -1 : parks ? info.getWaitedCount() : info.getBlockedCount();
    }

    /** The JVM's counts of {@code t} (null when unknown: a virtual thread, no management). */
    private static ThreadInfo countsOf(Thread t) {
        ThreadMXBean mx = threadCounts;
        if (mx == null) {
            return null;
        }
        try {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
            ThreadInfo info = mx.getThreadInfo(t.getId());
            return info;
        } catch (Throwable e) {
            HookFailures.record(e);
            return null;
        }
    }

    /** This thread's blocked monitor entries now ({@link #blockingCount}), remembered with its waits as its last read. */
    private static long blockedCount(PerThread pt) {
        ThreadInfo info = countsOf(pt.thread);
        pt.lastWaitedCount = info == null ? -1 : info.getWaitedCount();
        pt.lastBlockedCount = info == null ? -1 : info.getBlockedCount();
        return pt.lastBlockedCount;
    }

    /** Whether the count of {@link #blockingCount} rose from {@code before}. */
    private static boolean blockedSince(Thread t, boolean parks, long before) {
        return before >= 0 && blockingCount(t, parks) > before;
    }

    public static void deactivate() {
        active = false;
    }

    public static boolean isActive() {
        return active;
    }

    /** Every lock record of the application, collected objects' included. */
    public static java.util.List<DeepLockRecord> records() {
        java.util.List<DeepLockRecord> out = new java.util.ArrayList<>(RECORDS.size());
        for (DeepLockRecord r : RECORDS.values()) {
            if (!DeepSummaries.isCalibration(r)) {
                out.add(r);
            }
        }
        return out;
    }

    static DeepLockRecord recordOf(Object lock) {
        return RECORDS.get(new BlockerRecord.Lookup(lock));
    }

    /** Drops the record of one object (the calibration's own lock) and returns it. */
    static DeepLockRecord forget(Object lock) {
        current().last = null;
        return RECORDS.remove(new BlockerRecord.Lookup(lock));
    }

    /** Acquisitions of objects beyond the record limit. */
    public static long untracked() {
        return UNTRACKED.get();
    }

    private static DeepLockRecord recordFor(PerThread pt, Object lock, boolean juc) {
        DeepLockRecord cached = pt.last;
        if (cached != null && cached.key.get() == lock) {
            return cached;
        }
        DeepLockRecord r = RECORDS.get(new BlockerRecord.Lookup(lock)); // hashes the object: before its monitorenter
        if (r == null) {
            if (RECORDS.size() >= maxLocks) {
                UNTRACKED.incrementAndGet();
                return null;
            }
            DeepLockRecord fresh = new DeepLockRecord(lock, juc);
            DeepLockRecord raced = RECORDS.putIfAbsent(fresh.key, fresh);
            r = raced != null ? raced : fresh;
        }
        pt.last = r;
        return r;
    }

    // ---- monitors: DUP; preEnter(o, site); MONITORENTER; postEnter() and DUP; preExit(o); MONITOREXIT ----

    @DontInline
    public static void preEnter(Object lock, int site) {
        try {
            if (!active || lock == null) {
                return;
            }
            PerThread pt = current();
            DeepLockRecord r = recordFor(pt, lock, false);
            pt.entering = r;
            pt.enteringSite = site;
            if (r == null) {
                DeepSites.add(pt.sites, site, DeepSites.GETS);
                return;
            }
            boolean recursive = r.owner == pt.thread; // only this thread ever writes itself there
            pt.enteringRecursive = recursive;
            boolean slow = !recursive && r.heldByAnother(pt.thread);
            pt.enteringGets = r.gets; // read after the owner: a release seen there has its holder's count seen here (x86 TSO)
            pt.enteringSlow = slow;
            pt.enteringBlockedBefore = slow ? blockedCount(pt) : -1;
            if (slow) {
                r.startedWaiting(); // contended releases are recorded until this thread holds the monitor
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    @DontInline
    public static void postEnter() {
        try {
            if (!active) {
                return;
            }
            PerThread pt = current();
            DeepLockRecord r = pt.entering;
            if (r != null) {
                pt.entering = null;
                if (!pt.enteringRecursive) {
                    r.owner = pt.thread; // first: arrivals from now on are slow, while the blocked count is read
                }
                if (pt.enteringSlow) {
                    r.stoppedWaiting(); // before acquired(): its hold is timed when others still wait
                }
                boolean slow = pt.enteringSlow;
                boolean blocked;
                if (slow) {
                    blocked = pt.enteringBlockedBefore >= 0 && blockedCount(pt) > pt.enteringBlockedBefore;
                } else if (!pt.enteringRecursive && r.gets != pt.enteringGets) {
                    // Another thread acquired between this thread's check and its entry (the check's racy
                    // window: on log4j2 at 16 threads all of the blocked entries the check missed). The count
                    // before was not read; this thread's last read stands for it, unless the thread waited,
                    // parked or slept since (re-entering after a wait counts as blocked: not this entry's).
                    // A block on a monitor outside the selected code since then would count here too.
                    slow = true;
                    long before = pt.lastBlockedCount;
                    long waitedBefore = pt.lastWaitedCount;
                    blocked = before >= 0 && blockedCount(pt) > before && pt.lastWaitedCount == waitedBefore;
                } else {
                    blocked = false;
                }
                r.acquired(pt.thread, pt.enteringRecursive, slow, blocked, pt.enteringSite, pt.sites); // holding the monitor
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    @DontInline
    public static void preExit(Object lock) {
        try {
            if (!active || lock == null) {
                return;
            }
            PerThread pt = current();
            DeepLockRecord r = recordFor(pt, lock, false);
            if (r != null && r.owner == pt.thread) {
                r.releasing(pt.sites); // still holding the monitor
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    // ---- Object.wait/notify/notifyAll call sites, replaced by these ----

    public static void waitOn(Object lock, int site) throws InterruptedException {
        DeepLockRecord r = beforeWait(lock, site);
        int depth = r == null ? 0 : r.depth; // read while still holding the monitor
        int holdSite = r == null ? -1 : r.holdSite;
        try {
            lock.wait();
        } finally {
            afterWait(r, depth, holdSite);
        }
    }

    public static void waitOn(Object lock, long millis, int site) throws InterruptedException {
        DeepLockRecord r = beforeWait(lock, site);
        int depth = r == null ? 0 : r.depth; // read while still holding the monitor
        int holdSite = r == null ? -1 : r.holdSite;
        try {
            lock.wait(millis);
        } finally {
            afterWait(r, depth, holdSite);
        }
    }

    public static void waitOn(Object lock, long millis, int nanos, int site) throws InterruptedException {
        DeepLockRecord r = beforeWait(lock, site);
        int depth = r == null ? 0 : r.depth; // read while still holding the monitor
        int holdSite = r == null ? -1 : r.holdSite;
        try {
            lock.wait(millis, nanos);
        } finally {
            afterWait(r, depth, holdSite);
        }
    }

    /**
     * Before a wait by the monitor's holder: the wait ends the locked section and releases the monitor
     * (all recursion levels, restored after); null when this thread does not hold it (the wait throws).
     */
    @DontInline
    private static DeepLockRecord beforeWait(Object lock, int site) {
        try {
            if (!active || lock == null) {
                return null;
            }
            PerThread pt = current();
            DeepLockRecord r = recordFor(pt, lock, false);
            if (r == null || r.owner != pt.thread) {
                return null;
            }
            r.waits++; // holding the monitor
            r.inWait++; // holding the monitor; lowered in afterWait, holding it again
            r.syncOp(true); // waiting for a notification is a fat section
            DeepSites.add(pt.sites, site, DeepSites.WAITS);
            r.endSection(pt.sites);
            r.owner = null; // a waiting thread does not hold the monitor: acquisitions meanwhile are not slow
            return r;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    @DontInline
    private static void afterWait(DeepLockRecord r, int depth, int holdSite) {
        if (r == null) {
            return;
        }
        try {
            r.owner = Thread.currentThread();
            r.inWait--;
            r.depth = depth;
            r.startSection(holdSite);
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    public static void notifyOne(Object lock, int site) {
        countNotify(lock, site);
        lock.notify();
    }

    public static void notifyEvery(Object lock, int site) {
        countNotify(lock, site);
        lock.notifyAll();
    }

    @DontInline
    private static void countNotify(Object lock, int site) {
        try {
            if (!active || lock == null) {
                return;
            }
            PerThread pt = current();
            DeepLockRecord r = recordFor(pt, lock, false);
            if (r != null && r.owner == pt.thread) {
                r.notifies++; // holding the monitor
                r.syncOp(r.othersContend());
                DeepSites.add(pt.sites, site, DeepSites.NOTIFIES);
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    // ---- java.util.concurrent locks: Lock.lock/lockInterruptibly/tryLock/unlock call sites, replaced by these ----

    public static void lock(Lock lock, int site) {
        DeepLockRecord r = beforeLock(lock);
        boolean recursive = r != null && r.owner == Thread.currentThread();
        long slow = slowMark(r, recursive);
        lock.lock();
        afterLock(r, recursive, slow, site);
    }

    public static void lockInterruptibly(Lock lock, int site) throws InterruptedException {
        DeepLockRecord r = beforeLock(lock);
        boolean recursive = r != null && r.owner == Thread.currentThread();
        long slow = slowMark(r, recursive);
        lock.lockInterruptibly();
        afterLock(r, recursive, slow, site);
    }

    /** {@code tryLock()} never waits: its acquisitions are never slow; a failure counts as a try failure. */
    public static boolean tryLock(Lock lock, int site) {
        DeepLockRecord r = beforeLock(lock);
        boolean recursive = r != null && r.owner == Thread.currentThread();
        boolean got = lock.tryLock();
        if (got) {
            afterLock(r, recursive, NOT_SLOW, site);
        } else {
            tryFailed(r, site);
        }
        return got;
    }

    public static boolean tryLock(Lock lock, long time, TimeUnit unit, int site) throws InterruptedException {
        DeepLockRecord r = beforeLock(lock);
        boolean recursive = r != null && r.owner == Thread.currentThread();
        long slow = slowMark(r, recursive);
        boolean got = lock.tryLock(time, unit);
        if (got) {
            afterLock(r, recursive, slow, site);
        } else {
            tryFailed(r, site);
        }
        return got;
    }

    public static void unlock(Lock lock, int site) {
        beforeUnlock(lock);
        lock.unlock();
    }

    /** {@link #slowMark}'s answer for an acquisition that is not slow. */
    private static final long NOT_SLOW = Long.MIN_VALUE;

    /**
     * Before an outermost attempt on a {@code java.util.concurrent} lock: {@link #NOT_SLOW} when no other
     * thread holds it, else this thread's waited count (parks included; -1 unknown), to tell after the
     * acquisition whether it parked.
     */
    @DontInline
    private static long slowMark(DeepLockRecord r, boolean recursive) {
        try {
            if (r == null || recursive) {
                return NOT_SLOW;
            }
            Thread me = Thread.currentThread();
            return r.heldByAnother(me) ? blockingCount(me, true) : NOT_SLOW;
        } catch (Throwable t) {
            HookFailures.record(t);
            return NOT_SLOW;
        }
    }

    /**
     * The record of an exclusive lock, or null: shared (read) locks have many holders at once, which
     * the holder-only accounting cannot follow, so their calls pass through uncounted.
     */
    @DontInline
    private static DeepLockRecord beforeLock(Lock lock) {
        try {
            if (!active || lock == null || lock.getClass().getName().contains("ReadLock")) {
                return null;
            }
            return recordFor(current(), lock, true);
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    @DontInline
    private static void afterLock(DeepLockRecord r, boolean recursive, long slowMark, int site) {
        if (r == null) {
            return;
        }
        try {
            Thread me = Thread.currentThread();
            if (!recursive) {
                r.owner = me; // first: arrivals from now on are slow, while the blocked count is read
            }
            boolean slow = slowMark != NOT_SLOW;
            boolean blocked = slow && blockedSince(me, true, slowMark);
            r.acquired(me, recursive, slow, blocked, site, current().sites); // holding the lock
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    private static void tryFailed(DeepLockRecord r, int site) {
        if (r != null) {
            r.tryFailed();
        }
        DeepSites.add(current().sites, site, DeepSites.TRY_FAILURES);
    }

    /** Before an unlock: ends the holder's locked section when this is its outermost release. */
    @DontInline
    private static void beforeUnlock(Lock lock) {
        try {
            DeepLockRecord r = beforeLock(lock);
            if (r != null && r.owner == Thread.currentThread()) {
                r.releasing(current().sites); // still holding the lock
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }
}
