package dev.lockscope.agent.boot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.AbstractOwnableSynchronizer;
import java.util.concurrent.locks.LockSupport;

/**
 * Called from the instrumented {@code LockSupport.park(Object)}, {@code park()}, {@code parkNanos(Object, long)},
 * {@code parkUntil(Object, long)}, {@code unpark(Thread)} and {@code AQS.acquire(...)}.
 *
 * <p>Rules every method here keeps: never throw (everything is caught and counted in
 * {@link HookFailures}); never take a lock or park (a per-thread guard turns hooks off while a hook
 * runs, in case something below does park, e.g. JDK 21+ stream locks); allocate only small
 * short-lived objects; no lambdas, since their first linkage would run inside the application's park.
 */
public final class ParkHooks {
    /** Set once all hook classes are loaded and initialised, and cleared at shutdown. */
    private static volatile boolean active;
    /** Global order of park/unpark events (seed 001 §4.2.3). */
    private static final AtomicLong SEQ = new AtomicLong();
    private static volatile VarHandle exclusiveOwner;

    private static final ThreadLocal<boolean[]> IN_HOOK = new ThreadLocal<boolean[]>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };

    private ParkHooks() {
    }

    /**
     * Loads every class the hooks use, then turns them on. Must run before LockSupport is
     * retransformed, so no class is first loaded from inside a park.
     *
     * @return null, or why the blocker owner cannot be read (then owners are recorded as unknown)
     */
    public static String activate() {
        String ownerProblem = null;
        try {
            exclusiveOwner = MethodHandles.privateLookupIn(AbstractOwnableSynchronizer.class, MethodHandles.lookup())
                    .findVarHandle(AbstractOwnableSynchronizer.class, "exclusiveOwnerThread", Thread.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            ownerProblem = e.toString();
        }
        // Load, initialise and register every event class now: loading one from inside the
        // application's first unpark would take class-loading locks there, and JFR's instrumentation
        // of a newly loaded event class costs milliseconds on that thread.
        jdk.jfr.FlightRecorder.register(ParkBeginEvent.class);
        jdk.jfr.FlightRecorder.register(ParkEndEvent.class);
        jdk.jfr.FlightRecorder.register(UnparkEvent.class);
        jdk.jfr.FlightRecorder.register(AcquireEvent.class);
        new ParkBeginEvent().isEnabled();
        new ParkEndEvent().isEnabled();
        new UnparkEvent().isEnabled();
        new AcquireEvent().isEnabled();
        // Run every path with a private blocker so the classes they use are linked and the paths
        // are compiled before the application's first park (events are not enabled yet).
        Object warm = new Object();
        active = true;
        for (int i = 0; i < 5_000; i++) {
            parkEnd(parkBegin(warm, 1, 0));
        }
        parkEnd(parkBeginCurrentBlocker());
        unparkEnd(unparkBegin(Thread.currentThread()));
        acquireEnd(acquireBegin(new java.util.concurrent.locks.ReentrantLock(), false), 1);
        BlockerRegistry.forget(warm);
        BlockerRegistry.removeDead();
        return ownerProblem;
    }

    public static void deactivate() {
        active = false;
    }

    public static boolean isActive() {
        return active;
    }

    /** Everything {@link #parkEnd} needs about its park. */
    static final class Token {
        final BlockerRecord record;
        final ParkEndEvent end;
        final long beginSeq;
        final long beginNanos;
        final long timeoutNanos;
        final long deadlineMillis;

        Token(BlockerRecord record, ParkEndEvent end, long beginSeq, long beginNanos, long timeoutNanos, long deadlineMillis) {
            this.record = record;
            this.end = end;
            this.beginSeq = beginSeq;
            this.beginNanos = beginNanos;
            this.timeoutNanos = timeoutNanos;
            this.deadlineMillis = deadlineMillis;
        }
    }

    /** Entry of park(blocker)/parkNanos(blocker, nanos)/parkUntil(blocker, deadline). */
    public static Object parkBegin(Object blocker, long timeoutNanos, long deadlineMillis) {
        if (!active || blocker == null) {
            return null;
        }
        boolean[] guard = null;
        try {
            guard = IN_HOOK.get();
            if (guard[0]) {
                return null;
            }
            guard[0] = true;
            long seq = SEQ.incrementAndGet();
            // The record keeps the blocker's class name and identity hash, so a park on a known
            // blocker does not compute them again for its two events.
            BlockerRecord record = BlockerRegistry.recordFor(blocker);
            String blockerClass = record != null ? record.className : blocker.getClass().getName();
            int blockerHash = record != null ? record.identityHash : System.identityHashCode(blocker);
            ParkBeginEvent begin = new ParkBeginEvent();
            if (begin.isEnabled()) {
                begin.seq = seq;
                begin.blockerClass = blockerClass;
                begin.blockerHash = blockerHash;
                begin.timeoutNanos = timeoutNanos;
                begin.deadlineMillis = deadlineMillis;
                Thread owner = ownerOf(blocker);
                if (owner != null) {
                    begin.ownerTid = owner.getId();
                    begin.ownerName = owner.getName();
                }
                begin.commit();
            }
            ParkEndEvent end = new ParkEndEvent();
            if (end.isEnabled()) {
                end.beginSeq = seq;
                end.blockerClass = blockerClass;
                end.blockerHash = blockerHash;
                end.begin();
            } else {
                end = null;
            }
            long now = System.nanoTime();
            if (record != null) {
                BlockerRegistry.onPark(record, now);
            }
            return new Token(record, end, seq, now, timeoutNanos, deadlineMillis);
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        } finally {
            if (guard != null) {
                guard[0] = false;
            }
        }
    }

    /**
     * Entry of park() without a blocker argument. AQS {@code ConditionObject.await} sets the blocker
     * with {@code LockSupport.setCurrentBlocker} and then calls park(); only such parks are recorded.
     */
    public static Object parkBeginCurrentBlocker() {
        if (!active) {
            return null;
        }
        try {
            return parkBegin(LockSupport.getBlocker(Thread.currentThread()), 0, 0);
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of the park methods, in the woken thread. */
    public static void parkEnd(Object token) {
        if (!(token instanceof Token)) {
            return;
        }
        try {
            Token tk = (Token) token;
            long now = System.nanoTime();
            if (tk.record != null) {
                BlockerRegistry.onUnpark(tk.record, now);
            }
            ParkEndEvent end = tk.end;
            if (end != null) {
                end.end();
                if (end.shouldCommit()) {
                    end.seq = SEQ.get();
                    end.timedOut = (tk.timeoutNanos > 0 && now - tk.beginNanos >= tk.timeoutNanos)
                            || (tk.deadlineMillis > 0 && System.currentTimeMillis() >= tk.deadlineMillis);
                    end.commit();
                }
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** Entry of unpark(thread): numbers the unpark before the target can wake. */
    public static Object unparkBegin(Thread target) {
        if (!active || target == null) {
            return null;
        }
        try {
            Object blocker = LockSupport.getBlocker(target);
            if (blocker == null) {
                return null; // not parked on a blocker: nothing to attribute
            }
            UnparkEvent e = new UnparkEvent();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            e.seq = SEQ.incrementAndGet();
            e.targetTid = target.getId();
            e.targetName = target.getName();
            e.blockerClass = blocker.getClass().getName();
            e.blockerHash = System.identityHashCode(blocker);
            return e;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of unpark(thread): the target is already awake, so the stack walk delays nobody. */
    public static void unparkEnd(Object token) {
        if (!(token instanceof UnparkEvent)) {
            return;
        }
        boolean[] guard = null;
        try {
            guard = IN_HOOK.get();
            if (guard[0]) {
                return;
            }
            guard[0] = true;
            ((UnparkEvent) token).commit();
        } catch (Throwable t) {
            HookFailures.record(t);
        } finally {
            if (guard != null) {
                guard[0] = false;
            }
        }
    }

    /** Entry of AQS.acquire(Node, int, shared, interruptible, timed, time): the contended path. */
    public static Object acquireBegin(Object sync, boolean shared) {
        if (!active || sync == null) {
            return null;
        }
        try {
            AcquireEvent e = new AcquireEvent();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            e.syncClass = sync.getClass().getName();
            e.syncHash = System.identityHashCode(sync);
            e.shared = shared;
            Thread owner = ownerOf(sync);
            if (owner != null) {
                e.ownerTid = owner.getId();
                e.ownerName = owner.getName();
            }
            return e;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of AQS.acquire; {@code result} is its return value (positive when acquired). */
    public static void acquireEnd(Object token, int result) {
        if (!(token instanceof AcquireEvent)) {
            return;
        }
        try {
            AcquireEvent e = (AcquireEvent) token;
            e.end();
            if (e.shouldCommit()) {
                e.acquired = result > 0;
                e.commit();
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    private static Thread ownerOf(Object blocker) {
        VarHandle vh = exclusiveOwner;
        if (vh == null || !(blocker instanceof AbstractOwnableSynchronizer)) {
            return null;
        }
        return (Thread) vh.get((AbstractOwnableSynchronizer) blocker);
    }
}
