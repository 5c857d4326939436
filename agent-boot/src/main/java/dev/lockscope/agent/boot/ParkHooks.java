package dev.lockscope.agent.boot;

import jdk.internal.vm.annotation.DontInline;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.AbstractOwnableSynchronizer;
import java.util.concurrent.locks.LockSupport;

/**
 * Called from the instrumented {@code LockSupport.park(Object)}, {@code parkNanos(Object, long)},
 * {@code parkUntil(Object, long)}, {@code park()}, {@code parkNanos(long)} and {@code parkUntil(long)}
 * (these three under a current blocker) and {@code unpark(Thread)}.
 *
 * <p>Rules every method here keeps: never throw (everything is caught and counted in
 * {@link HookFailures}); never take a lock or park (a per-thread guard turns hooks off while a hook
 * runs, in case something below does park, e.g. JDK 21+ stream locks); no lambdas, since their first
 * linkage would run inside the application's park.
 *
 * <p>Concurrency design of the hot path (one park, one wake-up, one unpark):
 * <ul>
 *   <li><b>Nothing global is written.</b> There is no global counter: an unpark is matched to the park
 *       it ended by the target thread's own hand-off counter ({@link PerThread#handoff}).</li>
 *   <li><b>Per thread</b> ({@link PerThread}, reached through a {@code ThreadLocal} by its own thread
 *       and through {@link PerThread#THREADS} by others): written by its own thread (the park in progress:
 *       {@code parkedOn}, {@code parkedSince}; the reused event objects), and by the threads that
 *       unpark it ({@code handoff}, one atomic add each).</li>
 *   <li><b>Per blocker</b> ({@link BlockerRecord}): written by the threads parking on that blocker
 *       only, by atomic adds and rare compare-and-sets.</li>
 *   <li><b>Per lock site</b> ({@link SiteUnion}, the union of its blockers' waits): one atomic add when a
 *       blocker's parked-now count goes from 0 to 1 or back, none on the other parks. The only write that
 *       threads parking on different blockers share, when the blockers were first parked on at one place.</li>
 *   <li><b>Allocation</b>: none per park or unpark. A thread allocates its {@link PerThread}, token and
 *       event objects on its first park; the first park on a new blocker allocates its record and
 *       inserts it into a {@code ConcurrentHashMap} (whose bin lock it may hold for that insert; dropping the
 *       records of collected blockers is lockscope's own thread's work, see {@link BlockerRegistry}); the
 *       park that starts a blocker's collection walks its stack into strings, once per blocker; JFR's
 *       commit of an event walks the stack (in JFR's native buffers).</li>
 *   <li><b>Events</b>: one {@link ParkEvent} per park, committed at wake-up when it lasted at least the
 *       recording threshold, and when shorter than {@code sampleBelow} only if a draw picks it ({@link ParkSampling},
 *       one draw per park, by its unparker where it can); one {@link UnparkEvent} only when its stack will be used
 *       (see there), or a
 *       stackless {@link ConditionUnparkEvent} when the target awaits a {@code Condition} and its park will be recorded. A
 *       blocker first parked on at an idle place (a pool worker waiting for work, {@code IdlePlaces})
 *       gets an {@link IdleParkEvent} per park instead, without a stack walk, and no unpark event; with
 *       sampling on, those shorter than 10 ms by this thread's own draw ({@link ParkSampling#idleStandsFor}).
 *       Exact totals of all parks, recorded or not, go out as {@link LockSummaryEvent}s. Every event with a stack
 *       (a park's, an unpark's) is written only within the {@link StackBudget} of its second; the refused ones
 *       are counted by their thread.</li>
 * </ul>
 *
 * <p>Every entry point is {@code @DontInline} (honoured because this class is loaded by the bootstrap
 * loader; other loaders' uses of the annotation are ignored by the JVM). Without it C2 inlined the
 * hooks, the JFR event writers below them and the registry into every caller of park and unpark
 * (and of AQS.acquire, hooked then): {@code ArrayBlockingQueue.take} grew from ~1.3 KB to ~9.8 KB of inlined bytecode and
 * its C2 compile from ~40 ms to ~450 ms, recompiled three times, and the compile backlog ate a third
 * of the CPU of a 2-core machine for seconds (see scripts/profile-agent.sh). A call costs a few ns;
 * the hooks run next to a park, which costs microseconds.
 */
public final class ParkHooks {
    /** Set once all hook classes are loaded and initialised ({@link HookActivation}), and cleared at shutdown. */
    static volatile boolean active;
    /** {@code AbstractOwnableSynchronizer.exclusiveOwnerThread}, found at activation; null when it cannot be read. */
    static volatile VarHandle exclusiveOwner;
    /** The recording threshold in nanoseconds: an unpark of a thread parked shorter walks no stack. */
    private static volatile long thresholdNanos;

    private ParkHooks() {
    }

    /** The recording threshold: parks shorter than it are not recorded one by one, nor their unparks' stacks. */
    public static void setThresholdNanos(long nanos) {
        thresholdNanos = Math.max(0, nanos);
    }

    /** Everything {@link #parkEnd} needs about its park; reused by its thread from one park to the next. */
    static final class Token {
        final PerThread owner;
        final ParkEvent event = new ParkEvent();
        final IdleParkEvent idleEvent = new IdleParkEvent();
        /** The event of the park in progress: {@link #idleEvent} on a blocker at an idle place, else {@link #event}. */
        AbstractParkEvent current;
        BlockerRecord record;
        Object blocker;
        boolean eventEnabled;
        /** Whether this park's event took its start from the tally's clock read ({@link JfrClock}), so its duration is set alike. */
        boolean timesFromTally;
        long beginNanos;
        long handoffAtPark;
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
            pt = PerThread.current();
            if (pt.inHook) {
                pt = null;
                return null;
            }
            pt.inHook = true;
            Token tk = pt.parkToken;
            if (tk != null) {
                pt.parkToken = null;
            } else {
                tk = new Token(pt); // first park of this thread, or a park whose end never came
            }
            // Read before this thread can be woken (LockSupport publishes the blocker after this hook),
            // so an unpark that ends this park is counted after it.
            tk.handoffAtPark = pt.handoff;
            // Two-entry cache: a thread often alternates between a lock and one of its conditions.
            BlockerRecord record = pt.lastRecord;
            if (record == null || record.key.get() != blocker) {
                BlockerRecord other = pt.otherRecord;
                if (other != null && other.key.get() == blocker) {
                    record = other;
                } else {
                    record = BlockerRegistry.recordFor(blocker);
                }
                if (record != null) {
                    pt.otherRecord = pt.lastRecord;
                    pt.lastRecord = record;
                }
            }
            boolean idle = record != null && record.idleSite;
            AbstractParkEvent event = idle ? tk.idleEvent : tk.event;
            tk.current = event;
            tk.eventEnabled = event.isEnabled();
            if (tk.eventEnabled) {
                event.blockerClass = classOf(record, blocker);
                event.blockerHash = hashOf(record, blocker);
                event.timeoutNanos = timeoutNanos;
                event.deadlineMillis = deadlineMillis;
                Thread owner = idle ? null : ownerOf(blocker); // a worker waiting for work waits for no owner
                event.ownerTid = owner != null ? owner.getId() : 0;
                event.ownerName = owner != null ? owner.getName() : null;
            }
            long now = record != null ? record.park() : System.nanoTime();
            if (tk.eventEnabled) {
                // begun at the tally's clock read, so that the event's duration is the time the tally counts: begun
                // before the fields above, each recorded park read 0.6 us longer than the exact table (Derby: 652.6
                // against 634.2 ms over the same 31,508 parks), and owner blame with it
                tk.timesFromTally = JfrClock.known();
                if (!tk.timesFromTally) {
                    event.begin();
                } else if (idle) {
                    ParkEventTimes.IDLE_START.set(tk.idleEvent, JfrClock.ticks(now));
                } else {
                    ParkEventTimes.PARK_START.set(tk.event, JfrClock.ticks(now));
                }
            }
            tk.record = record;
            tk.beginNanos = now;
            tk.timeoutNanos = timeoutNanos;
            tk.deadlineMillis = deadlineMillis;
            pt.parkedSince = now;
            pt.parkedOn = record; // publishes parkedSince
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
        return parkBeginCurrentBlocker(0, 0);
    }

    /**
     * Entry of {@code park()}, {@code parkNanos(long)} and {@code parkUntil(long)}: a park on the blocker
     * the caller set with {@code LockSupport.setCurrentBlocker} (Condition.await; JDK 21+'s
     * LinkedTransferQueue and SynchronousQueue), none without one.
     */
    @DontInline
    public static Object parkBeginCurrentBlocker(long timeoutNanos, long deadlineMillis) {
        if (!active) {
            return null;
        }
        try {
            Object blocker = LockSupport.getBlocker(Thread.currentThread());
            return blocker == null ? null : parkBegin(blocker, timeoutNanos, deadlineMillis);
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
            PerThread pt = tk.owner;
            BlockerRecord record = tk.record;
            tk.record = null;
            pt.parkedOn = null;
            long now = record != null ? record.unpark(tk.beginNanos) : System.nanoTime();
            if (tk.eventEnabled) {
                AbstractParkEvent event = tk.current;
                if (!tk.timesFromTally) {
                    event.end();
                } else if (event == tk.event) {
                    ParkEventTimes.PARK_DURATION.set(tk.event, now - tk.beginNanos); // 0 (never in practice): JFR measures to the commit
                } else {
                    ParkEventTimes.IDLE_DURATION.set(tk.idleEvent, now - tk.beginNanos);
                }
                long handoffAtWake = pt.handoff;
                long standsFor = event == tk.event ? ParkSampling.standsFor(pt, tk.handoffAtPark, handoffAtWake, now - tk.beginNanos)
                        : ParkSampling.idleStandsFor(pt, now - tk.beginNanos);
                if (standsFor >= 0 && event.shouldCommit()) {
                    if (event == tk.event && !StackBudget.take(pt, now)) {
                        pt.parkDropped(standsFor == 0 ? now - tk.beginNanos : standsFor); // its commit would walk the stack
                    } else {
                        event.standsForNanos = standsFor;
                        if (event == tk.event) {
                            tk.event.unrecordedUnparks = pt.unrecordedUnparks;
                        }
                        event.handoffAtPark = tk.handoffAtPark;
                        event.handoffAtWake = handoffAtWake;
                        event.timedOut = timedOut(tk, now);
                        if (event == tk.event) {
                            commit(tk.event);
                        } else {
                            commit((IdleParkEvent) event);
                        }
                    }
                }
                event.ownerName = null;
            }
            pt.parkToken = tk; // free for this thread's next park
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    private static final boolean[] FALSE_TRUE = {false, true};

    /**
     * Whether the park woke at or after its timeout or deadline. Computed without a branch: C2 compiles a
     * branch that was never taken as a trap, so the first park that timed out late in a run (Jetty's idle
     * workers, after 30 s) deoptimised {@link #parkEnd} and it was compiled again. The sign bit of
     * {@code -t & ~(elapsed - t)} is set exactly when {@code t > 0 && elapsed >= t}: {@code -t} is negative only
     * for t > 0 (a timeout or deadline of 0 or less is none), and {@code elapsed - t} is then negative only while
     * the park ended before t (no overflow: both are between 0 and a run's length in their units).
     */
    private static boolean timedOut(Token tk, long now) {
        long t = tk.timeoutNanos;
        long d = tk.deadlineMillis;
        long byTimeout = -t & ~(now - tk.beginNanos - t);
        long byDeadline = -d & ~(System.currentTimeMillis() - d);
        return FALSE_TRUE[(int) ((byTimeout | byDeadline) >>> 63)];
    }

    /*
     * The commits, one method per event class and never inlined into the hooks. JFR's code that writes an event
     * (on JDK 17 a generated handler that inlines a varint writer per field: about 8 KB of bytecode for a Park)
     * was inlined into parkEnd (both park events) and unparkEnd (both unpark events), so each of those hooks
     * compiled to about 9 KB of bytecode, and each recompile after a branch first taken late (a trap) compiled
     * the writers again. Now the hooks stay small (under 1 KB) and the writer is compiled in these methods and in
     * JFR's own (docs/agent-cost.md "The commits out of line").
     */

    @DontInline
    private static void commit(ParkEvent e) {
        e.commit();
    }

    @DontInline
    private static void commit(IdleParkEvent e) {
        e.commit();
    }

    @DontInline
    private static void commit(UnparkEvent e) {
        e.commit();
    }

    @DontInline
    private static void commit(ConditionUnparkEvent e) {
        e.commit();
    }

    /** Entry of unpark(thread): counts the hand-off before the target can wake. */
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
            PerThread targetState = PerThread.THREADS.get(target);
            if (targetState == null) {
                return null; // never parked under lockscope
            }
            // Before the real unpark, so the target reads it after waking (see PerThread.handoff).
            long handoff = targetState.countHandoff();
            BlockerRecord r = targetState.parkedOn;
            if (r != null && r.idleSite) {
                return null; // a worker woken for work: no owner to blame, so the waker's stack is not wanted
            }
            pt = PerThread.current();
            if (pt.inHook) {
                pt = null;
                return null;
            }
            // A target awaiting a Condition: the event without the releaser's stack, which no analysis reads
            // (ConditionUnparkEvent). A target without a record (beyond maxBlockers) gets the full event,
            // which is correct and only dearer.
            AbstractUnparkEvent e;
            if (r != null && r.condition) {
                e = pt.conditionUnpark;
                if (e == null) {
                    e = new ConditionUnparkEvent();
                } else {
                    pt.conditionUnpark = null; // in use until unparkEnd
                }
            } else {
                e = pt.unpark;
                if (e == null) {
                    e = new UnparkEvent();
                } else {
                    pt.unpark = null; // in use until unparkEnd
                }
            }
            long since = targetState.parkedSince; // read after parkedOn, which published it
            // The releaser's stack is used by owner blame for parks that are recorded (at least the
            // threshold long; below sampleBelow, those this draw picks) and once per (releasing thread,
            // lock), so its call site is known (a two-entry cache: a thread often releases two locks in turn).
            // A Condition waiter's unpark has no stack to learn a site from: it is written only for a park
            // that is recorded, whose notifier it names. Written for every new blocker in turn, a thread that
            // unparked a lock's and a condition's waiters alternately (ArrayBlockingQueue) wrote one for
            // nearly every park, recorded or not.
            boolean wanted = r != null && !r.condition && r != pt.lastUnparkRecorded && r != pt.otherUnparkRecorded;
            long below = ParkSampling.sampleBelowNanos();
            long threshold = thresholdNanos;
            if (r != null && (below > 0 || threshold > 0)) {
                long parked = System.nanoTime() - since;
                boolean recorded = parked >= threshold;
                if (parked < below) {
                    recorded = recorded && pt.nextBelow(below) < parked;
                    // before the real unpark, so the target sees it when this unpark wakes it (PerThread.handoff)
                    targetState.sampleDecision = ParkSampling.sampleDecision(handoff, recorded, parked);
                }
                wanted |= recorded;
            } else {
                wanted = threshold == 0 && below == 0; // every park recorded: so is every unpark
            }
            if (!wanted || !e.isEnabled()) {
                if (!wanted && e instanceof UnparkEvent) {
                    pt.unrecordedUnparks++;
                }
                giveBack(pt, e);
                return null;
            }
            if (e instanceof UnparkEvent && !StackBudget.take(pt)) {
                pt.unparkDropped(); // its commit would walk the stack
                pt.unrecordedUnparks++;
                giveBack(pt, e);
                return null;
            }
            if (e instanceof UnparkEvent u) {
                u.unrecordedBefore = pt.unrecordedUnparks;
                if (r != pt.lastUnparkRecorded) {
                    pt.otherUnparkRecorded = pt.lastUnparkRecorded;
                    pt.lastUnparkRecorded = r;
                }
            }
            e.begin();
            e.handoff = handoff;
            e.targetTid = target.getId();
            e.targetName = target.getName();
            e.blockerClass = classOf(r, blocker);
            e.blockerHash = hashOf(r, blocker);
            return e;
        } catch (Throwable t) {
            HookFailures.record(t);
            return null;
        }
    }

    /** Exit of unpark(thread): the target is already awake, so the stack walk delays nobody. */
    @DontInline
    public static void unparkEnd(Object token) {
        if (!(token instanceof AbstractUnparkEvent)) {
            return;
        }
        PerThread pt = null;
        try {
            pt = PerThread.current();
            if (pt.inHook) {
                pt = null;
                return;
            }
            pt.inHook = true;
            AbstractUnparkEvent e = (AbstractUnparkEvent) token;
            e.end();
            if (e instanceof ConditionUnparkEvent c) {
                commit(c);
            } else {
                commit((UnparkEvent) e);
            }
            e.targetName = null;
            giveBack(pt, e);
        } catch (Throwable t) {
            HookFailures.record(t);
        } finally {
            if (pt != null) {
                pt.inHook = false;
            }
        }
    }

    /** Returns an unpark event to its thread's slot for the next unpark. */
    private static void giveBack(PerThread pt, AbstractUnparkEvent e) {
        if (e instanceof ConditionUnparkEvent c) {
            pt.conditionUnpark = c;
        } else {
            pt.unpark = (UnparkEvent) e;
        }
    }

    /** The blocker's class name, from its record when that is the blocker's (no reflection then). */
    private static String classOf(BlockerRecord r, Object blocker) {
        return r != null && r.key.get() == blocker ? r.className : blocker.getClass().getName();
    }

    private static int hashOf(BlockerRecord r, Object blocker) {
        return r != null && r.key.get() == blocker ? r.identityHash : System.identityHashCode(blocker);
    }

    private static Thread ownerOf(Object blocker) {
        VarHandle vh = exclusiveOwner;
        if (vh == null || !(blocker instanceof AbstractOwnableSynchronizer)) {
            return null;
        }
        return (Thread) vh.get((AbstractOwnableSynchronizer) blocker);
    }
}
