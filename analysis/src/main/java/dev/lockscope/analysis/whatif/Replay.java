package dev.lockscope.analysis.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Replays a {@link LockTrace} as a discrete-event simulation: each thread runs its recorded time between
 * lock operations (its work: running, sleeping, waiting for anything that is not a modelled lock), then
 * asks for its next lock; a lock held by another thread queues it, and a release hands the lock to the
 * waiting thread the recording handed it to first (the lock's own hand-off order: first come, first served
 * for a queued {@code ReentrantLock}, HotSpot's own order for a monitor, which is not FIFO). The waits are the replay's own; only the work comes from the recording.
 * A {@link Change} makes the work done while holding the chosen holds {@code factor} times as long,
 * or (removed) lets their lock stop excluding anybody.
 *
 * <p>Assumptions, stated to users: work outside the changed holds takes what it took in the recording
 * (no CPU is freed or taken by the change), among the threads waiting for a lock it goes to the one the
 * recording gave it to first, and a
 * hand-over costs nothing beyond what the recording shows (wake-up latency is part of the measured waits
 * in the recording, not of the replay).
 */
final class Replay {
    private static final int ACQUIRE = 0, RELEASE = 1;

    /** What the replay changes: the holds of {@code lock} (-1: of every lock) at {@code site} (null: anywhere). */
    record Change(int lock, String site, double factor, boolean remove) {
        static final Change NONE = new Change(-2, null, 1, false);

        boolean applies(Hold h) {
            return (lock == -1 || h.lock() == lock) && (site == null || h.site() != null && h.site().contains(site));
        }
    }

    /**
     * The outcome of one replay.
     *
     * @param spanByThread       each thread's time from its start to its last operation, nanoseconds
     * @param operationsByThread each thread's lock operations (holds)
     */
    record Outcome(double[] spanByThread, double[] operationsByThread, long[] waitNanosByLock, int forcedGrants) {
        /**
         * How many times faster the threads' operations ran in {@code after} than in {@code before} (two
         * replays of the same threads): each thread's speed-up (its span before over its span after),
         * weighted by its operations. Not the ratio of the summed rates: a thread with two holds a few
         * milliseconds apart (JFR's own thread entering its lock at start-up) has a rate far above a
         * worker's and would drown the workers' change (a JDK 25 recording predicted +35% for a measured +100%).
         */
        static double speedup(Outcome before, Outcome after) {
            double weighted = 0, operations = 0;
            for (int t = 0; t < before.spanByThread.length; t++) {
                if (before.spanByThread[t] > 0 && after.spanByThread[t] > 0) {
                    weighted += before.operationsByThread[t] * before.spanByThread[t] / after.spanByThread[t];
                    operations += before.operationsByThread[t];
                }
            }
            return operations == 0 ? 1 : weighted / operations;
        }

        /** The lock waited for longest in the replay, -1 when nobody waited. */
        int topLock() {
            int top = -1;
            for (int i = 0; i < waitNanosByLock.length; i++) {
                if (waitNanosByLock[i] > 0 && (top < 0 || waitNanosByLock[i] > waitNanosByLock[top])) {
                    top = i;
                }
            }
            return top;
        }

        long totalWaitNanos() {
            long sum = 0;
            for (long w : waitNanosByLock) {
                sum += w;
            }
            return sum;
        }
    }

    /** One thread's operations, in its own order, with the work before each (already changed). */
    private static final class Ops {
        final int[] type, lock;
        final boolean[] removed;
        final double[] workBefore;
        /** For an acquisition, when the recording granted it: the replay hands a lock over in this order. */
        final long[] recordedGrant;
        final double start;
        int next;
        double waitingSince;

        Ops(int n, double start) {
            type = new int[n];
            lock = new int[n];
            removed = new boolean[n];
            workBefore = new double[n];
            recordedGrant = new long[n];
            this.start = start;
        }
    }

    private Replay() {
    }

    static Outcome run(LockTrace trace, Change change) {
        return run(trace.holds(), trace.locks().size(), trace.startNanos(), change);
    }

    /** Replays {@code holdsByThread} (each thread's holds by grant time) with {@code change}. */
    static Outcome run(List<List<Hold>> holdsByThread, int lockCount, long origin, Change change) {
        int threadCount = holdsByThread.size();
        Ops[] ops = new Ops[threadCount];
        double[] weight = new double[threadCount];
        for (int t = 0; t < threadCount; t++) {
            ops[t] = operations(holdsByThread.get(t), origin, change);
            weight[t] = holdsByThread.get(t).size();
        }
        int[] owner = new int[lockCount];
        java.util.Arrays.fill(owner, -1);
        // waiters of each lock, the one the recording granted the lock to first at the head
        Comparator<Integer> recordedOrder = Comparator.<Integer>comparingLong(t -> ops[t].recordedGrant[ops[t].next])
                .thenComparingInt(t -> t);
        List<PriorityQueue<Integer>> queues = new ArrayList<>(lockCount);
        for (int i = 0; i < lockCount; i++) {
            queues.add(new PriorityQueue<>(recordedOrder));
        }
        long[] waits = new long[lockCount];
        double[] ready = new double[threadCount];
        double[] finish = new double[threadCount];
        PriorityQueue<Integer> running = new PriorityQueue<>(Math.max(1, threadCount),
                Comparator.<Integer>comparingDouble(t -> ready[t]).thenComparingInt(t -> t));
        for (int t = 0; t < threadCount; t++) {
            if (ops[t].type.length > 0) {
                ready[t] = ops[t].start;
                running.add(t);
            }
        }
        int blocked = 0, forced = 0;
        while (!running.isEmpty() || blocked > 0) {
            if (running.isEmpty()) {
                // every remaining thread waits for a lock another waiter holds: an order the recording
                // did not have. Hand the longest-waiting one its lock so the replay goes on; counted.
                int lock = longestWaitingQueue(queues, ops);
                int u = queues.get(lock).poll();
                blocked--;
                forced++;
                owner[lock] = u;
                resume(u, ops, ready, finish, ops[u].waitingSince, waits, lock, running);
                continue;
            }
            int t = running.poll();
            Ops o = ops[t];
            double now = ready[t];
            int i = o.next;
            int l = o.lock[i];
            if (o.type[i] == ACQUIRE && !o.removed[i] && owner[l] != -1 && owner[l] != t) {
                o.waitingSince = now;
                queues.get(l).add(t);
                blocked++;
                continue;
            }
            if (o.type[i] == ACQUIRE && !o.removed[i]) {
                owner[l] = t;
            } else if (o.type[i] == RELEASE && owner[l] == t) {
                owner[l] = -1;
                Integer u = queues.get(l).poll();
                if (u != null) {
                    blocked--;
                    owner[l] = u;
                    resume(u, ops, ready, finish, now, waits, l, running);
                }
            }
            advance(t, o, now, ready, finish, running);
        }
        // per thread, not the span of the whole program: one thread stalled in the recording (preempted, waiting
        // for I/O) changes only its own span, where the program's would end with it
        double[] spans = new double[threadCount];
        for (int t = 0; t < threadCount; t++) {
            spans[t] = Math.max(0, finish[t] - ops[t].start);
        }
        return new Outcome(spans, weight, waits, forced);
    }

    /** Thread {@code u} got {@code lock} at {@code now} after waiting in its queue. */
    private static void resume(int u, Ops[] ops, double[] ready, double[] finish, double now, long[] waits, int lock,
                               PriorityQueue<Integer> running) {
        waits[lock] += (long) (now - ops[u].waitingSince);
        advance(u, ops[u], now, ready, finish, running);
    }

    /** Thread {@code t} finished its current operation at {@code now}: on to the next, after its work. */
    private static void advance(int t, Ops o, double now, double[] ready, double[] finish, PriorityQueue<Integer> running) {
        o.next++;
        if (o.next < o.type.length) {
            ready[t] = now + o.workBefore[o.next];
            running.add(t);
        } else {
            finish[t] = now;
        }
    }

    private static int longestWaitingQueue(List<PriorityQueue<Integer>> queues, Ops[] ops) {
        int best = -1;
        double since = Double.MAX_VALUE;
        for (int l = 0; l < queues.size(); l++) {
            Integer head = queues.get(l).peek();
            if (head != null && ops[head].waitingSince < since) {
                since = ops[head].waitingSince;
                best = l;
            }
        }
        return best;
    }

    /**
     * A thread's holds as acquire and release operations in time order, each with the work since the
     * previous operation completed; the work done while a changed hold is held is scaled by the factor.
     */
    private static Ops operations(List<Hold> holds, long origin, Change change) {
        int n = holds.size() * 2;
        long[] time = new long[n], completed = new long[n];
        int[] type = new int[n], lock = new int[n];
        boolean[] changed = new boolean[n];
        Integer[] order = new Integer[n];
        for (int k = 0; k < holds.size(); k++) {
            Hold h = holds.get(k);
            boolean c = change.applies(h);
            time[2 * k] = h.requestNanos();
            completed[2 * k] = h.grantNanos();
            type[2 * k] = ACQUIRE;
            time[2 * k + 1] = completed[2 * k + 1] = h.releaseNanos();
            type[2 * k + 1] = RELEASE;
            lock[2 * k] = lock[2 * k + 1] = h.lock();
            changed[2 * k] = changed[2 * k + 1] = c;
            order[2 * k] = 2 * k;
            order[2 * k + 1] = 2 * k + 1;
        }
        // releases before acquisitions at one instant: a thread lets one lock go before it asks for the next
        java.util.Arrays.sort(order, Comparator.<Integer>comparingLong(j -> time[j]).thenComparingInt(j -> -type[j]));
        Ops o = new Ops(n, n == 0 ? 0 : time[order[0]] - origin);
        int changedHeld = 0;
        long previous = n == 0 ? 0 : time[order[0]];
        for (int k = 0; k < n; k++) {
            int j = order[k];
            double work = Math.max(0, time[j] - previous);
            o.workBefore[k] = changedHeld > 0 ? work * change.factor() : work;
            o.type[k] = type[j];
            o.lock[k] = lock[j];
            o.removed[k] = changed[j] && change.remove();
            o.recordedGrant[k] = completed[j];
            if (changed[j]) {
                changedHeld += type[j] == ACQUIRE ? 1 : -1;
            }
            previous = Math.max(previous, completed[j]);
        }
        return o;
    }
}
