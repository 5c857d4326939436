package dev.lockscope.agent.boot;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Hooks run inside the application's own calls to LockSupport and AQS: whatever goes wrong in
 * lockscope is counted here and swallowed, never thrown into the application. The first failure
 * is kept so the exit report can name it.
 */
public final class HookFailures {
    private static final AtomicLong COUNT = new AtomicLong();
    private static volatile Throwable first;

    private HookFailures() {
    }

    static void record(Throwable t) {
        if (COUNT.getAndIncrement() == 0) {
            first = t;
        }
    }

    public static long count() {
        return COUNT.get();
    }

    public static Throwable first() {
        return first;
    }
}
