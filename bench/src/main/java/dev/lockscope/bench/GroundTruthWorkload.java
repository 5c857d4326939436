package dev.lockscope.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lock workloads that know their true wait, hold and owner times because they time every acquisition
 * themselves ({@link System#nanoTime()} before {@code lock()} / the {@code synchronized} block, on entry,
 * and just before release), independently of any profiler. At exit they print {@link GroundTruth}'s
 * {@code truth <lock> <metric> <value>} lines.
 *
 * <pre>GroundTruthWorkload &lt;two-sites|frequent|split&gt; &lt;juc|sync&gt; [--threads N] [--seconds S] [--split P:Q[:R]] [--unit-ms U] [--busy]</pre>
 *
 * <ul>
 * <li>{@code two-sites}: one lock taken in turn at two call sites, {@link #siteA} holding it 9 ms and
 * {@link #siteB} 1 ms, by 4 threads; the lock is saturated, so about 90% of the waiting is caused by
 * site A (the owner-blame calibration of Hofer §6 item 16, measured here rather than assumed).</li>
 * <li>{@code frequent}: the J9 park-contention report §5.3's shape: two locks with 32 ms sections, the first chosen with
 * probability 0.75, 1 ms outside any lock per operation, 8 threads.</li>
 * <li>{@code split}: issue 16's owner-blame truth: one lock held back to back by {@link #siteA},
 * {@link #siteB} and with three parts {@link #siteC}, {@code part × unit} ms each ({@code --split 3:7
 * --unit-ms 1}), with no pause between a release and the next acquisition: a releasing thread often takes
 * a monitor back without contention, which no JDK event shows.</li>
 * </ul>
 *
 * <p>Holds are sleeps, so waiters block for real ({@code --busy}: the holder computes for the hold's length
 * instead, so that what it did while holding is seen only in CPU samples, as in code that holds a lock to
 * compute). Except in {@code split}, each thread pauses briefly outside the lock after
 * each release ({@code parkNanos} without a blocker, which no tool counts as a lock wait), so that a
 * woken waiter usually gets the lock before the releasing thread comes back; without it a thread that
 * re-takes a monitor at once leaves no JDK event at all.
 */
public final class GroundTruthWorkload {
    static final long HOLD_A_MS = 9;
    static final long HOLD_B_MS = 1;
    static final long PAUSE_MICROS = 300;
    static final long FREQUENT_HOLD_MS = 32;
    static final double FREQUENT_P = 0.75;
    static final long FREQUENT_OUTSIDE_MS = 1;

    /** The monitors' class: a class of its own, so that per-class totals name only this workload's monitors. */
    static final class Monitor {
    }

    private final boolean intrinsic;
    /** Holders compute instead of sleeping. */
    private boolean busy;
    /** What the computing holders produce, written so the JIT cannot drop their loop. */
    static volatile long sink;
    private final ReentrantLock[] locks = {new ReentrantLock(), new ReentrantLock()};
    private final Monitor[] monitors = {new Monitor(), new Monitor()};
    private final String[] lockNames;
    private final Queue<List<long[]>> perThread = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<List<long[]>> mine = ThreadLocal.withInitial(() -> {
        List<long[]> l = new ArrayList<>();
        perThread.add(l);
        return l;
    });
    private final List<String> sites = List.of("siteA", "siteB", "frequentSection", "rareSection", "siteC");
    /** How long siteA, siteB and siteC hold the lock, ms. */
    private final long[] siteHoldMs = {HOLD_A_MS, HOLD_B_MS, 0};

    private GroundTruthWorkload(boolean intrinsic, String... lockNames) {
        this.intrinsic = intrinsic;
        this.lockNames = lockNames;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: GroundTruthWorkload <two-sites|frequent|split> <juc|sync> [--threads N] [--seconds S]"
                    + " [--split P:Q[:R]] [--unit-ms U] [--busy]");
            System.exit(2);
        }
        String shape = args[0];
        boolean intrinsic = switch (args[1]) {
            case "juc" -> false;
            case "sync" -> true;
            default -> throw new IllegalArgumentException("juc or sync: " + args[1]);
        };
        int threads = shape.equals("two-sites") ? 4 : 8;
        double seconds = 5;
        String split = "3:7";
        long unitMs = 1;
        boolean busy = false;
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--split" -> split = args[++i];
                case "--unit-ms" -> unitMs = Long.parseLong(args[++i]);
                case "--busy" -> busy = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        GroundTruthWorkload w;
        Body body;
        switch (shape) {
            case "two-sites" -> {
                w = new GroundTruthWorkload(intrinsic, "L");
                GroundTruthWorkload ww = w;
                body = () -> {
                    ww.siteA();
                    pause();
                    ww.siteB();
                    pause();
                };
            }
            case "frequent" -> {
                w = new GroundTruthWorkload(intrinsic, "frequent", "rare");
                GroundTruthWorkload ww = w;
                body = () -> {
                    if (ThreadLocalRandom.current().nextDouble() < FREQUENT_P) {
                        ww.frequentSection();
                    } else {
                        ww.rareSection();
                    }
                    Thread.sleep(FREQUENT_OUTSIDE_MS);
                };
            }
            case "split" -> {
                String[] parts = split.split(":");
                if (parts.length < 2 || parts.length > 3) {
                    throw new IllegalArgumentException("--split needs 2 or 3 parts: " + split);
                }
                w = new GroundTruthWorkload(intrinsic, "L");
                for (int i = 0; i < parts.length; i++) {
                    w.siteHoldMs[i] = Long.parseLong(parts[i]) * unitMs;
                }
                GroundTruthWorkload ww = w;
                boolean third = parts.length == 3;
                body = () -> {
                    ww.siteA();
                    ww.siteB();
                    if (third) {
                        ww.siteC();
                    }
                };
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
        w.busy = busy;
        long ops = w.run(body, threads, (long) (seconds * 1000));
        List<GroundTruth.Acquisition> acquisitions = w.acquisitions();
        GroundTruth.format(GroundTruth.compute(acquisitions)).forEach(System.out::println);
        // for the reader: hold time per site (not compared with any tool)
        java.util.Map<String, long[]> bySite = new java.util.TreeMap<>();
        for (GroundTruth.Acquisition a : acquisitions) {
            long[] t = bySite.computeIfAbsent(a.lock() + " " + a.site(), k -> new long[2]);
            t[0] += a.released() - a.acquired();
            t[1]++;
        }
        bySite.forEach((k, t) -> System.out.printf(Locale.ROOT, "site %s holds %d mean %.3f ms%n", k, t[1], t[0] / 1e6 / t[1]));
        System.out.printf(Locale.ROOT, "throughput: %.3f ops/s%n", ops / seconds);
    }

    interface Body {
        void run() throws InterruptedException;
    }

    private long run(Body body, int threads, long millis) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long[] ops = new long[threads];
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int n = i;
            workers.add(new Thread(() -> {
                try {
                    while (!stop.get()) {
                        body.run();
                        ops[n]++;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "truth-" + i));
        }
        workers.forEach(Thread::start);
        Thread.sleep(millis);
        stop.set(true);
        long total = 0;
        for (int i = 0; i < threads; i++) {
            workers.get(i).join();
            total += ops[i];
        }
        return total;
    }

    void siteA() throws InterruptedException {
        hold(0, 0, siteHoldMs[0]);
    }

    void siteB() throws InterruptedException {
        hold(0, 1, siteHoldMs[1]);
    }

    void siteC() throws InterruptedException {
        hold(0, 4, siteHoldMs[2]);
    }

    void frequentSection() throws InterruptedException {
        hold(0, 2, FREQUENT_HOLD_MS);
    }

    void rareSection() throws InterruptedException {
        hold(1, 3, FREQUENT_HOLD_MS);
    }

    /** Takes lock {@code lock}, holds it {@code ms}, releases it; records request, acquired and release times. */
    private void hold(int lock, int site, long ms) throws InterruptedException {
        long request;
        long acquired;
        long released;
        if (intrinsic) {
            request = System.nanoTime();
            synchronized (monitors[lock]) {
                acquired = System.nanoTime();
                pass(ms);
                released = System.nanoTime();
            }
        } else {
            request = System.nanoTime();
            locks[lock].lock();
            try {
                acquired = System.nanoTime();
                pass(ms);
            } finally {
                released = System.nanoTime();
                locks[lock].unlock();
            }
        }
        mine.get().add(new long[] {lock, site, request, acquired, released});
    }

    /** The hold itself: a sleep, or with {@code --busy} computing until {@code ms} have passed. */
    private void pass(long ms) throws InterruptedException {
        if (!busy) {
            Thread.sleep(ms);
            return;
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    private static void pause() {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(PAUSE_MICROS));
    }

    private List<GroundTruth.Acquisition> acquisitions() {
        List<GroundTruth.Acquisition> out = new ArrayList<>();
        for (List<long[]> l : perThread) { // the workers have been joined
            for (long[] a : l) {
                out.add(new GroundTruth.Acquisition(lockNames[(int) a[0]], sites.get((int) a[1]), a[2], a[3], a[4]));
            }
        }
        return out;
    }
}
