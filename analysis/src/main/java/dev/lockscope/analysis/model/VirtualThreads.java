package dev.lockscope.analysis.model;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.Frame;
import dev.lockscope.core.ThreadNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** How lockscope names virtual threads, and what it infers about their monitor waits. */
public final class VirtualThreads {
    /**
     * Stands for "the thread that acquired this monitor before" in a virtual thread's monitor wait
     * until {@link EventOrder} fills it in, in end-time order: the JVM records no owner for a virtual
     * thread blocked while unmounted (JDK 24+), so the owner is the previous contended acquirer.
     */
    static final ThreadRef PREVIOUS_ACQUIRER = new ThreadRef(-1, 0, "(previous acquirer)");

    private final Map<String, ThreadRef> lastAcquirer = new HashMap<>();

    /** Whether lockscope named this thread as a virtual thread ({@link ThreadNames#virtual}). */
    public static boolean isVirtual(ThreadRef t) {
        return t != null && (t.name().startsWith("virtual#") || t.name().endsWith(")") && t.name().contains(" (virtual#"));
    }

    /**
     * The pool a thread belongs to, so that the threads of one executor or thread factory are one
     * group: the name with its last number replaced by {@code *} ({@code pool-2-thread-7} and
     * {@code vt-worker-12} become {@code pool-2-thread-*} and {@code vt-worker-* (virtual)}); a virtual
     * thread without a name, as executors create them, is grouped by the root of its task: the
     * outermost frame outside the Java runtime and lambdas' hidden classes ({@code virtual: app.Handler.handle}).
     *
     * @param frames the thread's stack in this wait, innermost first (may be empty)
     */
    public static String poolOf(ThreadRef t, List<String> frames) {
        if (t == null || t.equals(ThreadRef.UNKNOWN)) {
            return "(unknown)";
        }
        String name = t.name();
        if (name.startsWith("virtual#")) {
            for (int i = frames.size() - 1; i >= 0; i--) {
                String f = frames.get(i);
                // a lambda's hidden class ("App$$Lambda.0x000000001f086450.run") is named anew in every
                // run: the lambda's body, the next frame in, is the same in every recording
                Frame frame = CallStack.frameAt(frames, i);
                if (frame.kind().isApplication() && (!frame.className().contains("$$Lambda") || i == 0)) {
                    return "virtual: " + frame.function();
                }
            }
            return "virtual";
        }
        boolean virtual = isVirtual(t);
        if (virtual) {
            name = name.substring(0, name.lastIndexOf(" (virtual#"));
        }
        String pool = LAST_NUMBER.matcher(name).replaceFirst("$1*");
        return virtual ? pool + " (virtual)" : pool;
    }

    private static final java.util.regex.Pattern LAST_NUMBER = java.util.regex.Pattern.compile("^(.*?)\\d+(?=\\D*$)");

    /** Fills in the previous acquirer of a virtual thread's monitor wait; call in end-time order. */
    MonitorEnter withOwner(MonitorEnter e) {
        String key = e.monitorClass() + "@" + e.address();
        if (e.previousOwner() != PREVIOUS_ACQUIRER) {
            return e;
        }
        ThreadRef previous = lastAcquirer.put(key, e.thread());
        return new MonitorEnter(e.thread(), e.monitorClass(), e.address(), e.beginNanos(), e.endNanos(),
                previous, e.frames());
    }
}
