package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.core.CallStack;
import dev.lockscope.core.Frame;
import dev.lockscope.core.LockKind;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ObjDoubleConsumer;

import dev.lockscope.analysis.model.MonitorEnter;

/**
 * The call chains in which a monitor owner held the monitor during a span of waiting. The stock JVM
 * records no release event, so they are inferred, tried in this order:
 * <ol>
 *   <li>{@link OwnerChain#SAMPLED}: what the owner itself was doing inside the span, weighted over it.
 *       Its recorded waits (sleeps, parks, blocked entering or waiting on another monitor: it holds
 *       this one meanwhile) count with the part of the span they cover; the rest of the span is shared
 *       among its CPU samples inside the span. This sees every tenure, also those the owner began by
 *       taking the monitor back without contention (HotSpot lets a releasing thread barge in), which
 *       JFR does not record. Each stack is cut to the frame that holds the monitor: the innermost
 *       frame in a method where this monitor is seen being entered; the frames inside it, what the owner
 *       did while holding it (a loader, a write), are kept beside the chain ({@link Cause#inside}). A stack
 *       without such a frame may be from between the owner's tenures (log4j2's owner formatting its next
 *       message before it takes the appender's monitor again): it counts only when no stack of the span has
 *       one, then without the JDK's frames on top, as {@link OwnerChain#SAMPLED_OUTSIDE_HOLD};</li>
 *   <li>{@link OwnerChain#ACQUISITION_SITE}, when nothing of the owner was recorded inside the span: the
 *       chain of the owner's own most recent contended acquisition of the same monitor that completed
 *       before the span ended, unless the owner is seen handing the monitor to another thread after
 *       that acquisition: then its current tenure began with an acquisition JFR did not record (no
 *       contention), and the old site would be a guess;</li>
 *   <li>{@link OwnerChain#UNKNOWN}: the owner thread only.</li>
 * </ol>
 *
 * <p>Fed in end order, it keeps bounded recent history: per monitor its {@link #ENTERS_KEPT} latest
 * contended enters (and per thread of them, the latest one that fell out, and the latest hand-off)
 * and up to {@link #SITES_KEPT} methods that entered it, and per thread its {@link #ACTIVITIES_KEPT}
 * latest samples and waits. A span older than that history is blamed from what is left of it.
 */
final class MonitorOwnerChains {
    static final int ENTERS_KEPT = 256;
    static final int ACTIVITIES_KEPT = 256;
    static final int SITES_KEPT = 64;
    /** The class of HotSpot's init lock of a class, which threads needing the class wait on (LockLabels). */
    static final String CLASS_INIT_LOCK = "[I";

    /** A part of a span blamed on one chain: {@code nanos} of it, before rounding to the span. */
    record Weighted(Cause cause, double nanos) {
    }

    /** What the owner of {@code lock} was recorded doing inside the span [from, to] ({@link #evidence}). */
    record Evidence(ThreadRef owner, LockId lock, long from, long to, List<Activity> activities) {
    }

    /**
     * Something a thread was recorded doing: a wait [begin, end] with its stack, or a CPU sample
     * (begin == end). {@code lock} is the monitor a monitor enter or wait was on, else null.
     */
    record Activity(long beginNanos, long endNanos, List<String> frames, LockId lock) {
        boolean isSample() {
            return beginNanos == endNanos;
        }
    }

    /** One thread's part of one monitor's history. */
    private static final class ThreadOnMonitor {
        /** Its contended enters among the monitor's kept ones, oldest first. */
        final ArrayDeque<MonitorEnter> enters = new ArrayDeque<>();
        /** End times of other threads' enters that name it previousOwner, among the monitor's kept ones. */
        final ArrayDeque<Long> handoffs = new ArrayDeque<>();
        MonitorEnter lastDropped;
        long lastDroppedHandoff = Long.MIN_VALUE;
    }

    /** One monitor's history. */
    private static final class Monitor {
        final ArrayDeque<MonitorEnter> enters = new ArrayDeque<>();
        final Map<Long, ThreadOnMonitor> threads = new HashMap<>();
        /** Methods ({@code package.Class.method}) seen entering the monitor: where it is held. */
        final Set<String> sites = new LinkedHashSet<>();

        ThreadOnMonitor of(ThreadRef t) {
            return threads.computeIfAbsent(t.javaTid(), k -> new ThreadOnMonitor());
        }
    }

    private final Map<LockId, Monitor> monitors = new HashMap<>();
    private final Map<Long, Activities> activitiesByThread = new HashMap<>();

    /**
     * One thread's latest {@link #ACTIVITIES_KEPT} activities in end order (a ring): {@link #evidence} runs for
     * every span of every wait and finds the activities ending inside or after a span by binary search rather than
     * walking all of them. Events arrive nearly in end order; the few that do not are moved into place.
     */
    private static final class Activities {
        private final Activity[] ring = new Activity[ACTIVITIES_KEPT];
        private int head;
        private int size;

        private Activity at(int i) {
            return ring[(head + i) % ACTIVITIES_KEPT];
        }

        private void set(int i, Activity a) {
            ring[(head + i) % ACTIVITIES_KEPT] = a;
        }

        void add(Activity a) {
            if (size == ACTIVITIES_KEPT) {
                if (a.endNanos() < at(0).endNanos()) {
                    return; // older than everything kept: it would be dropped at once
                }
                ring[head] = null;
                head = (head + 1) % ACTIVITIES_KEPT;
                size--;
            }
            int i = size++;
            while (i > 0 && at(i - 1).endNanos() > a.endNanos()) {
                set(i, at(i - 1));
                i--;
            }
            set(i, a);
        }

        /** The index of the first activity ending after {@code nanos}. */
        int firstEndingAfter(long nanos) {
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (at(mid).endNanos() > nanos) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
    }

    /** A CPU sample of {@code thread}. */
    void sample(ThreadRef thread, long timeNanos, List<String> frames) {
        activity(thread, new Activity(timeNanos, timeNanos, frames, null));
    }

    /** {@code thread} waited [begin, end] (slept, parked, waited on {@code lock} or null): not running the code it holds a monitor in. */
    void waited(ThreadRef thread, long beginNanos, long endNanos, List<String> frames, LockId lock) {
        if (endNanos > beginNanos) {
            activity(thread, new Activity(beginNanos, endNanos, frames, lock));
        }
    }

    private void activity(ThreadRef thread, Activity a) {
        if (a.frames().isEmpty()) {
            return;
        }
        activitiesByThread.computeIfAbsent(thread.javaTid(), k -> new Activities()).add(a);
    }

    /** The next contended enter of {@code lock}, in end order. */
    void enter(LockId lock, MonitorEnter e) {
        waited(e.thread(), e.beginNanos(), e.endNanos(), e.frames(), lock);
        Monitor m = monitors.computeIfAbsent(lock, k -> new Monitor());
        if (!e.frames().isEmpty() && m.sites.size() < SITES_KEPT) {
            m.sites.add(CallStack.frameAt(e.frames(), 0).function());
        }
        m.enters.addLast(e);
        m.of(e.thread()).enters.addLast(e);
        if (isHandoff(e)) {
            m.of(e.previousOwner()).handoffs.addLast(e.endNanos());
        }
        if (m.enters.size() > ENTERS_KEPT) {
            MonitorEnter dropped = m.enters.removeFirst();
            ThreadOnMonitor t = m.of(dropped.thread());
            t.lastDropped = t.enters.removeFirst();
            if (isHandoff(dropped)) {
                ThreadOnMonitor prev = m.of(dropped.previousOwner());
                prev.lastDroppedHandoff = Math.max(prev.lastDroppedHandoff, prev.handoffs.removeFirst());
            }
        }
    }

    /** The monitor's kept enters, latest first. */
    Iterator<MonitorEnter> latestFirst(LockId lock) {
        Monitor m = monitors.get(lock);
        return m == null ? List.<MonitorEnter>of().iterator() : m.enters.descendingIterator();
    }

    /**
     * What {@code owner} was recorded doing inside [from, to] of a wait for {@code lock}: its waits and
     * samples overlapping the span, not its waits for or on this very monitor (it did not hold it then).
     * Null when the owner is not known or nothing of it was recorded inside the span.
     */
    Evidence evidence(ThreadRef owner, LockId lock, long from, long to) {
        if (owner == null || owner.equals(ThreadRef.UNKNOWN)) {
            return null;
        }
        Activities kept = activitiesByThread.get(owner.javaTid());
        if (kept == null) {
            return null;
        }
        List<Activity> inside = new ArrayList<>();
        // a sample at `from` ends at it and overlaps; a wait must end after it
        for (int i = kept.firstEndingAfter(from - 1); i < kept.size; i++) {
            Activity a = kept.at(i);
            boolean overlaps = a.isSample() ? a.beginNanos() >= from && a.beginNanos() <= to
                    : a.beginNanos() < to && a.endNanos() > from;
            if (overlaps && !lock.equals(a.lock())) {
                inside.add(a);
            }
        }
        return inside.isEmpty() ? null : new Evidence(owner, lock, from, to, inside);
    }

    /**
     * Whether every stack of the evidence has a frame in a method seen entering the monitor. Otherwise its
     * weighing may change as further methods are seen entering it: a method whose first contended enter
     * comes later in the recording (a busy start, where one thread keeps the monitor across its methods for
     * hundreds of milliseconds) would have its holds given to the methods seen so far.
     */
    boolean settled(Evidence e) {
        Monitor m = monitors.get(e.lock());
        Set<String> sites = m == null ? Set.of() : m.sites;
        for (Activity a : e.activities()) {
            if (holdingFrame(a.frames(), sites) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The chains {@code owner} held {@code lock} in during [from, to], each with its part of the span
     * (parts in the order of their chains' text), when nothing of the owner was recorded inside the span:
     * its last contended acquisition, else the owner thread only; one unknown cause when the owner is not known.
     */
    List<Weighted> withoutEvidence(ThreadRef owner, LockId lock, long from, long to) {
        if (owner == null || owner.equals(ThreadRef.UNKNOWN)) {
            return List.of(new Weighted(Cause.UNKNOWN, to - from));
        }
        Monitor m = monitors.get(lock);
        ThreadOnMonitor history = m == null ? null : m.threads.get(owner.javaTid());
        MonitorEnter site = history == null ? null : lastAcquisition(history, to);
        if (site != null && !handedOffBetween(history, site.endNanos(), to)) {
            return List.of(new Weighted(new Cause(owner, site.frames(), OwnerChain.ACQUISITION_SITE), to - from));
        }
        return List.of(new Weighted(Cause.threadOnly(owner), to - from));
    }

    /**
     * The chains {@code owner} held {@code lock} in during [from, to], weighed now with the methods seen
     * entering it so far: for wait/notify locks, whose notifier's span is blamed when the waiter wakes.
     */
    List<Weighted> causesOf(ThreadRef owner, LockId lock, long from, long to) {
        Evidence seen = evidence(owner, lock, from, to);
        List<Weighted> parts = seen == null ? List.of() : weigh(seen);
        return parts.isEmpty() ? withoutEvidence(owner, lock, from, to) : parts;
    }

    /**
     * The evidence weighted over its span (see the class comment), stacks cut at the methods seen entering
     * the monitor so far; empty when no part has any weight.
     */
    List<Weighted> weigh(Evidence e) {
        Monitor m = monitors.get(e.lock());
        Set<String> sites = m == null ? Set.of() : m.sites;
        long from = e.from();
        long to = e.to();
        // a wait/notify lock's notifier holds nothing the waiter entered: what it did in the span is its chain
        boolean notifier = e.lock().kind() == LockKind.WAIT;
        // but a class's initialiser is waited for as an Object.wait on its init lock (HotSpot's int[0]), and its
        // notifier holds that only while it runs a static initialiser: after its notifyAll the waiters queue to take
        // the init lock back while the notifier goes on with other work (Jetty's reserved thread back in waitForTask)
        boolean classInit = notifier && e.lock().lockClass().equals(CLASS_INIT_LOCK);
        boolean anyHeld = false;
        for (Activity a : e.activities()) {
            anyHeld |= holdingFrame(a.frames(), sites, classInit) >= 0;
        }
        List<Activity> kept = new ArrayList<>();
        for (Activity a : e.activities()) {
            if (!anyHeld || holdingFrame(a.frames(), sites, classInit) >= 0) {
                kept.add(a);
            }
        }
        List<Weighted> out = new ArrayList<>();
        weighted(kept, from, to, (a, weight) -> {
            if (weight > 0) {
                int at = holdingFrame(a.frames(), sites, classInit);
                out.add(new Weighted(at < 0 ? new Cause(e.owner(), withoutJdkTop(a.frames()),
                        notifier && !classInit ? OwnerChain.SAMPLED : OwnerChain.SAMPLED_OUTSIDE_HOLD)
                        : new Cause(e.owner(), a.frames().subList(at, a.frames().size()), OwnerChain.SAMPLED,
                        a.frames().subList(0, at)), weight));
            }
        });
        return out;
    }

    /**
     * What {@code owner} mostly did inside [from, to] while it held a lock it released with the stack
     * {@code released} (an unpark's, innermost first): of its recorded waits and samples overlapping the span whose
     * stacks pass through the method that released it (its first application frame, where a
     * {@code java.util.concurrent} lock is taken and given back) with application code inside it, the one with the
     * most weight, its frames inside that method, innermost first; empty when none. One answer per release, not a
     * split of the span: over many releases the answers sum to where the holders' time went.
     */
    List<String> mostlyInside(ThreadRef owner, List<String> released, long from, long to) {
        String holding = null;
        for (Frame f : CallStack.framesOf(released)) {
            if (f.kind().isApplication()) {
                holding = f.function();
                break;
            }
        }
        Evidence seen = holding == null || from >= to ? null : evidence(owner, NO_LOCK, from, to);
        if (seen == null) {
            return List.of();
        }
        Set<String> sites = Set.of(holding);
        List<Activity> kept = new ArrayList<>();
        for (Activity a : seen.activities()) {
            int at = holdingFrame(a.frames(), sites);
            // not in the releasing method, or only the JDK inside it (its own wait for this lock, a sleep in the
            // method itself, where the method is the answer): left out
            if (at > 0 && anyApplicationFrame(a.frames().subList(0, at))) {
                kept.add(a);
            }
        }
        Activity[] best = {null};
        double[] most = {0};
        weighted(kept, from, to, (a, weight) -> {
            if (weight > most[0]) {
                most[0] = weight;
                best[0] = a;
            }
        });
        return best[0] == null ? List.of() : best[0].frames().subList(0, holdingFrame(best[0].frames(), sites));
    }

    /**
     * Each distinct stack of {@code activities} with its weight over [from, to], in the order of the stacks' text: a
     * recorded wait counts with the part of the span it covers; the part no wait covers was spent running, shared
     * among the CPU samples, if any.
     */
    private static void weighted(List<Activity> activities, long from, long to, ObjDoubleConsumer<Activity> each) {
        // keyed by the stack itself (the reader's interned call stacks keep their hash), not by its text joined anew
        // for each activity: this runs for every span blamed on an owner
        Map<List<String>, StackWeight> byStack = new HashMap<>();
        long covered = 0;
        int sampleCount = 0;
        for (Activity a : activities) {
            StackWeight w = byStack.computeIfAbsent(a.frames(), k -> new StackWeight(a));
            if (a.isSample()) {
                w.samples++;
                sampleCount++;
            } else {
                long overlap = Math.min(a.endNanos(), to) - Math.max(a.beginNanos(), from);
                w.waited += overlap;
                covered += overlap;
            }
        }
        double perSample = sampleCount == 0 ? 0 : Math.max(0, to - from - covered) / (double) sampleCount;
        List<StackWeight> ordered = new ArrayList<>(byStack.values());
        ordered.sort((x, y) -> CallStack.compareJoined(x.first.frames(), y.first.frames()));
        for (StackWeight w : ordered) {
            each.accept(w.first, w.waited + perSample * w.samples);
        }
    }

    /** One distinct stack's weight in {@link #weighted}: its first activity, what its waits cover, its samples. */
    private static final class StackWeight {
        final Activity first;
        double waited;
        int samples;

        StackWeight(Activity first) {
            this.first = first;
        }
    }

    private static boolean anyApplicationFrame(List<String> frames) {
        for (Frame frame : CallStack.framesOf(frames)) {
            if (frame.kind().isApplication()) {
                return true;
            }
        }
        return false;
    }

    /** No lock: {@link #evidence} keeps every activity of the owner (none is a wait for this "lock"). */
    private static final LockId NO_LOCK = LockId.blocker("", 0);

    /**
     * A stack with no known holding frame (a notifier's; an owner's outside its holds), without the JDK frames on
     * top ({@code Thread.sleep}, I/O): the JDK does not hold the application's monitors there.
     */
    private static List<String> withoutJdkTop(List<String> frames) {
        int first = 0;
        while (first < frames.size() - 1 && !CallStack.frameAt(frames, first).kind().isApplication()) {
            first++;
        }
        return frames.subList(first, frames.size());
    }

    /** Index of the innermost frame in a method that enters the monitor, or -1. */
    private static int holdingFrame(List<String> frames, Set<String> sites) {
        return holdingFrame(frames, sites, false);
    }

    /** As {@link #holdingFrame(List, Set)}, or for a class's init lock the innermost static initialiser. */
    private static int holdingFrame(List<String> frames, Set<String> sites, boolean classInit) {
        for (int i = 0; i < frames.size(); i++) {
            String function = CallStack.frameAt(frames, i).function();
            if (classInit ? function.endsWith(".<clinit>") : sites.contains(function)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isHandoff(MonitorEnter e) {
        return e.previousOwner() != null && !e.previousOwner().equals(e.thread());
    }

    /** The owner's latest contended enter of the monitor that ended no later than {@code notAfter}. */
    private static MonitorEnter lastAcquisition(ThreadOnMonitor history, long notAfter) {
        MonitorEnter best = history.lastDropped != null && history.lastDropped.endNanos() <= notAfter
                ? history.lastDropped : null;
        for (MonitorEnter e : history.enters) {
            if (e.endNanos() <= notAfter && (best == null || e.endNanos() >= best.endNanos())) {
                best = e;
            }
        }
        return best;
    }

    /** Whether the owner handed the monitor to another thread strictly between the two times. */
    private static boolean handedOffBetween(ThreadOnMonitor history, long after, long before) {
        if (history.lastDroppedHandoff > after && history.lastDroppedHandoff < before) {
            return true;
        }
        for (long t : history.handoffs) {
            if (t > after && t < before) {
                return true;
            }
        }
        return false;
    }
}
