package dev.lockscope.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a ground-truth workload really did, measured by the workload itself with {@link System#nanoTime()}
 * and no profiler's help: every acquisition's request, acquired and release times. From them, per lock:
 * the total wait (Σ acquired − request), the mean hold (Σ release − acquired / holds) and, per call site
 * that held the lock, the owner time: the part of all waits that overlaps holds made at that site.
 * Written as {@code truth <lock> <metric> <value>} lines at the end of the workload's output.
 */
public final class GroundTruth {
    private GroundTruth() {
    }

    /** One acquisition: the thread asked at {@code request}, got the lock at {@code acquired}, released it at {@code released} (ns). */
    public record Acquisition(String lock, String site, long request, long acquired, long released) {
    }

    /** The truth about one lock. {@code ownerNanos}: site → wait time that overlapped that site's holds. */
    public record LockTruth(long waitNanos, long waits, long holdNanos, long holds, Map<String, Long> ownerNanos) {
        public double meanHoldNanos() {
            return holds == 0 ? Double.NaN : (double) holdNanos / holds;
        }

        /** Share of all waiting on the lock that overlapped holds by {@code site}; the rest is hand-off gaps. */
        public double ownerShare(String site) {
            return waitNanos == 0 ? Double.NaN : (double) ownerNanos.getOrDefault(site, 0L) / waitNanos;
        }
    }

    /** Per lock, in order of first appearance. */
    public static Map<String, LockTruth> compute(List<Acquisition> acquisitions) {
        Map<String, List<Acquisition>> byLock = new LinkedHashMap<>();
        for (Acquisition a : acquisitions) {
            byLock.computeIfAbsent(a.lock(), k -> new ArrayList<>()).add(a);
        }
        Map<String, LockTruth> out = new LinkedHashMap<>();
        byLock.forEach((lock, as) -> out.put(lock, computeLock(as)));
        return out;
    }

    private static LockTruth computeLock(List<Acquisition> as) {
        long wait = 0;
        long hold = 0;
        Map<String, Long> owner = new TreeMap<>();
        for (Acquisition a : as) {
            wait += a.acquired() - a.request();
            hold += a.released() - a.acquired();
            owner.putIfAbsent(a.site(), 0L);
        }
        // Holds of one lock never overlap each other (mutual exclusion): sorted by start, they are sorted by end too.
        List<Acquisition> holds = new ArrayList<>(as);
        holds.sort(Comparator.comparingLong(Acquisition::acquired));
        long[] ends = holds.stream().mapToLong(Acquisition::released).toArray();
        for (Acquisition w : as) {
            long from = w.request();
            long to = w.acquired();
            if (to <= from) {
                continue;
            }
            for (int i = firstEndingAfter(ends, from); i < holds.size() && holds.get(i).acquired() < to; i++) {
                Acquisition h = holds.get(i);
                long overlap = Math.min(to, h.released()) - Math.max(from, h.acquired());
                if (overlap > 0) {
                    owner.merge(h.site(), overlap, Long::sum);
                }
            }
        }
        return new LockTruth(wait, as.size(), hold, as.size(), owner);
    }

    /** Index of the first entry of the ascending {@code ends} greater than {@code t}. */
    private static int firstEndingAfter(long[] ends, long t) {
        int lo = 0;
        int hi = ends.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The {@code truth <lock> <metric> <value>} lines. */
    public static List<String> format(Map<String, LockTruth> truths) {
        List<String> lines = new ArrayList<>();
        truths.forEach((lock, t) -> {
            lines.add(String.format(Locale.ROOT, "truth %s waitNanos %d", lock, t.waitNanos()));
            lines.add(String.format(Locale.ROOT, "truth %s waits %d", lock, t.waits()));
            lines.add(String.format(Locale.ROOT, "truth %s holdNanos %d", lock, t.holdNanos()));
            lines.add(String.format(Locale.ROOT, "truth %s holds %d", lock, t.holds()));
            t.ownerNanos().forEach((site, nanos) -> lines.add(String.format(Locale.ROOT, "truth %s owner:%s %d", lock, site, nanos)));
        });
        return lines;
    }

    /** Reads the truth lines back from a workload's whole output (other lines are ignored). */
    public static Map<String, LockTruth> parse(String output) {
        Map<String, Map<String, Long>> values = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && f[0].equals("truth")) {
                values.computeIfAbsent(f[1], k -> new LinkedHashMap<>()).put(f[2], Long.parseLong(f[3]));
            }
        }
        Map<String, LockTruth> out = new LinkedHashMap<>();
        values.forEach((lock, v) -> {
            Map<String, Long> owner = new TreeMap<>();
            v.forEach((k, n) -> {
                if (k.startsWith("owner:")) {
                    owner.put(k.substring("owner:".length()), n);
                }
            });
            out.put(lock, new LockTruth(required(v, lock, "waitNanos"), required(v, lock, "waits"),
                    required(v, lock, "holdNanos"), required(v, lock, "holds"), owner));
        });
        return out;
    }

    private static long required(Map<String, Long> v, String lock, String metric) {
        Long n = v.get(metric);
        if (n == null) {
            throw new IllegalArgumentException("truth for " + lock + " lacks " + metric);
        }
        return n;
    }
}
