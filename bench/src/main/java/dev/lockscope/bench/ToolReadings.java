package dev.lockscope.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.JdkPark;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.core.EventNames;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What each tool reports about a {@link GroundTruthWorkload}'s locks. A tool's lock is matched to the
 * workload's by the call sites in its stacks (each lock is taken only at its own sites, and several
 * locks share one class), so no tool is credited with another lock's waits.
 */
final class ToolReadings {
    static final String SITE_CLASS = GroundTruthWorkload.class.getName();

    private ToolReadings() {
    }

    /**
     * One tool's numbers for one lock; NaN where the tool does not report the metric. {@code ownerShares}:
     * site → share (0..1) of the lock's blamed wait; empty when the tool has no owner information.
     */
    record Reading(double waitNanos, double meanHoldNanos, double handoffHoldNanos, Map<String, Double> ownerShares) {
        /** Without the hold estimate from hand-offs. */
        Reading(double waitNanos, double meanHoldNanos, Map<String, Double> ownerShares) {
            this(waitNanos, meanHoldNanos, Double.NaN, ownerShares);
        }
    }

    /** A JDK lock event from a recording: type, lock class, stack (innermost first, {@code Class.method}), duration. */
    record LockEvent(String type, String lockClass, List<String> frames, long nanos) {
    }

    /**
     * lockscope's {@code report --format json}: {@code locks[].totalWaitNanos}, {@code avgHoldNanos} and
     * {@code avgHoldFromHandoffsNanos} (over {@code handoffHolds}) of the lock
     * whose {@code firstFrames} contain the lock's sites (summed / wait-weighted if several match), and the owner
     * shares from {@code blame[]}: the nanos of rows waiting at the lock's sites whose {@code ownerFrames} contain a
     * site, over all of those rows' nanos (owner unknown included).
     */
    static Map<String, Reading> fromLockscope(JsonNode doc, Map<String, Set<String>> sitesByLock) {
        Map<String, Reading> out = new LinkedHashMap<>();
        sitesByLock.forEach((lock, sites) -> {
            double wait = 0;
            double holdWeighted = 0;
            double handoffHolds = 0;
            double handoffHoldNanos = 0;
            for (JsonNode l : doc.path("locks")) {
                if (siteOf(texts(l.path("firstFrames")), sites) != null) {
                    wait += l.path("totalWaitNanos").asDouble();
                    holdWeighted += l.path("avgHoldNanos").asDouble() * l.path("totalWaitNanos").asDouble();
                    if (l.has("avgHoldFromHandoffsNanos")) {
                        handoffHolds += l.path("handoffHolds").asDouble();
                        handoffHoldNanos += l.path("avgHoldFromHandoffsNanos").asDouble() * l.path("handoffHolds").asDouble();
                    }
                }
            }
            double blamed = 0;
            Map<String, Double> bySite = new TreeMap<>();
            sites.forEach(s -> bySite.put(s, 0.0));
            for (JsonNode row : doc.path("blame")) {
                if (siteOf(texts(row.path("waiterFrames")), sites) == null) {
                    continue;
                }
                double nanos = row.path("nanos").asDouble();
                blamed += nanos;
                String owner = siteOf(texts(row.path("ownerFrames")), sites);
                if (owner != null) {
                    bySite.merge(owner, nanos, Double::sum);
                }
            }
            Map<String, Double> shares = new TreeMap<>();
            double total = blamed;
            bySite.forEach((s, n) -> shares.put(s, total == 0 ? Double.NaN : n / total));
            out.put(lock, new Reading(wait, wait == 0 ? Double.NaN : holdWeighted / wait,
                    handoffHolds == 0 ? Double.NaN : handoffHoldNanos / handoffHolds, shares));
        });
        return out;
    }

    /**
     * JFR-format recordings (plain JFR, async-profiler's {@code jfr} output): the summed durations of
     * {@code jdk.ThreadPark} and {@code jdk.JavaMonitorEnter} events whose stacks contain the lock's sites.
     * Parks without a blocker (no lock class) are not lock waits and are skipped. No hold time, no owners.
     */
    static Map<String, Reading> fromLockEvents(List<LockEvent> events, Map<String, Set<String>> sitesByLock) {
        Map<String, Reading> out = new LinkedHashMap<>();
        sitesByLock.forEach((lock, sites) -> {
            long wait = 0;
            for (LockEvent e : events) {
                if (e.lockClass() != null && siteOf(e.frames(), sites) != null) {
                    wait += e.nanos();
                }
            }
            out.put(lock, new Reading(wait, Double.NaN, Map.of()));
        });
        return out;
    }

    static List<LockEvent> readJfr(Path recording) throws IOException {
        List<LockEvent> out = new ArrayList<>();
        try {
            RecordingReader.read(recording, new RecordingVisitor() {
                @Override
                public void monitorEnter(MonitorEnter e) {
                    out.add(new LockEvent(EventNames.MONITOR_ENTER, e.monitorClass(), e.frames(), e.endNanos() - e.beginNanos()));
                }

                @Override
                public void jdkPark(JdkPark p) {
                    out.add(new LockEvent(EventNames.THREAD_PARK, p.parkedClass(), p.frames(), p.endNanos() - p.beginNanos()));
                }
            });
        } catch (RecordingException e) {
            throw new IOException(e.getMessage(), e);
        }
        return out;
    }

    /**
     * The innermost frame among {@code frames} ({@code pkg.Class.method}, optionally {@code :line}) that is one of
     * the workload's {@code sites}, as the site name; null if none is.
     */
    static String siteOf(List<String> frames, Set<String> sites) {
        for (String f : frames) {
            int colon = f.indexOf(':');
            String method = colon < 0 ? f : f.substring(0, colon);
            int dot = method.lastIndexOf('.');
            if (dot > 0 && method.substring(0, dot).equals(SITE_CLASS) && sites.contains(method.substring(dot + 1))) {
                return method.substring(dot + 1);
            }
        }
        return null;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
