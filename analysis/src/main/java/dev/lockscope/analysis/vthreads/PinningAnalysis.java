package dev.lockscope.analysis.vthreads;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pinning and carrier starvation of virtual threads (JDK 21+). A virtual thread that blocks while
 * pinned, inside {@code synchronized} on JDK 21-23 or under a native frame, keeps its carrier:
 * {@link RecordingVisitor#pinned} delivers both {@code jdk.VirtualThreadPinned} (recorded by lockscope at
 * threshold 0, with the stack: a pinned park or sleep) and the JVM's {@code jdk.JavaMonitorEnter} of a
 * virtual thread (a monitor wait, which the JVM records only while pinned). Pinned time is
 * summed per site (the innermost application frame), and the periods in which at least as many
 * virtual threads were pinned as the scheduler has carriers are the periods in which no other
 * virtual thread could run.
 *
 * <p>Bounded: one entry per site, and the begin/end points of at most {@link #MAX_SPANS} pinned spans
 * for the sweep (later spans still count per site; the result says when the sweep was cut).
 */
public final class PinningAnalysis implements RecordingVisitor {
    static final int MAX_SPANS = 1 << 20;

    /** Pinned time at one site. */
    public record PinnedSite(String site, long nanos, long count) {
    }

    /** A period in which every carrier was held by a pinned virtual thread. */
    public record StarvedPeriod(long beginNanos, long endNanos) {
        public long nanos() {
            return endNanos - beginNanos;
        }
    }

    /**
     * @param carriers        the scheduler's parallelism used for the sweep, or 0 when the recording
     *                        does not tell (then no periods are computed)
     * @param sweepCut        more pinned spans than the sweep keeps: periods after the cut are missing
     */
    public record Result(List<PinnedSite> sites, long pinnedNanos, int carriers, List<StarvedPeriod> starved,
                         boolean sweepCut) {
        public long starvedNanos() {
            return starved.stream().mapToLong(StarvedPeriod::nanos).sum();
        }
    }

    private final Map<String, long[]> bySite = new HashMap<>();
    private long[] points = new long[1024]; // begin as +(t<<1|1), end as (t<<1): sorted, ends before begins at a tie
    private int pointCount;
    private boolean sweepCut;
    private int carriers;
    private Result result;

    @Override
    public void virtualThreadCarriers(int count) {
        this.carriers = count;
    }

    @Override
    public void pinned(Interval i) {
        add(site(i.frames()), i.beginNanos(), i.endNanos());
    }

    private void add(String site, long begin, long end) {
        long[] s = bySite.computeIfAbsent(site, k -> new long[2]);
        s[0] += end - begin;
        s[1]++;
        if (pointCount + 2 > MAX_SPANS * 2) {
            sweepCut = true;
            return;
        }
        if (pointCount + 2 > points.length) {
            points = Arrays.copyOf(points, points.length * 2);
        }
        points[pointCount++] = (begin << 1) | 1;
        points[pointCount++] = end << 1;
    }

    @Override
    public void finish(RecordingInfo info) {
        List<PinnedSite> sites = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, long[]> e : bySite.entrySet()) {
            sites.add(new PinnedSite(e.getKey(), e.getValue()[0], e.getValue()[1]));
            total += e.getValue()[0];
        }
        sites.sort(Comparator.comparingLong(PinnedSite::nanos).reversed().thenComparing(PinnedSite::site));
        result = new Result(List.copyOf(sites), total, carriers, starvedPeriods(), sweepCut);
    }

    private List<StarvedPeriod> starvedPeriods() {
        List<StarvedPeriod> out = new ArrayList<>();
        if (carriers <= 0) {
            return out;
        }
        long[] sorted = Arrays.copyOf(points, pointCount);
        Arrays.sort(sorted);
        int pinnedNow = 0;
        long since = 0;
        for (long p : sorted) {
            long t = p >> 1;
            boolean begin = (p & 1) == 1;
            if (begin && ++pinnedNow == carriers) {
                since = t;
            } else if (!begin && pinnedNow-- == carriers && t > since) {
                out.add(new StarvedPeriod(since, t));
            }
        }
        return out;
    }

    public Result result() {
        return result;
    }

    /** The innermost frame outside the Java runtime, or the innermost frame. */
    static String site(List<String> frames) {
        Frame f = Frame.firstApplication(frames);
        return f != null ? f.toString() : frames.isEmpty() ? "(no stack)" : frames.get(0);
    }
}
