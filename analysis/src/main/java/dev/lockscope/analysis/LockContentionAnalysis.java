package dev.lockscope.analysis;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.LockSummary;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.core.ParkTally;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The park-contention metrics of seed 000 §3.7 from a recording, per lock:
 * <ul>
 *   <li>park blockers, keyed by blocker class and identity hash: from the agent's exact
 *       {@code lockscope.LockSummary} events when the recording has them (the latest per blocker),
 *       else replayed from the {@code lockscope.Park} events; a park with no end is "parked now" (§3.7.6);</li>
 *   <li>contended monitors ({@code jdk.JavaMonitorEnter}), keyed by monitor class and the JVM's
 *       monitor address, where "parked" reads "blocked on entry".</li>
 * </ul>
 * TotalExecutionTime (§3.7.12/§3.7.13) is the recording's duration. The agent computes the same
 * table live at exit from the same core formulas ({@link ParkTally}).
 *
 * <p>Online: every wait's begin and end go through one {@link ParkTally} per lock in time order (at
 * equal times ends before begins, the end of a zero-length wait after its begin), as the agent feeds
 * it. Parks arrive in about that order; a monitor entry arrives at its end, so its begin is late by
 * the time it blocked. So each lock holds its latest points in a window sorted by time
 * ({@link #WINDOW} points, fewer while all locks together hold more than {@link #ALL_WINDOWS}):
 * exact unless a wait spans more of its own lock's waits than that; a point later than that is
 * counted as of the tally's last time. Each lock has its own window because its points come from one
 * stream only (parks or monitor entries), whose pace is its own.
 */
public final class LockContentionAnalysis implements RecordingVisitor {
    /** Begin/end points a lock holds back to be replayed in time order. */
    static final int WINDOW = 1 << 12;
    /** Points all locks together hold at most. */
    static final int ALL_WINDOWS = 1 << 18;

    private static final byte END = 0;
    private static final byte BEGIN = 1;
    private static final byte END_OF_ZERO_LENGTH = 2;

    private record Point(long time, byte kind, long arrival) {
    }

    private static final Comparator<Point> TIME_ORDER = Comparator.comparingLong(Point::time)
            .thenComparingInt(Point::kind).thenComparingLong(Point::arrival);

    /** A wait that may be the first monitored one (§3.7.1/§3.7.2): begin order is (time, tie). */
    private record Candidate(long begin, long tie, String thread, List<String> frames) {
    }

    private static final Comparator<Candidate> BEGIN_ORDER = Comparator.comparingLong(Candidate::begin)
            .thenComparingLong(Candidate::tie);

    /** One park blocker or monitor. */
    private final class Lock {
        final LockKind kind;
        final String className;
        final String identity;
        ParkTally tally = ParkTally.empty(options.collectionThreshold());
        final PriorityQueue<Point> points = new PriorityQueue<>(TIME_ORDER);
        /** The collectionThreshold + 1 earliest waits, latest on top. */
        final PriorityQueue<Candidate> earliest = new PriorityQueue<>(BEGIN_ORDER.reversed());

        Lock(LockKind kind, String className, String identity) {
            this.kind = kind;
            this.className = className;
            this.identity = identity;
        }

        void candidate(Candidate c) {
            earliest.add(c);
            if (earliest.size() > options.collectionThreshold() + 1) {
                earliest.poll();
            }
        }

        Candidate first() {
            return earliest.stream().min(BEGIN_ORDER).orElseThrow();
        }

        void applyEarliest() {
            Point p = points.poll();
            tally = p.kind == BEGIN ? tally.park(p.time) : tally.unpark(p.time);
        }
    }

    private final ContentionOptions options;
    private final Map<String, Lock> blockers = new HashMap<>();
    private final Map<String, Lock> monitors = new HashMap<>();
    /** The latest {@code lockscope.LockSummary} of each blocker: exact totals, recorded parks or not. */
    private final Map<String, LockSummary> summaries = new HashMap<>();
    private long arrivals;
    private long pending;
    private LockContention result;

    public LockContentionAnalysis(ContentionOptions options) {
        this.options = options;
    }

    /** The table of an in-memory recording (tests, small synthetic inputs). */
    public static LockContention analyze(LockRecording recording, ContentionOptions options) {
        LockContentionAnalysis analysis = new LockContentionAnalysis(options);
        recording.replay(analysis);
        return analysis.result();
    }

    @Override
    public void parkBegin(ParkWait p) {
        String hash = Integer.toHexString(p.blockerHash());
        Lock lock = blockers.computeIfAbsent(p.blockerClass() + "@" + hash, k -> new Lock(LockKind.PARK, p.blockerClass(), hash));
        lock.candidate(new Candidate(p.beginNanos(), p.beginSeq(), p.thread().name(), p.frames()));
        point(p.beginNanos(), BEGIN, lock);
    }

    @Override
    public void parkEnd(ParkWait p) {
        Lock lock = blockers.get(p.blockerClass() + "@" + Integer.toHexString(p.blockerHash()));
        point(p.endNanos(), p.endNanos() == p.beginNanos() ? END_OF_ZERO_LENGTH : END, lock);
    }

    @Override
    public void lockSummary(LockSummary s) {
        if (s.collectionThreshold() == options.collectionThreshold()) {
            summaries.merge(s.blockerClass() + "@" + Integer.toHexString(s.blockerHash()), s,
                    (a, b) -> b.timeNanos() >= a.timeNanos() ? b : a);
        }
    }

    @Override
    public void monitorEnter(MonitorEnter e) {
        String address = Long.toHexString(e.address());
        Lock lock = monitors.computeIfAbsent(e.monitorClass() + "@" + address,
                k -> new Lock(LockKind.MONITOR, e.monitorClass(), address));
        lock.candidate(new Candidate(e.beginNanos(), e.thread().javaTid(), e.thread().name(), e.frames()));
        point(e.beginNanos(), BEGIN, lock);
        point(e.endNanos(), e.endNanos() == e.beginNanos() ? END_OF_ZERO_LENGTH : END, lock);
    }

    private void point(long time, byte kind, Lock lock) {
        lock.points.add(new Point(time, kind, arrivals++));
        pending++;
        if (lock.points.size() > WINDOW || pending > ALL_WINDOWS) {
            lock.applyEarliest();
            pending--;
        }
    }

    @Override
    public void finish(RecordingInfo info) {
        for (Map<String, Lock> locks : List.of(blockers, monitors)) {
            for (Lock l : locks.values()) {
                while (!l.points.isEmpty()) {
                    l.applyEarliest();
                }
            }
        }
        pending = 0;
        long total = info.durationNanos();
        List<LockMetrics> collected = new ArrayList<>();
        collected.addAll(summarized(total));
        blockers.keySet().removeAll(summaries.keySet());
        collected.addAll(metrics(blockers, total));
        collected.addAll(metrics(monitors, total));
        List<LockMetrics> shown = new ArrayList<>();
        for (LockMetrics m : collected) {
            // §3.3.2: "filtering all the records with number of parks less than valueprintThreshold"
            if (m.timesParked() >= options.printThreshold()) {
                shown.add(m);
            }
        }
        result = new LockContention(info.source(), info.startNanos(), total, options, LockTable.ranked(shown),
                collected.size() - shown.size());
    }

    /** The result; available once the recording has been read. */
    public LockContention result() {
        if (result == null) {
            throw new IllegalStateException("the recording has not been read to its end");
        }
        return result;
    }

    /**
     * The park blockers from the agent's summaries, which count every park (a recording threshold
     * leaves short parks out of the events): the same numbers the agent's table printed at exit.
     */
    private List<LockMetrics> summarized(long totalExecutionNanos) {
        List<LockSummary> ordered = new ArrayList<>(summaries.values());
        ordered.sort(Comparator.comparing(LockSummary::blockerClass).thenComparingInt(LockSummary::blockerHash));
        List<LockMetrics> out = new ArrayList<>(ordered.size());
        for (LockSummary s : ordered) {
            if (!s.collecting()) {
                continue;
            }
            ParkTally tally = ParkTally.of(s.collectionThreshold(), s.timesParked(), s.parkedNow(), s.peakParked(),
                    s.threadTimeNanos(), s.realTimeNanos(), 0, s.lifeTimeNanos(), true);
            out.add(new LockMetrics(LockKind.PARK, s.blockerClass(), Integer.toHexString(s.blockerHash()), s.firstThread(),
                    s.firstFrames(), tally, totalExecutionNanos));
        }
        return out;
    }

    /** Locks in the order of their first wait, as the table lists equally ranked locks. */
    private static List<LockMetrics> metrics(Map<String, Lock> locks, long totalExecutionNanos) {
        List<Lock> ordered = new ArrayList<>(locks.values());
        ordered.sort(Comparator.comparing(Lock::first, BEGIN_ORDER));
        List<LockMetrics> out = new ArrayList<>(ordered.size());
        for (Lock l : ordered) {
            if (l.tally.collecting) {
                // §3.7.1/§3.7.2: the first *monitored* wait, the one with which the collection threshold is reached
                Candidate first = l.earliest.peek();
                out.add(new LockMetrics(l.kind, l.className, l.identity, first.thread(), first.frames(), l.tally,
                        totalExecutionNanos));
            }
        }
        return out;
    }
}
