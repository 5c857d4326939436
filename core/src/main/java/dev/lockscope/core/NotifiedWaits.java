package dev.lockscope.core;

import java.util.List;

/**
 * Which {@code Object.wait} counts as a wait for a lock built on wait/notify ({@link LockKind#WAIT}, a database's
 * row lock, a hand-made latch): one that another thread's notify ended, so the waiter waited for something that
 * thread did (released, produced). A timeout, a wait nobody is known to have ended, a thread's notify of itself,
 * and a join or a process wait (the JVM's notify when a thread or process ends: nothing was held) do not. The one
 * rule of the agent's exit table and of every analysis of {@code lockscope report}.
 */
public final class NotifiedWaits {
    /**
     * The innermost frames a join or a process wait is seen in: {@code Object.wait0}, {@code Object.wait},
     * {@code Thread.join} (twice) or {@code ProcessImpl.waitFor}, whatever the JDK. The agent formats no more of a
     * wait's stack than these to decide.
     */
    public static final int DEPTH = 6;

    private NotifiedWaits() {
    }

    /**
     * @param notifierTid the Java thread id of the thread whose notify ended the wait, 0 when none is known
     * @param frames      the waiter's stack, innermost first; only the first {@link #DEPTH} are read
     */
    public static boolean isLockWait(boolean timedOut, long notifierTid, long waiterTid, List<String> frames) {
        return wokenByAnotherThread(timedOut, notifierTid, waiterTid) && !endsWithAThreadOrProcess(frames);
    }

    /** Whether another thread's notify ended the wait (not a timeout, not its own notify, not unknown). */
    public static boolean wokenByAnotherThread(boolean timedOut, long notifierTid, long waiterTid) {
        return !timedOut && notifierTid != 0 && notifierTid != waiterTid;
    }

    private static boolean endsWithAThreadOrProcess(List<String> frames) {
        for (int i = 0; i < Math.min(DEPTH, frames.size()); i++) {
            String f = frames.get(i);
            if (f.startsWith("java.lang.Thread.join") || f.startsWith("java.lang.ProcessImpl.waitFor")) {
                return true;
            }
        }
        return false;
    }
}
