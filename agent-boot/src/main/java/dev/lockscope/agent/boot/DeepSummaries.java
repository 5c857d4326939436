package dev.lockscope.agent.boot;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes deep mode's statistics ({@link DeepLockEvent} per lock object, {@link DeepSiteEvent} per site,
 * one {@link DeepInfoEvent}) at every chunk end, from JFR's periodic thread; and measures, once at start,
 * what the probes cost (Kawachiya §5.2: probes lengthen critical sections, so their cost is reported
 * beside the results).
 */
public final class DeepSummaries {
    private static final AtomicLong CLASSES = new AtomicLong();
    private static volatile String selection = "";
    private static volatile long probeNanos;
    private static volatile long holdInflationNanos;
    private static boolean registered;

    private DeepSummaries() {
    }

    /** Registers the events with JFR, once per JVM. */
    public static synchronized void register(String selectionText) {
        selection = selectionText;
        if (registered) {
            return;
        }
        jdk.jfr.FlightRecorder.register(DeepLockEvent.class);
        jdk.jfr.FlightRecorder.register(DeepSiteEvent.class);
        jdk.jfr.FlightRecorder.register(DeepInfoEvent.class);
        jdk.jfr.FlightRecorder.register(DeepReleaseEvent.class);
        jdk.jfr.FlightRecorder.addPeriodicEvent(DeepInfoEvent.class, DeepSummaries::write);
        registered = true;
    }

    /** The transformer instrumented one more class. */
    public static void classInstrumented() {
        CLASSES.incrementAndGet();
    }

    public static long probeNanos() {
        return probeNanos;
    }

    public static long holdInflationNanos() {
        return holdInflationNanos;
    }

    private static void write() {
        try {
            DeepInfoEvent info = new DeepInfoEvent();
            if (!info.isEnabled()) {
                return;
            }
            for (DeepLockRecord r : DeepHooks.records()) {
                if (r.gets == 0 && r.tryFailures() == 0) {
                    continue;
                }
                DeepLockEvent e = new DeepLockEvent();
                e.lockClass = r.className;
                e.lockHash = r.identityHash;
                e.kind = r.juc ? "juc" : "monitor";
                long[] c = r.counts();
                e.counts(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], r.holdNanos, r.maxHoldNanos, r.holdHistogram.clone(),
                        c[8], c[9]);
                e.fatSections = r.fatSections;
                e.flatSections = r.flatSections;
                e.fatOps = r.fatOps;
                e.flatOps = r.flatOps;
                e.firstLocker = r.firstLockerName;
                DeepSites.Site first = DeepSites.site(r.firstSite);
                e.firstSite = first == null ? null : first.where;
                e.lockedByOthers = r.lockedByOthers;
                e.firstRunAll = r.firstRunAll;
                e.firstRunNonRecursive = r.firstRunNonRecursive;
                e.firstLockerNonRecursive = r.firstLockerNonRecursive;
                e.commit();
            }
            DeepSites.Site[] sites = DeepSites.all();
            long[][] totals = DeepSites.totals();
            for (int i = 0; i < Math.min(sites.length, totals.length); i++) {
                long[] c = totals[i];
                DeepSiteEvent e = new DeepSiteEvent();
                e.site = sites[i].where;
                e.kind = sites[i].kind;
                e.counts(c[DeepSites.GETS], c[DeepSites.NON_RECURSIVE], c[DeepSites.SLOW], c[DeepSites.RECURSIVE],
                        c[DeepSites.WAITS], c[DeepSites.NOTIFIES], c[DeepSites.SECTIONS], c[DeepSites.TRY_FAILURES],
                        c[DeepSites.HOLD_NANOS], c[DeepSites.MAX_HOLD_NANOS], DeepSites.holdHistogram(c),
                        c[DeepSites.BLOCKED], c[DeepSites.TIMED_SECTIONS]);
                if (e.gets + e.waits + e.notifies + e.tryFailures > 0) {
                    e.commit();
                }
            }
            info.selection = selection;
            info.classes = CLASSES.get();
            info.sites = sites.length;
            info.untracked = DeepHooks.untracked();
            info.probeNanos = probeNanos;
            info.holdInflationNanos = holdInflationNanos;
            info.probeFailures = HookFailures.count();
            info.commit();
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }

    private static final Object CALIBRATION_LOCK = new Object();

    static boolean isCalibration(DeepLockRecord r) {
        return r.key.get() == CALIBRATION_LOCK;
    }
    private static long calibrationCounter;

    /**
     * Measures the probes on an uncontended monitor of this class: the same acquisitions with and without
     * the three probes, best of several rounds, so that a busy machine inflates the figure less. Also the
     * mean hold the probes measure for a section that only increments a counter: how much every measured
     * hold is lengthened by the probes themselves. Runs on its own thread; deep mode must be active.
     */
    public static void calibrate() {
        try {
            final int n = 100_000;
            long bestBare = Long.MAX_VALUE;
            long bestProbed = Long.MAX_VALUE;
            long bestHold = Long.MAX_VALUE;
            for (int round = 0; round < 8; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    synchronized (CALIBRATION_LOCK) {
                        calibrationCounter++;
                    }
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    DeepHooks.preEnter(CALIBRATION_LOCK, -1);
                    synchronized (CALIBRATION_LOCK) {
                        DeepHooks.postEnter();
                        calibrationCounter++;
                        DeepHooks.preExit(CALIBRATION_LOCK);
                    }
                }
                long t2 = System.nanoTime();
                bestBare = Math.min(bestBare, t1 - t0);
                bestProbed = Math.min(bestProbed, t2 - t1);
                DeepLockRecord r = DeepHooks.recordOf(CALIBRATION_LOCK);
                if (r != null) {
                    // the holds of this round only: the record is this thread's alone
                    bestHold = Math.min(bestHold, r.holdNanos / Math.max(1, r.sections));
                    r.holdNanos = 0;
                    r.sections = 0;
                }
            }
            DeepHooks.forget(CALIBRATION_LOCK);
            probeNanos = Math.max(0, (bestProbed - bestBare) / n);
            holdInflationNanos = bestHold == Long.MAX_VALUE ? 0 : bestHold;
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }
}
