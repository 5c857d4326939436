package dev.lockscope.demo;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Virtual threads contending on one lock, measuring their own truth (JDK 21+):
 * {@code VirtualThreadContention sync|lock [--threads N] [--rounds R] [--hold-ms H]}. Each of N
 * virtual threads (named {@code vt-worker-<i>} by one factory) takes the lock R times and sleeps H ms
 * inside it, in {@link #holdInsideLock}; the time from asking for the lock to holding it is summed and
 * printed as {@code truth-total wait <nanos>}. With {@code sync} on JDK 21-23 every waiter and the
 * sleeping holder pin their carriers (pinning); on JDK 24+ they unmount.
 *
 * <p>Built for Java 17 like the rest of the demo jar, so the JDK 21 API is called reflectively.
 */
public final class VirtualThreadContention {
    private static final Object MONITOR = new Object();
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final LongAdder WAIT_NANOS = new LongAdder();

    private VirtualThreadContention() {
    }

    public static void main(String[] args) throws Exception {
        boolean monitor = args.length > 0 && args[0].equals("sync");
        int threads = 8;
        int rounds = 20;
        long holdMs = 10;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--hold-ms" -> holdMs = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        ThreadFactory factory = virtualThreadFactory("vt-worker-");
        int r = rounds;
        long h = holdMs;
        List<Thread> started = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Thread t = factory.newThread(() -> {
                for (int k = 0; k < r; k++) {
                    if (monitor) {
                        takeMonitor(h);
                    } else {
                        takeLock(h);
                    }
                }
            });
            t.start();
            started.add(t);
        }
        for (Thread t : started) {
            t.join();
        }
        System.out.println("truth-total wait " + WAIT_NANOS.sum());
        System.out.println("truth-total run " + (System.nanoTime() - t0));
    }

    private static void takeMonitor(long holdMs) {
        long asked = System.nanoTime();
        synchronized (MONITOR) {
            WAIT_NANOS.add(System.nanoTime() - asked);
            holdInsideLock(holdMs);
        }
    }

    private static void takeLock(long holdMs) {
        long asked = System.nanoTime();
        LOCK.lock();
        try {
            WAIT_NANOS.add(System.nanoTime() - asked);
            holdInsideLock(holdMs);
        } finally {
            LOCK.unlock();
        }
    }

    /** The owner's code while the others wait. */
    private static void holdInsideLock(long holdMs) {
        try {
            Thread.sleep(holdMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code Thread.ofVirtual().name(prefix, 0).factory()}. */
    static ThreadFactory virtualThreadFactory(String prefix) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Class<?> builderType = Class.forName("java.lang.Thread$Builder");
        Method name = builderType.getMethod("name", String.class, long.class);
        builder = name.invoke(builder, prefix, 0L);
        return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
    }
}
