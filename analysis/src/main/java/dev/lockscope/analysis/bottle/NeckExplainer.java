package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.SchedTrace;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The neck explained (note §C1 item 7): for the tall, narrow application boxes, what the other
 * application threads were doing while the neck thread ran and no other application thread did.
 * Each other thread's time in those intervals is attributed, first match wins, to: a recorded Java
 * event (blocked on a monitor, waiting, parked, sleeping, with the lock's class and code location;
 * not started yet; finished), preempted (runnable, from perf), off-CPU until the end, or off-CPU
 * without a Java event.
 */
public final class NeckExplainer {
    /** Candidates need at least this fraction of the total height. */
    static final double MIN_SHARE = 0.05;
    static final int MAX_NECKS = 3;

    /** Time other threads spent in one state (and on one lock) while the neck ran alone. */
    public record Activity(String state, String detail, long nanos, int threads) {
    }

    /** One neck thread: {@code aloneNanos} of running with no other application thread running. */
    public record Neck(ThreadBox thread, long aloneNanos, List<Activity> others) {
    }

    private NeckExplainer() {
    }

    /**
     * Necks: application boxes with share ≥ 5% of the height and parallelism below 1.25 or below
     * 3/4 of the widest application box; at most three, tallest first.
     */
    public static List<ThreadBox> necks(BottleGraph g) {
        double maxP = g.threads().stream().filter(b -> b.kind() == ThreadKind.APP)
                .mapToDouble(b -> b.parallelism().doubleValue()).max().orElse(0);
        return g.threads().stream()
                .filter(b -> b.kind() == ThreadKind.APP && !b.isVirtual()) // virtual threads have no OS thread to replay
                .filter(b -> b.share().doubleValue() >= MIN_SHARE * g.busyNanos())
                .filter(b -> b.parallelism().doubleValue() < 1.25 || b.parallelism().doubleValue() < 0.75 * maxP)
                .sorted(Comparator.comparing(ThreadBox::share).reversed())
                .limit(MAX_NECKS).toList();
    }

    public static List<Neck> explain(SchedTrace trace, BottleGraph g, List<WaitInterval> waits) {
        Set<Integer> app = new HashSet<>();
        for (ThreadBox b : g.threads()) {
            if (b.kind() == ThreadKind.APP) {
                app.add(b.osTid());
            }
        }
        Replay r = Replay.of(trace, app, g.fromNanos(), g.toNanos());
        Map<Integer, List<WaitInterval>> waitsByTid = new HashMap<>();
        for (WaitInterval w : waits) {
            waitsByTid.computeIfAbsent(w.tid(), k -> new ArrayList<>()).add(w);
        }
        List<Neck> out = new ArrayList<>();
        for (ThreadBox neck : necks(g)) {
            Intervals alone = Intervals.of(r.alone.getOrDefault(neck.osTid(), List.of()));
            Map<String, long[]> byActivity = new LinkedHashMap<>(); // key → {nanos, threads}
            for (int other : app) {
                if (other == neck.osTid()) {
                    continue;
                }
                Intervals left = alone;
                Map<String, List<long[]>> javaWaits = new LinkedHashMap<>();
                for (WaitInterval w : waitsByTid.getOrDefault(other, List.of())) {
                    javaWaits.computeIfAbsent(w.state() + "\u0000" + w.detail(), k -> new ArrayList<>())
                            .add(new long[] {w.startNanos(), w.endNanos()});
                }
                for (Map.Entry<String, List<long[]>> e : javaWaits.entrySet()) {
                    left = charge(byActivity, e.getKey(), left, Intervals.of(e.getValue()), alone.length());
                }
                left = charge(byActivity, "preempted (runnable, no CPU)\u0000", left,
                        Intervals.of(r.runnable.getOrDefault(other, List.of())), alone.length());
                long last = r.lastOff.getOrDefault(other, Long.MAX_VALUE);
                if (last != Long.MAX_VALUE) {
                    left = charge(byActivity, "off-CPU until the end (finished or idle)\u0000", left,
                            Intervals.of(List.of(new long[] {last, Long.MAX_VALUE})), alone.length());
                }
                charge(byActivity, "off-CPU without a Java event (I/O, native, or below the JFR threshold)\u0000",
                        left, left, alone.length());
            }
            List<Activity> activities = new ArrayList<>();
            byActivity.forEach((k, v) -> {
                int sep = k.indexOf('\u0000');
                activities.add(new Activity(k.substring(0, sep), k.substring(sep + 1), v[0], (int) v[1]));
            });
            activities.sort(Comparator.comparingLong(Activity::nanos).reversed());
            out.add(new Neck(neck, alone.length(), activities));
        }
        return out;
    }

    /**
     * Charges the part of {@code left} inside {@code what} to {@code key} and returns the rest. A
     * thread's overlap below 1% of the neck's alone time is not reported: at that size it is mostly
     * the error of placing JFR's wall-clock instants on the monotonic time line.
     */
    private static Intervals charge(Map<String, long[]> acc, String key, Intervals left, Intervals what,
                                    long aloneNanos) {
        Intervals hit = left.intersect(what);
        long n = hit.length();
        if (n > 0 && n * 100 >= aloneNanos) {
            long[] a = acc.computeIfAbsent(key, k -> new long[2]);
            a[0] += n;
            a[1]++;
        }
        return left.minus(what);
    }

    /** One pass over the transitions collecting what the explanation needs. */
    private static final class Replay {
        final Map<Integer, List<long[]>> alone = new HashMap<>();
        final Map<Integer, List<long[]>> runnable = new HashMap<>();
        /** Start of the final off-CPU stretch of a thread that never ran again; absent if running at the end. */
        final Map<Integer, Long> lastOff = new HashMap<>();

        static Replay of(SchedTrace trace, Set<Integer> app, long from, long to) {
            Replay r = new Replay();
            Map<Integer, ThreadState> state = new HashMap<>();
            Map<Integer, Long> since = new HashMap<>();
            Set<Integer> runningApp = new HashSet<>();
            long prev = from;
            for (Transition t : trace.transitions()) {
                long now = Math.min(Math.max(t.nanos(), from), to);
                if (now > prev && runningApp.size() == 1) {
                    int only = runningApp.iterator().next();
                    r.alone.computeIfAbsent(only, k -> new ArrayList<>()).add(new long[] {prev, now});
                }
                prev = Math.max(prev, now);
                ThreadState old = state.put(t.tid(), t.state());
                if (old == ThreadState.RUNNABLE && t.state() != ThreadState.RUNNABLE) {
                    r.runnable.computeIfAbsent(t.tid(), k -> new ArrayList<>())
                            .add(new long[] {since.get(t.tid()), t.nanos()});
                }
                if (old != t.state()) {
                    since.put(t.tid(), t.nanos());
                }
                if (app.contains(t.tid())) {
                    if (t.state() == ThreadState.RUNNING) {
                        runningApp.add(t.tid());
                    } else {
                        runningApp.remove(t.tid());
                    }
                }
            }
            if (to > prev && runningApp.size() == 1) {
                r.alone.computeIfAbsent(runningApp.iterator().next(), k -> new ArrayList<>()).add(new long[] {prev, to});
            }
            state.forEach((tid, s) -> {
                if (s == ThreadState.BLOCKED) {
                    r.lastOff.put(tid, since.get(tid));
                } else if (s == ThreadState.RUNNABLE) {
                    r.runnable.computeIfAbsent(tid, k -> new ArrayList<>()).add(new long[] {since.get(tid), to});
                }
            });
            return r;
        }
    }
}
