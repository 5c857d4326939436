package dev.lockscope.agent;

import dev.lockscope.core.LockLabels;

import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The live numbers of the metrics endpoint and the MBean, from one snapshot of the agent's own
 * tallies (the park records and the monitor waits of the contention table): the {@link #TOP_LOCKS}
 * locks with the most total wait by name, the rest summed as one lock named {@value #OTHER}, so the
 * number of label values stays bounded however many locks the application has.
 *
 * <p>Each named lock's counters only grow while it is named. A lock can enter the top later, and its
 * counters then leave "other", whose counters drop by as much: Prometheus reads a drop as a counter
 * reset, so a {@code rate()} over "other" spikes once at such a change.
 */
final class LiveMetrics {
    static final int TOP_LOCKS = 10;
    static final String OTHER = "other";
    /** Owner methods named per lock at most. */
    static final int TOP_OWNER_METHODS = 3;

    /** One lock's live numbers ({@code holdNanos} NaN when unknown). */
    record Lock(String name, String kind, String className, long waits, long waitNanos, long contendedNanos,
                double holdNanos, int waitersNow, List<Map.Entry<String, Double>> ownerMethods) {
    }

    /**
     * @param pinnedNanos    time virtual threads were pinned, or -1 when not recorded (JDK 17, or no
     *                       event stream)
     * @param parksRefused   park events the stack budget refused (their parks are counted, their stacks not written)
     * @param unparksRefused unpark events it refused
     */
    record Snapshot(List<Lock> top, Lock other, int locks, long untrackedParks,
                    long pinnedNanos, long hookErrors, long parksRefused, long unparksRefused, long recordingBytes) {
    }

    private LiveMetrics() {
    }

    /**
     * @param siteRealTimes the real-time of each lock site, the union of its objects' waits, by
     *                      {@link LockSites#keyOf}: it bounds a site row's contended time (the exit table's
     *                      site real-time), where the row's own real-time is the sum of its objects'
     */
    static Snapshot snapshot(List<LockMetrics> all, Map<String, Long> siteRealTimes, OwnerMethods owners, long untrackedParks,
                             long pinnedNanos, long hookErrors, long parksRefused, long unparksRefused, long recordingBytes) {
        List<LockMetrics> ranked = new ArrayList<>(all);
        ranked.sort(Comparator.comparingLong(LockMetrics::totalWaitNanos).reversed()
                .thenComparing(LockMetrics::className).thenComparing(LockMetrics::identityHash));
        List<Lock> top = new ArrayList<>();
        long waits = 0;
        long waitNanos = 0;
        long contendedNanos = 0;
        int waiters = 0;
        for (LockMetrics m : ranked) {
            long contended = contendedNanos(m, siteRealTimes);
            if (top.size() < TOP_LOCKS) {
                List<Map.Entry<String, Double>> methods = owners == null ? List.of() : owners.shares(m.className(), m.identityHash());
                long released = m.timesParked() - m.parkedNow();
                top.add(new Lock(name(m), m.kind().name().toLowerCase(java.util.Locale.ROOT), m.className(), m.timesParked(),
                        m.totalWaitNanos(), contended, released > 0 ? (double) contended / released : Double.NaN,
                        m.parkedNow(), methods.subList(0, Math.min(TOP_OWNER_METHODS, methods.size()))));
            } else {
                waits += m.timesParked();
                waitNanos += m.totalWaitNanos();
                contendedNanos += contended;
                waiters += m.parkedNow();
            }
        }
        Lock other = new Lock(OTHER, "", "", waits, waitNanos, contendedNanos, Double.NaN, waiters, List.of());
        return new Snapshot(top, other, all.size(), untrackedParks, pinnedNanos, hookErrors, parksRefused, unparksRefused,
                recordingBytes);
    }

    /**
     * The time at least one thread waited for the lock. A row of several objects (a site's blockers the GC
     * collected) sums their real-times, which pass the wall time when they were waited for at once (a lock
     * table's entries: 7.4 s in a 3 s run); the site's union bounds it, as in the exit table.
     */
    private static long contendedNanos(LockMetrics m, Map<String, Long> siteRealTimes) {
        Long union = m.instances() > 1 ? siteRealTimes.get(LockSites.keyOf(m)) : null;
        return union == null ? m.realTimeNanos() : Math.min(m.realTimeNanos(), union);
    }

    /**
     * The lock as the table names a row alone ({@link LockLabels#of(LockMetrics)}): a name that does not change
     * as other rows come and go, so a metric's time series keeps its label.
     */
    static String name(LockMetrics m) {
        return LockLabels.of(m);
    }

    /** The snapshot in Prometheus' text format; names follow its conventions (base units, {@code _total} counters). */
    static String prometheus(Snapshot s) {
        PrometheusText p = new PrometheusText();
        List<Lock> locks = new ArrayList<>(s.top());
        locks.add(s.other());
        perLock(p, "lockscope_lock_wait_seconds_total", "counter",
                "Time threads spent waiting for the lock (parked on a java.util.concurrent blocker or blocked entering a monitor), summed over threads.",
                locks, l -> l.waitNanos() / 1e9);
        perLock(p, "lockscope_lock_waits_total", "counter", "Waits on the lock (parks, or blocked monitor entries).", locks, Lock::waits);
        perLock(p, "lockscope_lock_contended_seconds_total", "counter",
                "Time at least one thread was waiting for the lock (the J9 park-contention report's parking real-time).", locks, l -> l.contendedNanos() / 1e9);
        perLock(p, "lockscope_lock_waiters", "gauge", "Threads waiting for the lock now.", locks, Lock::waitersNow);
        perLock(p, "lockscope_lock_hold_seconds", "gauge",
                "Estimated average time the lock is held per hand-off: contended time / (waits - waiters now).",
                s.top().stream().filter(l -> !Double.isNaN(l.holdNanos())).toList(), l -> l.holdNanos() / 1e9);
        p.family("lockscope_lock_owner_method_share", "gauge",
                "Share of the lock's recorded releases made in this method (java.util.concurrent locks; top "
                        + TOP_OWNER_METHODS + " methods per lock).");
        for (Lock l : s.top()) {
            for (Map.Entry<String, Double> m : l.ownerMethods()) {
                p.sample(m.getValue(), "lock", l.name(), "kind", l.kind(), "method", m.getKey());
            }
        }
        if (s.pinnedNanos() >= 0) {
            p.family("lockscope_virtual_thread_pinned_seconds_total", "counter",
                    "Time virtual threads spent pinned to their carrier thread (jdk.VirtualThreadPinned).");
            p.sample(s.pinnedNanos() / 1e9);
        }
        p.family("lockscope_locks", "gauge", "Locks with waits that the agent follows now.");
        p.sample(s.locks());
        p.family("lockscope_untracked_parks_total", "counter", "Parks on blockers beyond the agent's maxBlockers cap (in the recording only).");
        p.sample(s.untrackedParks());
        p.family("lockscope_hook_errors_total", "counter", "Internal errors in lockscope's hooks, swallowed.");
        p.sample(s.hookErrors());
        p.family("lockscope_stack_budget_refused_total", "counter",
                "Events with a stack the agent's stack budget refused (their waits are counted, their call chains not recorded).");
        p.sample(s.parksRefused(), "event", "park");
        p.sample(s.unparksRefused(), "event", "unpark");
        p.family("lockscope_recording_bytes", "gauge", "Bytes of the agent's JFR recording kept now.");
        p.sample(s.recordingBytes());
        return p.text();
    }

    private static void perLock(PrometheusText p, String name, String type, String help, List<Lock> locks,
                                java.util.function.ToDoubleFunction<Lock> value) {
        p.family(name, type, help);
        for (Lock l : locks) {
            p.sample(value.applyAsDouble(l), lockLabels(l));
        }
    }

    private static String[] lockLabels(Lock l) {
        return new String[]{"lock", l.name(), "kind", l.kind(), "class", l.className()};
    }
}
