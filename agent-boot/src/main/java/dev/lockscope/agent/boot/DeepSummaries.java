package dev.lockscope.agent.boot;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes deep mode's statistics ({@link DeepLockEvent} per lock object, {@link DeepSiteEvent} per site,
 * one {@link DeepInfoEvent}) at every chunk end, from JFR's periodic thread; and measures, once at start,
 * what the probes cost (seed 002 §5.2: probes lengthen critical sections, so their cost is reported
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
                e.gets = r.gets;
                e.nonRecursive = r.nonRecursive;
                e.slow = r.slow;
                e.recursive = r.recursive;
                e.tryFailures = r.tryFailures();
                e.waits = r.waits;
                e.notifies = r.notifies;
                e.sections = r.sections;
                e.holdNanos = r.holdNanos;
                e.maxHoldNanos = r.maxHoldNanos;
                e.holdHistogram = dev.lockscope.core.HoldHistogram.format(r.holdHistogram.clone());
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
            for (DeepSites.Site s : sites) {
                DeepSiteEvent e = new DeepSiteEvent();
                e.site = s.where;
                e.kind = s.kind;
                e.gets = s.count(DeepSites.GETS);
                e.nonRecursive = s.count(DeepSites.NON_RECURSIVE);
                e.slow = s.count(DeepSites.SLOW);
                e.recursive = s.count(DeepSites.RECURSIVE);
                e.tryFailures = s.count(DeepSites.TRY_FAILURES);
                e.waits = s.count(DeepSites.WAITS);
                e.notifies = s.count(DeepSites.NOTIFIES);
                e.sections = s.count(DeepSites.SECTIONS);
                e.holdNanos = s.count(DeepSites.HOLD_NANOS);
                e.maxHoldNanos = s.count(DeepSites.MAX_HOLD_NANOS);
                e.holdHistogram = dev.lockscope.core.HoldHistogram.format(s.holdHistogram());
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
     * the four probes, best of several rounds, so that a busy machine inflates the figure less. Also the
     * mean hold the probes measure for a section that only increments a counter: how much every measured
     * hold is lengthened by the probes themselves. Runs on its own thread; deep mode must be active.
     */
    public static void calibrate() {
        try {
            final int n = 50_000;
            long bestBare = Long.MAX_VALUE;
            long bestProbed = Long.MAX_VALUE;
            for (int round = 0; round < 6; round++) {
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
                    DeepHooks.postExit();
                }
                long t2 = System.nanoTime();
                bestBare = Math.min(bestBare, t1 - t0);
                bestProbed = Math.min(bestProbed, t2 - t1);
            }
            DeepLockRecord r = DeepHooks.forget(CALIBRATION_LOCK);
            probeNanos = Math.max(0, (bestProbed - bestBare) / n);
            if (r != null && r.sections > 0) {
                holdInflationNanos = r.holdNanos / r.sections;
            }
        } catch (Throwable t) {
            HookFailures.record(t);
        }
    }
}
