package dev.lockscope.agent.boot;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * lockscope's thread "lockscope-virtual-thread-events", which commits the events that virtual-thread hooks
 * hand over: JFR silently loses events committed around a virtual thread's mount and unmount (see
 * {@link VirtualThreadHooks}), so the hooks only record, and every 10 ms this daemon thread runs each
 * registered task, which commits what has ended. It ends when profiling stops ({@link #stop}), so an
 * attach cycle leaves no lockscope thread behind.
 */
public final class EventCommitter {
    private static final Map<String, Runnable> TASKS = new ConcurrentHashMap<>();
    private static Thread thread;

    private EventCommitter() {
    }

    /** Runs {@code task} every 10 ms from now on (once per {@code name}); starts the thread with the first. */
    static synchronized void every10ms(String name, Runnable task) {
        TASKS.putIfAbsent(name, task);
        if (thread == null) {
            thread = new Thread(EventCommitter::run, "lockscope-virtual-thread-events");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Ends the thread and forgets the tasks, once their hooks are deactivated (they committed what they
     * held); the next activation starts it again.
     */
    public static void stop() {
        Thread t;
        synchronized (EventCommitter.class) {
            t = thread;
            thread = null;
            TASKS.clear();
        }
        OwnThreads.end(t);
    }

    private static void run() {
        while (!Thread.currentThread().isInterrupted()) {
            for (Runnable task : TASKS.values()) {
                task.run(); // each task catches what it throws (HookFailures)
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
