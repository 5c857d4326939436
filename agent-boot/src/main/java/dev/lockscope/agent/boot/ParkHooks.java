package dev.lockscope.agent.boot;

import jdk.internal.vm.annotation.DontInline;

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
 * runs, in case something below does park, e.g. JDK 21+ stream locks); allocate nothing per call
 * beyond the live tally's next state (event objects and park tokens are reused per thread); no lambdas, since their first linkage would run inside the application's park.
 *
 * <p>Every entry point is {@code @DontInline} (honoured because this class is loaded by the bootstrap
 * loader; other loaders' uses of the annotation are ignored by the JVM). Without it C2 inlined the
 * hooks, the JFR event writers below them and the registry into every caller of park, unpark and
 * AQS.acquire: {@code ArrayBlockingQueue.take} grew from ~1.3 KB to ~9.8 KB of inlined bytecode and
 * its C2 compile from ~40 ms to ~450 ms, recompiled three times, and the compile backlog ate a third
 * of the CPU of a 2-core machine for seconds (see scripts/profile-agent.sh). A call costs a few ns;
 * the hooks run next to a park, which costs microseconds.
 */
public final class ParkHooks {
    /** Set once all hook classes are loaded and initialised, and cleared at shutdown. */
    private static volatile boolean active;
    /** Global order of park/unpark events (seed 001 §4.2.3). */
    private static final AtomicLong SEQ = new AtomicLong();
    private static volatile VarHandle exclusiveOwner;
    /**
     * Whether {@code lockscope.Acquire} is recorded (agent option {@code acquireEvents}). Off by
     * default: no analysis or report reads it, and it cost a hook, an event and a commit on every
     * contended acquisition. While off, the AQS.acquire hook returns at once.
     */
    private static volatile boolean acquireEvents;

    /**
     * Per-thread scratch: the re-entry guard, the event objects the hooks fill and commit (reused:
     * a JFR event is a plain object, and begin/end/commit are called on every use), and a
     * one-entry cache of the last blocker record. Keeps the park/unpark path free of per-call
     * allocation apart from the tally.
     */
    static final class PerThread {
        boolean inHook;
        ParkBeginEvent begin;
        /** A free park token of this thread, or null while it is in use (parks of a thread never nest). */
        Token parkToken;
        UnparkEvent unpark;
        AcquireEvent acquire;
        BlockerRecord lastRecord;
    }

    private static final ThreadLocal<PerThread> PER_THREAD = new ThreadLocal<PerThread>() {
        @Override
        protected PerThread initialValue() {
            return new PerThread();
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
        boolean acquire = acquireEvents;
        acquireEvents = true;
        acquireEnd(acquireBegin(new java.util.concurrent.locks.ReentrantLock(), false), 1);
        acquireEvents = acquire;
        BlockerRegistry.forget(warm);
        BlockerRegistry.removeDead();
        return ownerProblem;
    }

    public static void setAcquireEvents(boolean on) {
        acquireEvents = on;
    }

    public static void deactivate() {
        active = false;
    }

    public static boolean isActive() {
        return active;
    }

    /** Everything {@link #parkEnd} needs about its park; reused by its thread from one park to the next. */
    static final class Token {
        final PerThread owner;
        final ParkEndEvent end = new ParkEndEvent();
        BlockerRecord record;
        boolean endEnabled;
        long beginNanos;
        long timeoutNanos;
        long deadlineMillis;

        Token(PerThread owner) {
            this.owner = owner;
        }
    }

    /** Entry of park(blocker)/parkNanos(blocker, nanos)/parkUntil(blocker, deadline). */
    @DontInline
    public static Object parkBegin(Object blocker, long timeoutNanos, long deadlineMillis) {
        if (!active || blocker == null) {
            return null;
        }
        PerThread pt = null;
        try {
            pt = PER_THREAD.get();
            if (pt.inHook) {
                pt = null;
                return null;
            }
            pt.inHook = true;
            long seq = SEQ.incrementAndGet();
            // The record keeps the blocker's class name and identity hash, so a park on a known
            // blocker does not compute them again for its two events.
            BlockerRecord record = pt.lastRecord;
            if (record == null || record.key.get() != blocker) {
                record = BlockerRegistry.recordFor(blocker);
                if (record != null) {
                    pt.lastRecord = record;
                }
            }
            String blockerClass = record != null ? record.className : blocker.getClass().getName();
            int blockerHash = record != null ? record.identityHash : System.identityHashCode(blocker);
            ParkBeginEvent begin = pt.begin;
            if (begin == null) {
                begin = pt.begin = new ParkBeginEvent();
            }
            if (begin.isEnabled()) {
                begin.begin();
                begin.seq = seq;
                begin.blockerClass = blockerClass;
                begin.blockerHash = blockerHash;
                begin.timeoutNanos = timeoutNanos;
                begin.deadlineMillis = deadlineMillis;
                Thread owner = ownerOf(blocker);
                begin.ownerTid = owner != null ? owner.getId() : 0;
                begin.ownerName = owner != null ? owner.getName() : null;
                begin.end();
                begin.commit();
            }
            Token tk = pt.parkToken;
            if (tk != null) {
                pt.parkToken = null;
            } else {
                tk = new Token(pt); // first park of this thread, or a park whose end never came
            }
            ParkEndEvent end = tk.end;
            tk.endEnabled = end.isEnabled();
            if (tk.endEnabled) {
                end.beginSeq = seq;
                end.blockerClass = blockerClass;
                end.blockerHash = blockerHash;
                end.begin();
            }
            long now = System.nanoTime();
            if (record != null) {
                BlockerRegistry.onPark(record, now);
            }
            tk.record = record;
            tk.beginNanos = now;
            tk.timeoutNanos = timeoutNanos;
            tk.deadlineMillis = deadlineMillis;
            return tk;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        } finally {
            if (pt != null) {
                pt.inHook = false;
            }
        }
    }

    /**
     * Entry of park() without a blocker argument. AQS {@code ConditionObject.await} sets the blocker
     * with {@code LockSupport.setCurrentBlocker} and then calls park(); only such parks are recorded.
     */
    @DontInline
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
    @DontInline
    public static void parkEnd(Object token) {
        if (!(token instanceof Token)) {
            return;
        }
        try {
            Token tk = (Token) token;
            long now = System.nanoTime();
            BlockerRecord record = tk.record;
            tk.record = null;
            if (record != null) {
                BlockerRegistry.onUnpark(record, now);
            }
            ParkEndEvent end = tk.end;
            if (tk.endEnabled) {
                end.end();
                if (end.shouldCommit()) {
                    end.seq = SEQ.get();
                    end.timedOut = (tk.timeoutNanos > 0 && now - tk.beginNanos >= tk.timeoutNanos)
                            || (tk.deadlineMillis > 0 && System.currentTimeMillis() >= tk.deadlineMillis);
                    end.commit();
                }
            }
            tk.owner.parkToken = tk; // free for this thread's next park
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** Entry of unpark(thread): numbers the unpark before the target can wake. */
    @DontInline
    public static Object unparkBegin(Thread target) {
        if (!active || target == null) {
            return null;
        }
        PerThread pt = null;
        try {
            Object blocker = LockSupport.getBlocker(target);
            if (blocker == null) {
                return null; // not parked on a blocker: nothing to attribute
            }
            pt = PER_THREAD.get();
            if (pt.inHook) {
                pt = null;
                return null;
            }
            UnparkEvent e = pt.unpark;
            if (e == null) {
                e = new UnparkEvent();
            } else {
                pt.unpark = null; // in use until unparkEnd
            }
            if (!e.isEnabled()) {
                pt.unpark = e;
                return null;
            }
            e.begin();
            e.seq = SEQ.incrementAndGet();
            e.targetTid = target.getId();
            e.targetName = target.getName();
            BlockerRecord r = pt.lastRecord;
            if (r != null && r.key.get() == blocker) {
                e.blockerClass = r.className;
                e.blockerHash = r.identityHash;
            } else {
                e.blockerClass = blocker.getClass().getName();
                e.blockerHash = System.identityHashCode(blocker);
            }
            return e;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of unpark(thread): the target is already awake, so the stack walk delays nobody. */
    @DontInline
    public static void unparkEnd(Object token) {
        if (!(token instanceof UnparkEvent)) {
            return;
        }
        PerThread pt = null;
        try {
            pt = PER_THREAD.get();
            if (pt.inHook) {
                pt = null;
                return;
            }
            pt.inHook = true;
            UnparkEvent e = (UnparkEvent) token;
            e.end();
            e.commit();
            e.targetName = null;
            pt.unpark = e;
        } catch (Throwable t) {
            HookFailures.record(t);
        } finally {
            if (pt != null) {
                pt.inHook = false;
            }
        }
    }

    @DontInline
    public static Object acquireBegin(Object sync, boolean shared) {
        if (!active || sync == null || !acquireEvents) {
            return null;
        }
        try {
            PerThread pt = PER_THREAD.get();
            AcquireEvent e = pt.acquire;
            if (e == null) {
                e = new AcquireEvent();
            } else {
                pt.acquire = null; // in use until acquireEnd
            }
            if (!e.isEnabled()) {
                pt.acquire = e;
                return null;
            }
            e.begin();
            BlockerRecord r = pt.lastRecord;
            if (r != null && r.key.get() == sync) {
                e.syncClass = r.className;
                e.syncHash = r.identityHash;
            } else {
                e.syncClass = sync.getClass().getName();
                e.syncHash = System.identityHashCode(sync);
            }
            e.shared = shared;
            Thread owner = ownerOf(sync);
            e.ownerTid = owner != null ? owner.getId() : 0;
            e.ownerName = owner != null ? owner.getName() : null;
            return e;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of AQS.acquire; {@code result} is its return value (positive when acquired). */
    @DontInline
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
            e.ownerName = null;
            PER_THREAD.get().acquire = e;
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
