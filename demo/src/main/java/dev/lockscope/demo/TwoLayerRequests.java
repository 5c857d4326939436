package dev.lockscope.demo;

import java.util.Hashtable;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two bottlenecks in two layers (Guerin et al.'s BRMS case: an application-wide lock held "until the
 * session is successfully created", with a JDK-class lock below it). Each request does p µs of
 * parallel work, then creates a session: a µs of set-up under the application's {@code sessionLock},
 * then a template lookup in a shared {@link Hashtable} whose loader runs inside
 * {@code Hashtable.computeIfAbsent}, so under the table's monitor, for j µs.
 *
 * <p>With the application lock the table is only ever used by its holder: the JDK lock is hidden.
 * {@code --no-app-lock} removes the application lock (the set-up work stays), and the table's
 * monitor becomes the bottleneck. Options: {@code --parallel-us} (8000), {@code --app-us} (2000),
 * {@code --jdk-us} (2000), {@code --no-app-lock}.
 */
final class TwoLayerRequests implements Workload {
    private final long parallelMicros;
    private final long appMicros;
    private final long jdkMicros;
    private final boolean appLock;
    private final ReentrantLock sessionLock = new ReentrantLock();
    /**
     * Templates by id: most lookups miss, so the loader runs under the table's lock. Declared a Hashtable (not a
     * Map) so that deep mode, which sees a JDK monitor only at calls of a synchronized JDK method, sees this one.
     */
    private final Hashtable<Integer, String> templates = new Hashtable<>();
    private final AtomicInteger loads = new AtomicInteger();

    TwoLayerRequests(List<String> args) {
        WorkloadArgs a = new WorkloadArgs(args, Set.of("--parallel-us", "--app-us", "--jdk-us"), Set.of("--no-app-lock"));
        this.parallelMicros = a.number("--parallel-us", 8000);
        this.appMicros = a.number("--app-us", 2000);
        this.jdkMicros = a.number("--jdk-us", 2000);
        this.appLock = !a.flag("--no-app-lock");
    }

    @Override
    public long operation() throws InterruptedException {
        Delay.micros(parallelMicros);
        if (appLock) {
            createSessionLocked();
        } else {
            createSession();
        }
        return 1;
    }

    private void createSessionLocked() throws InterruptedException {
        sessionLock.lock();
        try {
            createSession();
        } finally {
            sessionLock.unlock();
        }
    }

    private void createSession() throws InterruptedException {
        Delay.micros(appMicros);
        lookupTemplate(ThreadLocalRandom.current().nextInt(1_000_000));
    }

    private String lookupTemplate(int id) {
        if (loads.incrementAndGet() % 10_000 == 0) {
            templates.clear(); // bounded, and still mostly misses
        }
        return templates.computeIfAbsent(id, this::loadTemplate);
    }

    /** Runs inside Hashtable.computeIfAbsent, holding the table's monitor. */
    private String loadTemplate(int id) {
        try {
            Delay.micros(jdkMicros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "template-" + id;
    }
}
