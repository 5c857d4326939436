package dev.lockscope.agent.boot;

import dev.lockscope.core.Frame;
import jdk.internal.vm.annotation.DontInline;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Called from the instrumented {@code java.lang.VirtualThread} on JDK 24+ (JEP 491), where a virtual
 * thread blocked on monitor enter unmounts from its carrier and the JVM records no
 * {@code jdk.JavaMonitorEnter} for it. The JDK's path (VirtualThread.java, JDK 24 and 25):
 * the JVM sets the state BLOCKING and yields the continuation; {@code runContinuation} returns from
 * {@code cont.run()}, unmounts, and {@code afterYield} sets BLOCKED; the monitor's owner exits, the
 * "VirtualThread-unblocker" thread calls {@code unblock()} (UNBLOCKED) and the thread is submitted;
 * {@code runContinuation} mounts it and the JVM retries the enter (blocking again if it loses).
 *
 * <p>Three hooks follow one blocked episode, all of them outside the virtual thread's own execution
 * except the second:
 * <ul>
 * <li>{@link #afterUnmount}: in {@code runContinuation} right after {@code unmount()}, on the carrier
 *     (the current thread is the carrier again), before {@code afterYield()}. With state BLOCKING the
 *     continuation is frozen and nobody can resume it yet (an unblock only sets {@code blockPermit}
 *     until {@code afterYield} has set BLOCKED), so its stack is read here, the episode's event begins
 *     and the episode is published in {@link #BLOCKED} before any carrier can mount the thread again;</li>
 * <li>{@link #afterMount}: the virtual thread is mounted again to retry the monitor; the event ends;</li>
 * <li>{@link #afterYieldOrDone}: on the carrier, after {@code afterYield()} or {@code afterDone()}:
 *     hands the ended episodes of that thread to the committer, and on JDK 25 names the monitor of
 *     a new one from a {@code jdk.internal.vm.ThreadSnapshot} of the unmounted, BLOCKED thread (7-60 µs).</li>
 * </ul>
 * Nothing may run between the continuation's yield and {@code unmount()}: there
 * {@code Thread.currentThread()} is still the virtual thread, so a {@code Thread.yield()} (which
 * {@code ConcurrentHashMap} calls when it loses its table's initialisation race), a park or a monitor
 * taken there acts on the virtual thread itself: {@code tryYield} overwrites the state BLOCKING with
 * YIELDING and then RUNNING, {@code afterYield} no longer sees it blocked, the unblocker no longer
 * resubmits it, and the thread is lost, RUNNABLE with no carrier (the JDK 25 hang of
 * {@code VirtualThreadContention sync}: 7 in 327 runs of scripts/hang-loop.sh while the first hook ran there).
 * A daemon thread, "lockscope-virtual-thread-events" ({@link EventCommitter}), commits the ended episodes every 10 ms: JFR
 * silently dropped a third to a half of these events when they were committed by the virtual thread
 * after {@code mount()}, before {@code unmount()}, or by the carrier after {@code afterYield()}
 * (JDK 25.0.3: 60-110 of 157 kept; all 158 from a plain thread, their durations summing to the
 * workload's own measured wait within 0.1%).
 *
 * <p>Shared state: {@link #BLOCKED}, the open episodes keyed by virtual thread (identity: Thread does
 * not override equals). It is written twice per blocked episode (put, remove), which already costs an
 * unmount, a resubmission to the scheduler's queues and a remount; on every other mount it is only
 * read ({@code get} of an absent key takes no lock). At most {@link #MAX_OPEN} episodes are kept.
 * Every method catches everything (counted in {@link HookFailures}) and never parks.
 */
public final class VirtualThreadHooks {
    static final int MAX_OPEN = 100_000;
    private static final int MAX_FRAMES = 64;
    private static volatile boolean active;
    /** {@code Continuation.getStackTrace()}; java.base exports jdk.internal.vm to this module (agent). */
    private static volatile MethodHandle continuationStack;
    /** {@code ThreadSnapshot.of(Thread)} and {@code blockedOn()} (JDK 25+), or null. */
    private static volatile MethodHandle snapshotOf;
    private static volatile MethodHandle snapshotBlockedOn;
    private static final ConcurrentHashMap<Thread, Episode> BLOCKED = new ConcurrentHashMap<>();
    /** Ended episodes for the committer; filled at most as fast as virtual threads block, drained every 10 ms. */
    private static final ConcurrentLinkedQueue<Episode> ENDED = new ConcurrentLinkedQueue<>();

    /** One blocked episode of one virtual thread. */
    static final class Episode {
        final VirtualMonitorEnterEvent event = new VirtualMonitorEnterEvent();
        /** An ended episode of the same thread not yet committed (it blocked again before unmounting). */
        final Episode earlier;
        /**
         * Set by afterMount after {@code event.end()}, read by afterYieldOrDone on another carrier: the
         * volatile write/read makes the end time visible there (and BLOCKED/ENDED carry it on to the
         * committer). The monitor's class is written by the carrier that unmounted the thread; if the
         * thread is unblocked, remounted and unmounted again elsewhere before that carrier is done, the
         * event may be committed without it (the report then shows the class as "?"); nothing worse.
         */
        volatile boolean ended;

        Episode(Episode earlier) {
            this.earlier = earlier;
        }
    }

    private VirtualThreadHooks() {
    }

    /**
     * Looks up the JDK internals the hooks call and turns them on. Call after java.base exports
     * {@code jdk.internal.vm} to this class's module (and opens it, for ThreadSnapshot).
     *
     * @return null, or why monitors will be recorded without their class (JDK 24 has no ThreadSnapshot)
     */
    public static String activate() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Class<?> continuation = Class.forName("jdk.internal.vm.Continuation");
        continuationStack = lookup.findVirtual(continuation, "getStackTrace", MethodType.methodType(StackTraceElement[].class));
        jdk.jfr.FlightRecorder.register(VirtualMonitorEnterEvent.class);
        new VirtualMonitorEnterEvent().isEnabled();
        String monitorProblem = null;
        try {
            Class<?> snapshot = Class.forName("jdk.internal.vm.ThreadSnapshot");
            MethodHandles.Lookup inside = MethodHandles.privateLookupIn(snapshot, lookup);
            snapshotOf = inside.findStatic(snapshot, "of", MethodType.methodType(snapshot, Thread.class));
            snapshotBlockedOn = inside.findVirtual(snapshot, "blockedOn", MethodType.methodType(Object.class));
            monitorOf(Thread.currentThread()); // links both handles now, not inside the first block
        } catch (Throwable e) {
            snapshotOf = null;
            monitorProblem = e.toString();
        }
        warmUpContinuationStacks();
        EventCommitter.every10ms("virtual monitor waits", VirtualThreadHooks::commitNow);
        active = true;
        return monitorProblem;
    }

    /**
     * Walks the stack of one yielded continuation of our own, so that the classes of
     * {@code Continuation.getStackTrace} are loaded and initialised here and not first on a carrier
     * that is releasing an application's blocked virtual thread. A bare continuation starts no
     * virtual-thread scheduler; it runs on a fresh platform thread because a continuation cannot yield
     * while its thread holds a monitor (premain does).
     */
    private static void warmUpContinuationStacks() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Class<?> scopeType = Class.forName("jdk.internal.vm.ContinuationScope");
        Class<?> continuationType = Class.forName("jdk.internal.vm.Continuation");
        Object scope = lookup.findConstructor(scopeType, MethodType.methodType(void.class, String.class)).invoke("lockscope-warm-up");
        MethodHandle yield = lookup.findStatic(continuationType, "yield", MethodType.methodType(boolean.class, scopeType));
        MethodHandle run = lookup.findVirtual(continuationType, "run", MethodType.methodType(void.class));
        Object continuation = lookup.findConstructor(continuationType, MethodType.methodType(void.class, scopeType, Runnable.class))
                .invoke(scope, new Runnable() {
                    @Override
                    public void run() {
                        try {
                            yield.invoke(scope);
                        } catch (Throwable t) {
                            throw new IllegalStateException(t);
                        }
                    }
                });
        Throwable[] failure = new Throwable[1];
        Thread warmUp = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    run.invoke(continuation); // runs until it yields
                    continuationStack.invoke(continuation);
                    run.invoke(continuation); // to its end
                } catch (Throwable t) {
                    failure[0] = t;
                }
            }
        }, "lockscope-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
        warmUp.join(10_000);
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** Turns the hooks off and commits what has ended (call before the recording stops). */
    public static void deactivate() {
        active = false;
        BLOCKED.clear();
        commitNow();
    }

    private static void commitNow() {
        try {
            for (Episode e; (e = ENDED.poll()) != null; ) {
                e.event.commit();
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /**
     * {@code runContinuation}, right after {@code unmount()}: the current thread is the carrier, the
     * continuation has yielded and, when the state is BLOCKING, cannot be resumed before
     * {@code afterYield()}.
     */
    @DontInline
    public static void afterUnmount(Thread vthread, int state, int blockingState, Object continuation) {
        if (!active || state != blockingState) {
            return;
        }
        try {
            Episode earlier = BLOCKED.get(vthread);
            Episode episode = new Episode(earlier != null && earlier.ended ? earlier : null);
            VirtualMonitorEnterEvent event = episode.event;
            if (!event.isEnabled() || BLOCKED.size() >= MAX_OPEN) {
                return;
            }
            event.begin();
            event.frames = framesText((StackTraceElement[]) continuationStack.invoke(continuation));
            event.carrierName = Thread.currentThread().getName();
            event.virtualThreadId = vthread.getId();
            event.virtualThreadName = vthread.getName();
            BLOCKED.put(vthread, episode);
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** {@code runContinuation}, after {@code mount()}: the virtual thread may now retry the monitor. */
    @DontInline
    public static void afterMount(Thread vthread) {
        if (!active || BLOCKED.isEmpty()) {
            return;
        }
        try {
            Episode episode = BLOCKED.get(vthread);
            if (episode != null && !episode.ended) {
                episode.event.end();
                episode.ended = true;
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** {@code runContinuation}, after {@code afterYield()} or {@code afterDone()}, on the carrier. */
    @DontInline
    public static void afterYieldOrDone(Thread vthread) {
        if (!active || BLOCKED.isEmpty()) {
            return;
        }
        try {
            Episode episode = BLOCKED.get(vthread);
            if (episode == null) {
                return;
            }
            if (episode.ended) {
                if (BLOCKED.remove(vthread, episode)) {
                    for (Episode e = episode; e != null; e = e.earlier) {
                        ENDED.add(e);
                    }
                }
            } else {
                // blocked just now: name the monitor while the thread is BLOCKED; an ended earlier
                // episode is committed with this one
                VirtualMonitorEnterEvent event = episode.event;
                if (event.monitorClass == null && snapshotOf != null) {
                    Object monitor = monitorOf(vthread);
                    if (monitor != null) {
                        event.monitorHash = System.identityHashCode(monitor);
                        event.monitorClass = monitor.getClass().getName();
                    }
                }
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    /** The object an unmounted virtual thread is blocked on, or null once it is no longer blocked. */
    private static Object monitorOf(Thread thread) throws Throwable {
        Object snapshot = snapshotOf.invoke(thread);
        if (snapshot == null) {
            return null;
        }
        try {
            return snapshotBlockedOn.invoke(snapshot);
        } catch (IllegalStateException notBlocked) {
            return null; // unblocked and running again by the time of the snapshot
        }
    }

    static String framesText(StackTraceElement[] stack) {
        StringBuilder sb = new StringBuilder();
        int n = Math.min(stack.length, MAX_FRAMES);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append('\n');
            }
            sb.append(Frame.format(stack[i]));
        }
        return sb.toString();
    }
}
