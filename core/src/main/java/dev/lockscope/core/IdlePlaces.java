package dev.lockscope.core;

import java.util.List;

/**
 * Where a thread waits for work rather than for a lock: the queue polls of the JDK's and Jetty's pools,
 * a pool's termination, a selector, reference queues. One definition for the agent, which records the
 * parks of a blocker first parked on at such a place without stacks and without its unparks' stacks,
 * and for the report's wait classifier, which lists such waits as idle and leaves them out of owner blame.
 */
public final class IdlePlaces {
    private IdlePlaces() {
    }

    /** A named idle place: a waiting frame's {@code package.Class.method} containing {@code frame}. */
    public record Place(String rule, String frame) {
    }

    public static final List<Place> PLACES = List.of(
            new Place("pool-queue", "java.util.concurrent.ThreadPoolExecutor.getTask"),
            new Place("termination-wait", ".awaitTermination"),
            new Place("scheduler-queue", "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take"),
            new Place("fork-join-idle", "java.util.concurrent.ForkJoinPool.awaitWork"),
            new Place("selector", "sun.nio.ch.SelectorImpl.select"),
            new Place("latch-await", "java.util.concurrent.CountDownLatch.await"),
            // Cleaners and the JVM's reference handler, waiting in remove() or enqueuing: housekeeping, not the program's locks
            new Place("reference-queue", "java.lang.ref.ReferenceQueue."),
            new Place("jetty-idle-pool", "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.idleJobPoll"),
            new Place("jetty-reserved-thread", "org.eclipse.jetty.util.thread.ReservedThreadExecutor"),
            // Jetty 12's VirtualThreadPool keeps one thread waiting on a condition to keep the JVM alive
            new Place("jetty-keepalive", "org.eclipse.jetty.util.thread.VirtualThreadPool$1.run"),
            // java.util.Timer's thread waiting (Object.wait) for its next task
            new Place("timer-queue", "java.util.TimerThread.mainLoop"));

    /**
     * How near the top of a waiting stack an idle place must be. The idle places are where a worker
     * waits for work (its queue's poll, the reserved-thread wait): a few frames of lock and queue code
     * above them. Deeper down, the same class is only where the thread came from: a Jetty request
     * handler running on a reserved thread has ReservedThreadExecutor at the bottom of its stack while
     * it waits for the application's lock, which is contention (VirtualThreadServerIT's platform run).
     */
    public static final int DEPTH = 12;

    /**
     * The rule of the first idle place among the innermost {@link #DEPTH} frames of a waiting stack, or null
     * when the stack waits at none. The frames are functions ({@code package.Class.method}) or frames with
     * their line ({@code package.Class.method:line}, as the agent has them): no place holds a colon, so the
     * line changes no match, and the agent classifies its strings without building new ones.
     */
    /**
     * The rule of a park row without a stack: its blockers were first parked on at an idle place, where the agent
     * records parks without stacks ({@code lockscope.IdlePark}), and no summary of the agent's gave it a stack (the GC
     * collected them between two of its writes). Only such a park row has no stack; a monitor's can (JFR's own).
     */
    public static final String IDLE_PARK = "idle-park";

    /** The rule of {@link #isServiceLoopWait}. */
    public static final String SERVICE_LOOP = "service-loop";

    /**
     * {@link #ruleOf(List)} of a row's first waiting stack, {@link #IDLE_PARK} for a park row without one, or
     * {@link #SERVICE_LOOP} for a service thread's wait for work.
     */
    public static String ruleOf(LockMetrics row) {
        if (row.kind() == LockKind.PARK && row.firstFrames().isEmpty()) {
            return IDLE_PARK;
        }
        if (isServiceLoopWait(row)) {
            return SERVICE_LOOP;
        }
        return ruleOf(row.firstFrames());
    }

    /**
     * Whether a wait/notify row is a service thread waiting for work: one waiter at a time (peak 1) in
     * {@code Object.wait} called from its thread's own loop, the thread's {@code run()} at most one
     * application method below the wait (Derby's {@code BasicDaemon.run → rest → wait}, a hand-written
     * consumer's {@code run → take → wait}). A lock built on wait/notify is waited for deep in the code that
     * needs it and by many threads at once; a loop that sleeps until it is given work is idle, however long.
     */
    public static boolean isServiceLoopWait(LockMetrics row) {
        if (row.kind() != LockKind.WAIT || row.peakParked() > 1) {
            return false;
        }
        List<String> frames = row.firstFrames();
        int top = 0;
        while (top < frames.size() && CallStack.frameAt(frames, top).function().startsWith("java.lang.Object.wait")) {
            top++;
        }
        int bottom = frames.size() - 1;
        while (bottom >= top && CallStack.frameAt(frames, bottom).className().equals("java.lang.Thread")) {
            bottom--;
        }
        // the wait's caller and the run() below it, or run() calling wait itself
        int methods = bottom - top + 1;
        return top > 0 && bottom < frames.size() - 1 && (methods == 1 || methods == 2)
                && CallStack.frameAt(frames, bottom).method().equals("run");
    }

    public static String ruleOf(List<String> functionsInnermostFirst) {
        List<String> near = functionsInnermostFirst.subList(0, Math.min(DEPTH, functionsInnermostFirst.size()));
        for (int p = 0; p < PLACES.size(); p++) { // index loops: the agent calls this once per new blocker
            if (atPlace(PLACES.get(p), near)) {
                return PLACES.get(p).rule();
            }
        }
        return null;
    }

    /** Whether one of {@code functions} is at {@code place}. */
    public static boolean atPlace(Place place, List<String> functions) {
        for (int i = 0; i < functions.size(); i++) {
            if (functions.get(i).contains(place.frame())) {
                return true;
            }
        }
        return false;
    }
}
